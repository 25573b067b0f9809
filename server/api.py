"""The Python API, for programs that embed distaff: check a C text, get its
results, and the documents ``distaff check`` prints for them.

::

    from distaff import Options, Status, check_source, report_json

    report = check_source(text, Options(unwind=4), path="fig2.c")
    for a in report.assertions:
        if a.status is Status.VIOLATED:
            print(a.span.line, a.text, a.trace.steps)
    document = report_json(report)  # what `distaff check --format json fig2.c` prints

:func:`check_source` is what the command line runs for each file: the same
parse (local ``#include "x.h"`` read from disk next to ``path``), the same
check (:func:`distaff.analysis.check.check`, whose docstring states what the
verdicts promise), the same :class:`~distaff.server.render.FileReport`.
:func:`report_json` and :func:`report_sarif` give the command line's
``--format json`` and ``--format sarif`` documents of one report; their JSON
Schemas ship in the package (:func:`schema`, files
``distaff/server/schemas/result.schema.json`` and ``sarif.schema.json``).

The results are frozen dataclasses (:mod:`distaff.analysis.report`) and the
report holds nothing else: it pickles, and crosses processes.
"""

from __future__ import annotations

import json
import os
import time
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Sequence

from distaff.analysis import check as engine
from distaff.analysis import executions
from distaff.analysis.context import program_context
from distaff.analysis.frontend import parse_program
from distaff.analysis.frontend.build_flags import BuildFlags
from distaff.analysis.ir import DataModel
from distaff.analysis.link import not_entered
from distaff.analysis.options import DEFAULT_MEMORY_MB, CancelToken, Options
from distaff.analysis.report import AssertionResult, FindingsSearch
from distaff.server import render
from distaff.server.projects import LinkedProgram
from distaff.server.render import FileReport

if TYPE_CHECKING:
    from distaff.analysis.playback import Reproducer

SCHEMAS = ("result", "sarif")


class ContextError(ValueError):
    """A context position (``context_positions``, the CLI's ``--from``) that
    names no statement of the program."""


class ProgressListener(Protocol):
    """Told how a check goes (the command line's progress line is one)."""

    def start_file(self, path: str, total: int) -> None:
        """The check of ``path`` starts; it has ``total`` assertions."""

    def decided(self, result: AssertionResult) -> None:
        """One more assertion is decided."""


# what check_source checks with unless told: the command line's defaults, the
# memory cap among them (each sub-check past the first 0.1 s in a process of its own,
# stopped at its budget)
DEFAULT_OPTIONS = Options(max_memory_mb=DEFAULT_MEMORY_MB)


