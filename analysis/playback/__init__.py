"""Concrete playback: a violation's counterexample as a native program run.

:func:`reproducer_for` turns a violated assertion's trace into a C file
that compiles the user's program unchanged with a small scheduler of ours
(:mod:`~distaff.analysis.playback.schedule` says which operations it holds to
the counterexample's order, :mod:`~distaff.analysis.playback.reproducer`
writes the file) and a one-line build command. Run, the reproducer feeds the
failing inputs to the ``__VERIFIER_nondet_*`` calls, lets each visible
operation happen only in its turn and so fails the assertion natively
(``SIGABRT`` from ``assert``, under ``gdb`` or ``rr`` as well); when the
native run cannot follow the schedule it says at which step, and exits 3.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from distaff.analysis import ir
from distaff.analysis.playback.reproducer import (
    HELPER_NAMES, WRAPPED_NAMES, build_command, command_text, reproducer_text,
)
from distaff.analysis.playback.schedule import NotReproducible, Schedule, schedule_of
from distaff.analysis.report import AssertionResult, Status
from distaff.analysis.symex.c11 import weak_steps


def defined_in(text: str) -> frozenset[str]:
    """The wrapped library names and verification helpers ``text`` defines a
    body for (the front end keeps no body for some, e.g. ``reach_error``)."""
    return frozenset(n for n in WRAPPED_NAMES + HELPER_NAMES
                     if re.search(rf"^[\w \t*]*\b{n}\s*\([^;{{}}()]*\)\s*\{{", text, re.MULTILINE))


@dataclass(frozen=True, slots=True)
class Reproducer:
    """A reproducer to write at ``path``: its ``text``, the ``build`` command
    (run from anywhere: paths are as given) and the ``executable`` it makes."""

    path: str
    text: str
    build: str
    executable: str
    schedule: Schedule


def reproducer_for(program: ir.Program, result: AssertionResult, options, source: str, out_dir: str,
                   text: str | None = None) -> Reproducer:
    """The reproducer of violated ``result`` of ``program`` (read from file
    ``source``, whose ``text`` it is), to be written into folder ``out_dir``. Raises
    NotReproducible when there is none to make (no violation, a result from a
    program context, an operation the runtime does not wrap), or ValueError
    when the trace does not fit the program."""
    if result.status is not Status.VIOLATED or result.trace is None:
        raise NotReproducible(f"assertion at line {result.span.line} is not violated")
    if result.context:
        raise NotReproducible("a counterexample from a program context starts in a state no native run "
                              "is known to reach; check from main for a reproducer")
    if weak_steps(s.action for s in result.trace.steps):
        raise NotReproducible("the counterexample reads an older value than memory's latest (C11 allows it, and "
                              "ARM and POWER show it), which no schedule of a native run can force; on x86 it "
                              "never shows")
    if program.user_externals:
        names = ", ".join(f"{n}()" for n in program.user_externals)
        raise NotReproducible(f"{names} {'has' if len(program.user_externals) == 1 else 'have'} no body here: "
                              "a native run needs the program whole")
    schedule = schedule_of(program, result.trace, options, result.id)
    if text is None:
        with open(source, encoding="utf-8", errors="replace") as f:
            text = f.read()
    defined = frozenset(f.name for f in program.functions) | defined_in(text)
    stem = os.path.splitext(os.path.basename(source))[0]
    path = os.path.join(out_dir, f"{stem}_line{result.span.line}.c")
    exe = os.path.splitext(path)[0]
    include = os.path.relpath(os.path.abspath(source), os.path.abspath(out_dir))
    if include.startswith(os.pardir + os.sep + os.pardir):
        include = os.path.abspath(source)
    build = build_command(path, exe)
    what = (f"assertion `{result.text}`" if result.text else "the error call") + f" at {source}:{result.span.line}"
    header = [
        f"distaff reproducer: {what} fails under the schedule of distaff's counterexample",
        f"({len(schedule.cues)} steps held in order, {len(schedule.threads)} threads).",
        "",
        f"build: {build}",
        f"run:   {exe}        (or: gdb -ex run {exe}; rr record {exe})",
    ] + ([f"       it runs the program's main with the counterexample's command line: "
          f"{command_text(schedule.command_line)}"] if schedule.command_line is not None else []) + [
        "",
        "The program is compiled unchanged (included below); the scheduler before it holds",
        "every listed operation until its turn. Exit status 3: the native run left the schedule.",
    ]
    return Reproducer(path, reproducer_text(schedule, include, header, defined), build, exe, schedule)


__all__ = ["NotReproducible", "Reproducer", "reproducer_for"]