def check_source(text: str, options: Options = DEFAULT_OPTIONS, *, path: str = "<source>",
                 cancel: CancelToken | None = None,
                 context_positions: Sequence[tuple[int, int | None]] = (),
                 reaching_defs: bool = True, sync_invariants: bool = True,
                 flags: BuildFlags | None = None,
                 progress: ProgressListener | None = None) -> FileReport:
    """Check every assertion of the C source ``text`` and return its report.

    ``path`` names the text in spans and messages; local ``#include "x.h"``
    are read from its folder (the working directory for a bare name such as
    the default), and ``flags`` (include folders, macros) apply as a
    compiler's would. ``context_positions`` (1-based line, column or None for
    the line's first character; one per thread, the first the cursor's)
    check from that program context instead of ``main``, its initial state
    from must-reaching definitions and synchronization invariants unless
    ``reaching_defs`` / ``sync_invariants`` switch them off.

    The report has every assertion exactly once and each finding once, in
    the order the check decided them (the documents sort them by place).
    Nothing about the program raises:

    * syntax errors: SYNTAX findings with their spans, and every assertion
      UNKNOWN with reason SKIPPED (never HOLDS); text that is binary data is
      one SYNTAX finding;
    * C distaff does not cover: UNSUPPORTED findings, and the assertions it
      may hide UNKNOWN with reason UNSUPPORTED;
    * ``cancel`` set (from another thread): it returns promptly, the
      assertions not yet decided UNKNOWN with reason CANCELLED;
    * budgets: with ``options.max_memory_mb`` (by default
      :data:`~distaff.analysis.options.DEFAULT_MEMORY_MB`, as on the command
      line) each sub-check runs in a forked process capped there and killed
      half a second past its time budget, whatever z3 is doing, but for
      those done within the check's first 0.1 s: they run in this process,
      its address space capped for that while (a trial, which one whose
      process is already over half the cap leaves out); with 0 and a
      time budget, on a thread of this process, left to end at its next poll
      once its budget and that half second are past (this call returns on
      time either way);
    * ``options.timeout_s`` (per assertion) or ``total_timeout_s`` ran out:
      those assertions UNKNOWN with reason TIMEOUT (after deepening, with
      ``finished_unwind`` the deepest unwind bound finished without a
      violation, and the message saying so): never a verdict.

    Raises :class:`ContextError` for a context position with no statement,
    ValueError for options it cannot check with (an unknown mode or
    property), and the cluster's ``ClusterUnavailable`` when
    ``options.scheduler`` cannot be used. With ``options.workers > 1`` or
    ``max_memory_mb`` the sub-checks run in spawned processes: a script
    calling this then needs the ``if __name__ == "__main__":`` guard.
    """
    ingredients = (reaching_defs, sync_invariants)
    program = parse_file(path, text, options.data_model, flags)
    where = tuple(resolve_positions(text, list(context_positions)))
    context = context_from(program, where, ingredients) if where else None
    if progress is not None:
        progress.start_file(path, len(program.assertions()))
    start = time.monotonic()
    assertions, findings, search = _collect(engine.check(program, options, cancel, context=context), progress)
    return FileReport(path, tuple(assertions), tuple(findings), time.monotonic() - start, where,
                      render.text_digest(text), ingredients, options, search=search)


def _collect(items, progress: ProgressListener | None, shown=lambda item: item):
    """The assertions, findings and the search's end among a check's
    ``items`` (each passed through ``shown``), telling ``progress`` of each
    assertion as it comes."""
    assertions, findings, search = [], [], None
    for item in items:
        item = shown(item)
        if isinstance(item, AssertionResult):
            assertions.append(item)
            if progress is not None:
                progress.decided(item)
        elif isinstance(item, FindingsSearch):
            search = item
        else:
            findings.append(item)
    return assertions, findings, search


def check_linked(program: LinkedProgram, options: Options = DEFAULT_OPTIONS, *, cancel: CancelToken | None = None,
                 progress: ProgressListener | None = None) -> FileReport:
    """Check every assertion of a program linked from several files
    (:class:`~distaff.server.projects.Project` makes one, from the files a
    user names or from a ``compile_commands.json``) and return its report:
    named by the file whose ``main`` starts it, each result in the file it
    belongs to, its names those of the C text (a ``static`` renamed apart
    from another file's is shown by its own name). A program no ``main``
    runs (``program.unentered``) is not explored: each assertion is
    undecided, reason NO_ENTRY, saying why. Otherwise as
    :func:`check_source`."""
    linked = program.linked
    if progress is not None:
        progress.start_file(program.path, len(linked.program.assertions()))
    if program.unentered:
        items = not_entered(linked.program, options, program.unentered)
    else:
        items = engine.check(linked.program, options, cancel)
    start = time.monotonic()
    assertions, findings, search = _collect(items, progress, linked.shown)
    texts = dict(program.texts)
    digests = tuple((f, render.text_digest(texts[f])) for f in linked.files if f in texts)
    return FileReport(program.path, tuple(assertions), tuple(findings), time.monotonic() - start, (),
                      dict(digests).get(program.path, ""), (True, True), options, digests, search)


def report_json(report: FileReport) -> dict:
    """The ``--format json`` document of ``report`` alone (``version`` 1,
    :func:`schema` ``"result"``), with the options it was checked with."""
    return render.json_document([report], report.options, version())


def report_sarif(report: FileReport) -> dict:
    """The ``--format sarif`` log (SARIF 2.1.0) of ``report`` alone."""
    return render.sarif_log([report], report.options, version())


def schema(name: str) -> dict:
    """The JSON Schema (draft 2020-12) of the ``"result"`` documents
    (:func:`report_json`, ``--format json``) or of the ``"sarif"`` logs distaff
    writes (the part of SARIF 2.1.0 it uses); ValueError for another name."""
    if name not in SCHEMAS:
        raise ValueError(f"no schema {name!r} (known: {', '.join(SCHEMAS)})")
    return json.loads((resources.files("distaff.server") / "schemas" / f"{name}.schema.json").read_text("utf-8"))


def version() -> str:
    """distaff's version (``distaff.__version__``, which the distribution's
    metadata is built from: reading that metadata cost a command 8 ms)."""
    from distaff import __version__

    return __version__


def write_reproducer(program, result: AssertionResult, options: Options, source: str, out_dir: str,
                     text: str | None = None) -> Reproducer:
    """Write the native reproducer of violated ``result`` of ``program``
    (the file ``source``, whose text is ``text``) into ``out_dir``, made if
    missing (:func:`distaff.analysis.playback.reproducer_for`); what was
    written. Raises NotReproducible (a ValueError) when there is none to
    make, ValueError when the trace does not fit the program, OSError when the
    file cannot be written."""
    from distaff.analysis.playback import reproducer_for  # a reproducer's analyses load only for one

    rep = reproducer_for(program, result, options, source, out_dir, text)
    os.makedirs(out_dir, exist_ok=True)
    Path(rep.path).write_text(rep.text, encoding="utf-8")
    return rep


# --------------------------------------------------------------------------
# The steps of check_source, also the command line's


def count_executions(program, options: Options = DEFAULT_OPTIONS, cancel: CancelToken | None = None):
    """The executions of ``program`` (:func:`distaff.analysis.executions.count_executions`)."""
    return executions.count_executions(program, options, cancel)


def parse_file(path: str, text: str, data_model: DataModel, flags: BuildFlags | None = None):
    """The program of a file's text, local ``#include "x.h"`` read next to it
    as the engine's own :func:`~distaff.analysis.check.check_text` does, and with the
    file's :class:`~distaff.analysis.frontend.build_flags.BuildFlags`."""
    return parse_program(text, path, data_model=data_model, read_include=engine.disk_includes, flags=flags)


def resolve_positions(text: str, positions: list[tuple[int, int | None]]) -> list[tuple[int, int]]:
    """Fill in a missing column with the line's first non-blank character."""
    lines = text.split("\n")
    out = []
    for line, col in positions:
        if col is None:
            body = lines[line - 1] if line <= len(lines) else ""
            col = len(body) - len(body.lstrip()) + 1
        out.append((line, col))
    return out


def context_from(program, where, ingredients: tuple[bool, bool] = (True, True)):
    """The program context whose threads start at ``where`` (the first the
    cursor's thread; the same position twice is two threads), its initial
    state from must-reaching definitions and synchronization invariants
    unless ``ingredients`` switch them off
    (:func:`distaff.analysis.context.program_context`); ContextError when a
    position has no statement."""
    rd, si = ingredients
    try:
        return program_context(program, list(where), reaching_defs=rd, sync_invariants=si)
    except ValueError as e:
        raise ContextError(str(e)) from None


__all__ = [
    "SCHEMAS", "ContextError", "ProgressListener", "check_linked", "check_source", "context_from", "parse_file",
    "report_json", "report_sarif", "resolve_positions", "schema", "version", "write_reproducer",
]
