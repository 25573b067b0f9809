"""The command line: ``distaff check | ir | lsp``.

``distaff check FILE...`` checks every assertion of each file and prints the
results (:mod:`distaff.server.render`: GCC-style text, JSON or SARIF). Exit status:

* 0 -- no violation found and every assertion decided: proven (holds,
  unreachable) or, as bounded model checkers answer, with no violation within
  the unwind bound (status ``bounded``; the text says it is not a proof).
  With ``--property unreach-call``, 0 only for a proof;
* 1 -- something was found: an assertion that can fail, a deadlock, a thread
  stuck spinning forever, a run-time
  error (or a data race, when ``--races`` asked for them). This wins over
  everything below, so CI fails on a real bug even if another file was bad;
* 2 -- bad input or usage: a bad flag, an unreadable file, a ``--from``
  position with no statement, a file with syntax errors (its findings are
  printed and its assertions reported as skipped: never "holds"), or a
  ``--scheduler`` that cannot be reached (or Dask not installed);
* 3 -- inconclusive: some assertion undecided (timeout, run limit, solver,
  not reached within the unwind bound; with ``--property``, any answer short
  of a proof),
  or the file uses C that distaff does not cover (an "unsupported" warning:
  what was not modelled may hide a failure, or the assertions themselves),
  none violated;
* 4 -- internal error: a bug in distaff, reported as one line
  ``distaff: internal error: ...`` (set ``DISTAFF_DEBUG=1`` for the traceback);
* 130 -- interrupted (Ctrl-C); 141 -- stdout closed early (``| head``).

Errors are one line on stderr, never a traceback. ``distaff ir FILE`` prints
the lowered program (the golden-test format) and exits 2 on syntax errors;
``distaff lsp`` runs the language server on stdio (``--tcp PORT``: on
127.0.0.1 only).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import distaff
from distaff import core
from distaff.analysis import check as engine
from distaff.analysis.check import Options
from distaff.analysis.options import DEFAULT_MEMORY_MB, DEFAULT_SYM_ARG_LEN, DEFAULT_SYM_ARGS, MEMORY_MODELS
from distaff.analysis.cluster import ClusterUnavailable, client_for
from distaff.analysis.explore import races
from distaff.analysis.frontend import BINARY, binary
from distaff.analysis.frontend.build_flags import BuildFlags, flags_for, parse_args
from distaff.analysis.ir import DataModel, Span
from distaff.analysis.irtext import format_program
from distaff.analysis.link import LinkError
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Status, trace_from_json
from distaff.server import api, render, wording
from distaff.server.api import parse_file, version
from distaff.server.projects import (
    LinkedProgram, Project, ProjectError, database_of, entry_note, linked_note, undefined_notes,
)
from distaff.server.render import FileReport

resolve_positions = api.resolve_positions  # --from's columns; the API's, named here as before

EXIT_OK = 0
EXIT_FOUND = 1
EXIT_BAD_INPUT = 2
EXIT_UNDECIDED = 3
EXIT_INTERNAL = 4
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader left

FOUND_KINDS = frozenset({FindingKind.ASSERTION, FindingKind.DEADLOCK, FindingKind.STUCK, FindingKind.ERROR,
                         FindingKind.DATA_RACE})


class UsageError(Exception):
    """A bad command line: printed as one line with a pointer to --help."""


class BadInput(Exception):
    """Input that cannot be checked (unreadable file, bad position): one line."""


# --------------------------------------------------------------------------
# Arguments


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print usage and exit
        raise UsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


def _position(text: str) -> tuple[int, int | None]:
    line, _, col = text.partition(":")
    try:
        pos = (int(line), int(col) if col else None)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not LINE or LINE:COL: {text!r}") from None
    if pos[0] < 1 or (pos[1] is not None and pos[1] < 1):
        raise argparse.ArgumentTypeError(f"lines and columns count from 1: {text!r}")
    return pos


def _count(minimum: int):
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if n < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}: {text!r}")
        return n
    return parse


def _workers(text: str) -> int | str:
    if text == "auto":
        return text
    if not text.strip().lstrip("+-").isdigit():
        raise argparse.ArgumentTypeError(f"not an integer or auto: {text!r}")
    return _count(1)(text)


def cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system
    says), at least 1: what ``--workers auto`` means."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _seconds(text: str) -> float:
    try:
        s = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not s > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return s


def _seconds_or_none(text: str) -> float | str:
    """Seconds, or ``none`` (no limit)."""
    return "none" if text.strip().lower() == "none" else _seconds(text)


def _add_data_model(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-model", choices=[m.value for m in DataModel], default=None,
                   help="integer and pointer widths (default lp64)")
    flags = p.add_argument_group("build flags (as a C compiler takes them; system headers are never read)")
    flags.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                       help="search DIR for #include files (repeatable)")
    flags.add_argument("-iquote", dest="quote_dirs", action="append", default=[], metavar="DIR",
                       help='search DIR for #include "..." files only')
    flags.add_argument("-isystem", dest="system_dirs", action="append", default=[], metavar="DIR",
                       help="search DIR after the -I directories")
    flags.add_argument("-D", dest="macros", action="append", default=[], type=lambda v: ("D", v),
                       metavar="NAME[=VALUE]", help="define a macro (VALUE 1 when left out)")
    flags.add_argument("-U", dest="macros", action="append", type=lambda v: ("U", v), metavar="NAME",
                       help="undefine a macro")
    flags.add_argument("-include", dest="forced_includes", action="append", default=[], metavar="FILE",
                       help="read FILE before the first line")
    flags.add_argument("--compile-commands", default=None, metavar="PATH",
                       help="take each file's flags from its entry in this compile_commands.json "
                       "(default: the nearest one in the file's directory or above, or in a build/ "
                       "directory beside one); the flags above come after them")
    flags.add_argument("--no-compile-commands", dest="use_compile_commands", action="store_false",
                       default=True, help="do not look for a compile_commands.json")


class _Version(argparse.Action):
    """``--version``, whose text is looked up only when asked for: the
    package metadata costs every other command a sizeable part of its
    start (bench/startup_bench.py)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"distaff {version()} (core: {core.STATE})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="distaff", description="Check assert()s in multithreaded C programs "
                     "by symbolic execution.")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and the core's build, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="check the assertions of C files",
                           description="Check every assertion of each FILE. Exit status: 0 none "
                           "violated, 1 violation/deadlock/error (with --races: data race) found, "
                           "2 bad input or usage (incl. syntax errors), 3 inconclusive (undecided "
                           "or unsupported C), "
                           "4 internal error.")
    # Defaults are None so that --replay can tell flags given from the result's own options.
    check.add_argument("--mode", choices=engine.MODES, default=None,
                       help="exploration: baseline, dpor, dpor-ag (default), or rf (dpor that orders two "
                       "writes only when a read sees which came last)")
    check.add_argument("--unwind", type=_count(0), default=None, metavar="N",
                       help="loop and recursion bound (default 8)")
    check.add_argument("--sym-args", type=_count(0), default=None, metavar="N",
                       help=f"main's command line: at most N arguments after the program's name, as symbolic "
                       f"inputs (default {DEFAULT_SYM_ARGS}); an answer that relies on the bound says so")
    check.add_argument("--sym-arg-len", type=_count(1), default=None, metavar="L",
                       help=f"bytes of each symbolic argument, its terminating zero not counted "
                       f"(default {DEFAULT_SYM_ARG_LEN})")
    check.add_argument("--timeout", type=_seconds, default=None, metavar="S",
                       help="seconds for the whole command, every file and assertion and the "
                       "search for deadlocks included (default none); what is left undecided "
                       "when it runs out says so")
    check.add_argument("--assertion-timeout", type=_seconds, default=None, metavar="S",
                       help="seconds per assertion (default none)")
    check.add_argument("--no-findings", dest="findings", action="store_false", default=None,
                       help="no search for deadlocks and run-time errors beyond the assertions' own "
                       "(it runs when no assertion's check explored every run)")
    check.add_argument("--findings-timeout", type=_seconds_or_none, default=None, metavar="S|none",
                       help="seconds the search for deadlocks and run-time errors may take, from its start "
                       f"(default {engine.DEFAULT_FINDINGS_TIMEOUT_S:g}; none: no limit but --timeout); "
                       "the summary says whether it finished")
    check.add_argument("--property", choices=(engine.UNREACH_CALL,), default=None,
                       help="unreach-call: the error calls (reach_error(), __VERIFIER_error()) are one "
                       "property, as in SV-COMP: the check stops at the first one reached; assert() and "
                       "the search for deadlocks are left out")
    check.add_argument("--max-runs", type=_count(1), default=None, metavar="N",
                       help="runs per assertion (default none)")
    check.add_argument("--workers", type=_workers, default="auto", metavar="N|auto",
                       help="assertions checked at once (default auto: one per core), each in a process of its "
                       "own once the check has run 0.1 s (before, in this process); with --max-memory 0 and 1 "
                       "worker, all in this process")
    check.add_argument("--max-memory", dest="max_memory_mb", type=_count(0), default=None, metavar="MB",
                       help=f"memory (address space) of each sub-check, which runs in a process of its own "
                            f"unless it ends within the check's first 0.1 s (default {DEFAULT_MEMORY_MB}; 0: no "
                            f"cap, sub-checks run in this process); one over it stops and its assertion is "
                            f"undecided (memory limit)")
    check.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                       help="run the sub-checks (one per assertion) on this Dask scheduler's "
                       "workers instead of here; they need distaff installed (pip install "
                       "'distaff[cluster]')")
    _add_data_model(check)
    check.add_argument("--memory-model", choices=MEMORY_MODELS, default=None,
                       help="how memory is read: sc (sequentially consistent, the default) or rc11 (C11 as "
                       "RC11 repairs it: relaxed, acquire and release atomics may read older writes)")
    check.add_argument("--count-executions", action="store_true", default=False,
                       help="explore every execution whatever the assertions and say how many there are "
                       "(a litmus test's reading)")
    check.add_argument("--races", action="store_true", default=None,
                       help="also report data races (they then count as found)")
    check.add_argument("--spurious-wakeups", action=argparse.BooleanOptionalAction, default=None,
                       help="a condition wait may also return without a signal, as POSIX allows (default on; "
                       "--no-spurious-wakeups: only when signalled)")
    check.add_argument("--disable", action="append", default=[], metavar="OPT",
                       help="switch one optimisation off by name (repeatable)")
    check.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    check.add_argument("--summaries", action="store_true", default=False,
                       help="with --format json: add the predicate summaries learned at each statement "
                       "(mode dpor-ag), printed as C, as the editor's hover shows them (printing them can "
                       "take longer than the check)")
    check.add_argument("--from", dest="positions", action="append", type=_position, default=[],
                       metavar="LINE[:COL]", help="check from a program context: one per thread, "
                       "the first the cursor's (repeatable; needs exactly one FILE)")
    ctx = check.add_argument_group("checking from a program context (with --from)")
    ctx.add_argument("--no-reaching-defs", dest="reaching_defs", action="store_false", default=True,
                     help="start from fresh symbols instead of must-reaching definitions")
    ctx.add_argument("--no-sync-invariants", dest="sync_invariants", action="store_false", default=True,
                     help="leave locks and barriers unconstrained instead of using locksets and barrier counts")
    ctx.add_argument("--naive-context", action="store_true", default=False,
                     help="both of the above: fresh symbols everywhere (the arbitrary-context paper's naive approach)")
    linking = check.add_argument_group(
        "programs of several files",
        "By default a FILE that its compile_commands.json lists is checked as part of the program the "
        "database's files link into: the files defining what it uses, and the main that reaches it.")
    linking.add_argument("--link", action="store_true", default=False,
                         help="link the FILEs into one program, as cc a.c b.c does (external names shared, "
                         "static ones each file's own, one main), and check every assertion of every file")
    linking.add_argument("--no-link", action="store_true", default=False,
                         help="check each FILE alone, even when its compile_commands.json links it with others")
    linking.add_argument("--entry", metavar="FILE", default=None,
                         help="when several files of the database have a main that reaches FILE, start from "
                         "this file's (default: the FILE's own main, else the first in the database)")
    check.add_argument("--replay", metavar="RESULT.json", default=None,
                       help="replay the counterexamples of a --format json result and print "
                       "their traces")
    check.add_argument("--playback", metavar="DIR", default=None,
                       help="write a reproducer for each violation into DIR: a C file that compiles "
                       "the program unchanged under a scheduler forcing the counterexample, with its "
                       "build command (with --replay: for the result's violations)")
    check.add_argument("files", nargs="*", metavar="FILE")
    check.set_defaults(run=_cmd_check)

    ir = sub.add_parser("ir", help="print the intermediate representation of a C file")
    _add_data_model(ir)
    ir.add_argument("file", metavar="FILE")
    ir.set_defaults(run=_cmd_ir)

    # Listed for --help only: main() hands `lsp` and its arguments to the server.
    sub.add_parser("lsp", help="run the language server (stdio; --tcp PORT: on 127.0.0.1)")
    return parser


def options_from(args: argparse.Namespace, base: Options = Options()) -> Options:
    """``base`` with every option the command line gave."""
    given = {
        "mode": args.mode, "unwind": args.unwind, "timeout_s": getattr(args, "assertion_timeout", None),
        "sym_args": getattr(args, "sym_args", None), "sym_arg_len": getattr(args, "sym_arg_len", None),
        "total_timeout_s": args.timeout, "findings": getattr(args, "findings", None),
        "property": getattr(args, "property", None),
        "max_runs": args.max_runs, "workers": cores() if args.workers == "auto" else args.workers,
        "report_races": args.races,
        "memory_model": getattr(args, "memory_model", None),
        "max_memory_mb": getattr(args, "max_memory_mb", None),
        "spurious_wakeups": args.spurious_wakeups,
        "scheduler": getattr(args, "scheduler", None),
        "data_model": DataModel(args.data_model) if args.data_model else None,
    }
    opts = replace(base, **{k: v for k, v in given.items() if v is not None})
    search_s = getattr(args, "findings_timeout", None)
    if search_s is not None:
        opts = replace(opts, findings_timeout_s=None if search_s == "none" else search_s)
    unknown = sorted(set(args.disable) - engine.OPTIMISATIONS)
    if unknown:
        raise UsageError(f"distaff check: --disable: unknown optimisation {unknown[0]!r} "
                         f"(known: {', '.join(sorted(engine.OPTIMISATIONS))})")
    if args.disable:
        opts = replace(opts, optimisations=tuple(dict(opts.optimisations, **{n: False for n in args.disable}).items()))
    return opts


# --------------------------------------------------------------------------
# Entry point


def entry() -> int:
    """The ``distaff`` command (and ``python -m distaff``): :func:`main`,
    its ``--timeout`` counted from when this process began loading distaff."""
    return main(started=distaff.STARTED)


def main(argv: list[str] | None = None, started: float | None = None) -> int:
    """Run the command line; returns the exit status (see the module
    docstring). ``--timeout`` counts from ``started`` (a ``time.monotonic()``
    value; by default, now)."""
    global _STARTED
    _STARTED = time.monotonic() if started is None else started
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv[:1] == ["lsp"]:
            return run_lsp(argv[1:])
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UsageError("distaff: no command given (see 'distaff --help')")
        return args.run(args)
    except UsageError as e:
        _error(str(e))
        return EXIT_BAD_INPUT
    except (BadInput, ClusterUnavailable) as e:
        _error(f"distaff: {e}")
        return EXIT_BAD_INPUT
    except SystemExit as e:  # --help and --version
        return e.code if isinstance(e.code, int) else EXIT_OK
    except KeyboardInterrupt:
        _error("distaff: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # stdout went away (e.g. `| head`): say nothing more, as other tools do.
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as e:
        if os.environ.get("DISTAFF_DEBUG"):
            raise
        first = (str(e).splitlines() or [""])[0]
        _error(f"distaff: internal error: {type(e).__name__}: {first}")
        return EXIT_INTERNAL


def _error(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def read_source(path: str) -> str:
    """The text of a C file; unreadable is BadInput. Bytes that are not UTF-8
    are replaced, so the front end reports them at their position."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror or e}") from None
    if binary(text):
        raise BadInput(f"{path}: {BINARY}")
    return text


# --------------------------------------------------------------------------
# distaff check


_STARTED = 0.0  # when this command began (main)


def exit_status(reports: list[FileReport]) -> int:
    """The exit status of a check (see the module docstring)."""
    if any(a.status is Status.VIOLATED for r in reports for a in r.assertions) or any(
        f.kind in FOUND_KINDS for r in reports for f in r.findings
    ):
        return EXIT_FOUND
    if any(f.kind is FindingKind.SYNTAX for r in reports for f in r.findings):
        return EXIT_BAD_INPUT
    if any(a.status is Status.UNKNOWN for r in reports for a in r.assertions) or any(
        f.kind is FindingKind.UNSUPPORTED for r in reports for f in r.findings
    ):
        return EXIT_UNDECIDED
    return EXIT_OK


def _cmd_check(args: argparse.Namespace) -> int:
    if args.replay is not None:
        if args.files or args.positions:
            raise UsageError("distaff check: --replay takes no FILE or --from (the result names them)")
        if args.format != "text":
            raise UsageError("distaff check: --replay prints text only")
        return replay_result(args.replay, args)
    if not args.files:
        raise UsageError("distaff check: no FILE given (see 'distaff check --help')")
    if args.positions and len(args.files) != 1:
        raise UsageError("distaff check: --from needs exactly one FILE")
    options = options_from(args)
    if args.count_executions:
        return _count_executions(args, options)
    if args.max_memory_mb is None:
        options = replace(options, max_memory_mb=DEFAULT_MEMORY_MB)
    if args.summaries and args.format != "json":
        raise UsageError("distaff check: --summaries needs --format json (only the JSON shows them)")
    if not args.summaries:  # printed only to be shown
        options = replace(options, summary_text=False)
    ingredients = context_ingredients(args)
    if not args.positions and ingredients != (True, True):
        raise UsageError("distaff check: --no-reaching-defs, --no-sync-invariants and --naive-context need --from")
    if args.link and args.no_link:
        raise UsageError("distaff check: --link and --no-link contradict each other")
    if args.link and args.positions:
        raise UsageError("distaff check: --from checks one file alone: not with --link")
    sources = [(path, read_source(path), build_flags(args, path)) for path in args.files]
    programs = programs_to_check(args, sources, options.data_model)
    if options.scheduler is not None:  # fail before any output when it cannot be reached
        client_for(options.scheduler)
    reports = []
    started = _STARTED  # (from the process's start, for the command: the imports count too)
    with Progress(sys.stderr) as progress:
        if args.format == "text":  # each verdict as it is decided; the findings and summary after
            progress.echo = lambda path, a: print("\n".join(render.assertion_lines(a, FileReport(path), options)),
                                                  flush=True)
        for job in programs:
            left = options
            if options.total_timeout_s is not None:  # one budget for the whole command
                left = replace(options, total_timeout_s=max(0.001, options.total_timeout_s
                                                            - (time.monotonic() - started)))
            if isinstance(job, LinkedProgram):
                report = api.check_linked(job, left, progress=progress)
            else:
                path, text, flags = job
                report = check_file(path, text, left, args.positions, progress, ingredients, flags)
            reports.append(report)
            if args.format == "text":
                progress.clear()
                print("\n".join(render.text_lines(report, options, assertions=False)), flush=True)
            if args.playback is not None:
                if isinstance(job, LinkedProgram):
                    lines = [f"{a.span}: note: no reproducer: the program is linked from several files "
                             "(a reproducer compiles one)" for a in render.sorted_assertions(report)
                             if a.status is Status.VIOLATED]
                else:
                    program = parse_file(path, text, options.data_model, flags)
                    lines = playback_lines(program, report.assertions, options, path, text, args.playback)
                print("\n".join(lines), file=sys.stdout if args.format == "text" else sys.stderr, flush=True)
    answer = render.property_answer(reports, options)
    if args.format == "json":
        print(json.dumps(render.json_document(reports, options, version()), indent=2))
    elif args.format == "sarif":
        print(json.dumps(render.sarif_log(reports, options, version()), indent=2))
    elif answer is not None:
        print(f"property {options.property}: {answer}", flush=True)
    status = exit_status(reports)
    if answer == "unknown" and status == EXIT_OK:  # a bounded search is no answer to a property
        return EXIT_UNDECIDED
    return status


def _count_executions(args: argparse.Namespace, options: Options) -> int:
    """``distaff check --count-executions FILE...``: each file's executions,
    one line of text each, or a JSON document of them; exit 3 (undecided)
    when a count is incomplete (a budget ran out, the bound stopped a thread)."""
    if args.positions or args.playback is not None or args.link or args.format == "sarif":
        raise UsageError("distaff check: --count-executions takes files alone (no --from, --playback, --link, "
                         "--format sarif)")
    out = []
    complete = True
    for path in args.files:
        program = parse_file(path, read_source(path), options.data_model, build_flags(args, path))
        count = api.count_executions(program, options)
        complete = complete and count.complete
        if args.format == "json":
            out.append(render.count_json(path, count))
        else:
            print(f"{path}: {wording.executions_phrase(count)}", flush=True)
    if args.format == "json":
        print(json.dumps({"version": version(), "files": out}, indent=2))
    return EXIT_OK if complete else EXIT_UNDECIDED


def playback_lines(program, assertions, options: Options, path: str, text: str, out_dir: str) -> list[str]:
    """Write the reproducer of each violation in ``assertions`` into
    ``out_dir`` (:mod:`distaff.analysis.playback`); the lines that say where,
    how to build and run each, or why there is none."""
    lines = []
    for result in sorted(assertions, key=lambda r: (r.span.line, r.span.col)):
        if result.status is not Status.VIOLATED or result.trace is None:
            continue
        where = f"{path}:{result.span.line}:{result.span.col}"
        try:
            rep = api.write_reproducer(program, result, options, path, out_dir, text)
        except OSError as e:
            raise BadInput(f"cannot write a reproducer into {out_dir}: {e.strerror or e}") from None
        except ValueError as e:  # NotReproducible, or a trace that does not replay
            lines.append(f"{where}: note: no reproducer: {e}")
            continue
        lines += [f"{where}: note: reproducer written to {rep.path}",
                  f"  build: {rep.build}", f"  run:   {rep.executable}"]
    return lines


def programs_to_check(args: argparse.Namespace, sources: list, data_model: DataModel) -> list:
    """What ``distaff check`` checks: each FILE alone (``(path, text,
    flags)``), or the :class:`~distaff.server.projects.LinkedProgram` it is
    part of: all FILEs linked with ``--link``, else the program its
    compile_commands.json links it into (a program several FILEs belong to
    is checked once). Says on stderr what was linked. Raises BadInput for
    files that do not link."""
    named = {os.path.realpath(p): (p, t) for p, t, _ in sources}

    def text_of(path: str) -> str | None:
        hit = named.get(os.path.realpath(path))
        if hit is not None:
            return hit[1]
        try:
            return read_source(path)
        except BadInput:
            return None

    def flags_of(path: str, source) -> BuildFlags:
        if source is None:
            return build_flags(args, path)
        try:
            return source.flags().merged(command_line_flags(args))
        except ValueError as e:
            raise BadInput(f"{source.database}: {e}") from None

    def shown(path: str) -> str:
        hit = named.get(os.path.realpath(path))
        if hit is not None:
            return hit[0]
        rel = os.path.relpath(path)
        return path if rel.startswith(os.pardir) else rel

    project = Project(text_of, flags_of, shown, data_model)
    if args.link:
        try:
            program = project.link([p for p, _, _ in sources])
        except (LinkError, ProjectError) as e:
            raise BadInput(str(e)) from None
        _say_linked(program, None)
        return [program]
    out: list = []
    seen: set = set()
    for path, text, flags in sources:
        database = None
        if not args.no_link and not args.positions and getattr(args, "use_compile_commands", True):
            try:
                database = database_of(path, getattr(args, "compile_commands", None))
            except ProjectError as e:
                raise BadInput(str(e)) from None
        if database is None:
            out.append((path, text, flags))
            continue
        try:
            program = project.program(path, database, args.entry)
        except (LinkError, ProjectError) as e:
            raise BadInput(f"{path}: {e}") from None
        if program.plan.alone:
            out.append((path, text, flags))
            continue
        _say_linked(program, path)
        if program.key() not in seen:
            seen.add(program.key())
            out.append(program)
    return out


def _say_linked(program: LinkedProgram, about: str | None) -> None:
    """What was linked, and which main was chosen, on stderr."""
    _error(f"distaff: {linked_note(program, about)}")
    note = entry_note(program, about) if about else None
    if note:
        _error(f"distaff: {note}")
    for line in undefined_notes(program):
        _error(f"distaff: note: {line}")


def build_flags(args: argparse.Namespace, path: str):
    """The build flags of ``path``: its compile_commands.json entry's (unless
    switched off), then the command line's. Raises BadInput for a
    compile_commands.json that cannot be read."""

    base = BuildFlags()
    if getattr(args, "use_compile_commands", True):
        try:
            base = flags_for(path, getattr(args, "compile_commands", None)) or base
        except ValueError as e:
            raise BadInput(str(e)) from None
    return base.merged(command_line_flags(args))


def command_line_flags(args: argparse.Namespace) -> BuildFlags:
    """The build flags given on the command line (-I, -D, ...)."""
    line: list[str] = []
    for d in getattr(args, "quote_dirs", []):
        line += ["-iquote", d]
    for d in getattr(args, "include_dirs", []):
        line += ["-I", d]
    for d in getattr(args, "system_dirs", []):
        line += ["-isystem", d]
    for kind, value in getattr(args, "macros", []):
        line += [f"-{kind}", value]
    for f in getattr(args, "forced_includes", []):
        line += ["-include", f]
    return parse_args(line, os.getcwd(), "command line" if line else "")


def context_ingredients(args: argparse.Namespace) -> tuple[bool, bool]:
    """``(reaching definitions, synchronization invariants)`` the flags ask for."""
    if getattr(args, "naive_context", False):
        return False, False
    return getattr(args, "reaching_defs", True), getattr(args, "sync_invariants", True)


def check_file(path: str, text: str, options: Options, positions=(), progress=None,
               ingredients: tuple[bool, bool] = (True, True), flags=None) -> FileReport:
    """Check one file's text; ``positions`` (1-based line, optional column)
    start the check from that program context instead of ``main``, its
    initial state built with ``ingredients`` (see :func:`context_from`);
    ``flags``: its build flags; ``progress``: a :class:`Progress` told of the
    file and of each assertion decided. The Python API's
    :func:`~distaff.server.api.check_source` does the work."""
    try:
        return api.check_source(text, options, path=path, context_positions=positions,
                                reaching_defs=ingredients[0], sync_invariants=ingredients[1],
                                flags=flags, progress=progress)
    except api.ContextError as e:
        raise BadInput(f"{path}: --from: {e}") from None


def context_from(program, where, ingredients: tuple[bool, bool] = (True, True)):
    """The program context for ``--from`` positions (the first the cursor's
    thread; the same position twice is two threads), its initial state from
    must-reaching definitions and synchronization invariants unless
    ``ingredients`` switch them off (:func:`distaff.analysis.context.program_context`);
    BadInput when a position has no statement."""

    try:
        return api.context_from(program, where, ingredients)
    except api.ContextError as e:
        raise BadInput(f"{program.path}: --from: {e}") from None


class Progress:
    """A progress line per file on ``stream`` (stderr) while it is checked:
    assertions decided of all, the runs those took, elapsed time (once all
    are decided, that the search for deadlocks and errors runs). Drawn by
    tqdm only when the stream is a terminal and once a file took ``delay``
    seconds; nothing at all is written otherwise. :meth:`start_file` clears
    the line of the file before it, as does leaving the ``with`` block, so
    the results printed after it are never mixed with it. With ``echo``,
    each assertion decided is handed to it as it comes (``echo(path,
    result)``, the text output's lines printed at once), the line taken away
    while it prints."""

    echo = None

    FORMAT = "distaff: checking {desc}: {n_fmt}/{total_fmt} assertions{postfix}, {elapsed} |{bar}|"

    def __init__(self, stream, delay: float = 1.0, interval: float = 0.5):
        self.stream, self.delay, self.interval = stream, delay, interval
        self.active = bool(getattr(stream, "isatty", lambda: False)())
        self._bar, self._runs, self._path = None, 0, ""
        self._lock = threading.Lock()  # the ticker and the checking thread both update the bar
        self._stop = threading.Event()
        self._ticker = None

    def __enter__(self) -> "Progress":
        if self.active:  # tqdm redraws only on updates: the elapsed time needs a tick
            self._ticker = threading.Thread(target=self._tick, name="distaff-progress", daemon=True)
            self._ticker.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        self.clear()

    def start_file(self, path: str, total: int) -> None:
        self.clear()
        self._path = path
        if not self.active:
            return
        from tqdm import tqdm

        with self._lock:
            self._runs = 0
            # miniters=0: an update(0) redraws (the tick); dynamic_ncols: the line never wraps
            self._bar = tqdm(total=total, desc=path, file=self.stream, leave=False,
                             delay=self.delay, miniters=0, dynamic_ncols=True, bar_format=self.FORMAT)
            self._postfix(0)

    def decided(self, result: AssertionResult) -> None:
        with self._lock:
            if self.echo is not None:
                if self._bar is not None:
                    self._bar.clear()
                self.echo(self._path, result)
            if self._bar is not None:
                self._runs += result.stats.runs
                self._postfix(self._bar.n + 1)
                self._bar.update(1)

    def _postfix(self, decided: int) -> None:
        parts = [f"{self._runs} run{'s' if self._runs != 1 else ''}"] if decided else []
        if decided >= self._bar.total:  # what check() does after the assertions, if anything
            parts.append("searching for deadlocks and run-time errors")
        self._bar.set_postfix_str(", ".join(parts), refresh=False)

    def clear(self) -> None:
        """Take the current file's line away (a no-op when none was drawn)."""
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                if self._bar is not None:
                    self._bar.update(0)  # redraws once ``delay`` has passed


# --------------------------------------------------------------------------
# distaff check --replay


def _load_result(result_path: str) -> dict:
    try:
        with open(result_path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise BadInput(f"cannot read {result_path}: {e.strerror or e}") from None
    except ValueError as e:
        raise BadInput(f"{result_path}: not a distaff JSON result: {e}") from None
    if not isinstance(doc, dict) or doc.get("version") != render.JSON_VERSION or not isinstance(doc.get("files"), list):
        raise BadInput(f"{result_path}: not a distaff JSON result (version {render.JSON_VERSION})")
    return doc


def _span(entry: dict, path: str) -> Span:
    return Span(entry.get("file", path), entry["line"], entry["column"],
                entry.get("end_line", entry["line"]), entry.get("end_column", entry["column"]))


def _source_for(path: str, result_path: str) -> tuple[str, str]:
    """Where the file a result names is, and its text: as written (relative
    to the working directory), else relative to the result file's folder."""
    candidates = [Path(path)]
    if not Path(path).is_absolute():
        candidates.append(Path(result_path).resolve().parent / path)
    for candidate in candidates:
        if candidate.is_file():
            return str(candidate), read_source(str(candidate))
    raise BadInput(f"cannot read {path} (named in {result_path})")


def _stored_ingredients(entry: dict) -> tuple[bool, bool]:
    """The context ingredients a JSON result's file entry was checked with."""
    ing = entry.get("ingredients") or {}
    return bool(ing.get("reaching_defs", True)), bool(ing.get("sync_invariants", True))


def replay_result(result_path: str, args: argparse.Namespace) -> int:
    """Replay every counterexample of a JSON result and print the traces as
    text, a summary line per file saying how many replayed and how many gave
    the stored trace back. Options are the result's own unless flags override
    them. Exit 1 when counterexamples were replayed, 0 when there were none, 3
    when some did not replay (the text changed, or the engine could not follow
    the schedule)."""
    doc = _load_result(result_path)
    stored = doc.get("options", {})
    base = Options()
    try:
        base = replace(base, mode=stored.get("mode", base.mode), unwind=stored.get("unwind", base.unwind),
                       sym_args=stored.get("sym_args", base.sym_args),
                       sym_arg_len=stored.get("sym_arg_len", base.sym_arg_len),
                       data_model=DataModel(stored.get("data_model", base.data_model.value)),
                       spurious_wakeups=bool(stored.get("spurious_wakeups", base.spurious_wakeups)))
    except ValueError as e:
        raise BadInput(f"{result_path}: bad options: {e}") from None
    options = options_from(args, base)
    replayed = failed = 0
    for entry in doc["files"]:
        path = entry.get("path", "")
        linked = None
        if entry.get("linked"):
            linked = _relinked(entry["linked"], result_path, args, options.data_model)
            program, text = linked.program, None
        else:
            _, text = _source_for(path, result_path)
            if entry.get("sha256") and entry["sha256"] != render.text_digest(text):
                _error(f"distaff: warning: {path} changed since {result_path} was written")
            program = parse_file(path, text, options.data_model, build_flags(args, path))
        where = [tuple(p) for p in entry.get("from", [])]
        context = context_from(program, where, _stored_ingredients(entry)) if where else None
        items = [(a, a["counterexample"], None) for a in entry.get("assertions", []) if a.get("counterexample")]
        items += [(f, f["trace"], FindingKind(f["kind"])) for f in entry.get("findings", []) if f.get("trace")]
        items.sort(key=lambda item: (item[0].get("path", path), item[0]["line"], item[0]["column"]))
        lines, ok, same, reproducers = [], 0, 0, []
        for item, trace_json, kind in items:
            span = _span(item, path)
            stored_trace = trace_from_json(trace_json)
            try:
                from distaff.analysis.replay import replay  # only --replay needs it (and the context's analyses)
                trace = replay(program, stored_trace, options, target=item.get("id"), context=context)
            except ValueError as e:
                failed += 1
                lines.append(f"{span}: warning: counterexample did not replay: {e}")
                continue
            if linked is not None:  # in the C names the stored trace has
                trace = linked.shown_trace(trace)
            if kind is FindingKind.DATA_RACE:  # the replay runs on; the race's trace stops at its second access
                trace = races.replayed(trace, stored_trace)
            ok += 1
            same += trace == stored_trace
            depends_on = tuple(item.get("depends_on", ()))
            if kind is None:
                violated = AssertionResult(item.get("id", ""), span, item.get("text", ""), Status.VIOLATED,
                                           trace=trace, depends_on=depends_on, context=item.get("context", ""))
                severity, msg = wording.assertion_message(violated)
                if args.playback is not None:
                    reproducers.append(violated)
            else:
                severity, msg = wording.finding_message(Finding(kind, span, item.get("message", ""), trace,
                                                                depends_on))
            header = f"{span}: {severity}: {msg}"
            lines += [header, *render.trace_lines(trace, path)]
        if reproducers and linked is None:
            lines += playback_lines(program, reproducers, options, path, text, args.playback)
        elif reproducers:
            lines += [f"{r.span}: note: no reproducer: the program is linked from several files "
                      "(a reproducer compiles one)" for r in reproducers]
        replayed += ok
        lines.append(f"{path}: replayed {ok} of {len(items)} counterexample{'s' if len(items) != 1 else ''}, "
                     f"{same} identical to the stored trace")
        print("\n".join(lines), flush=True)
    if failed:
        return EXIT_UNDECIDED
    return EXIT_FOUND if replayed else EXIT_OK


def _relinked(files: list, result_path: str, args: argparse.Namespace, data_model: DataModel):
    """The linked program of a JSON result's ``linked`` files, each read as
    :func:`_source_for` finds it (a warning for one that changed since)."""
    found: dict[str, tuple[str, str]] = {}
    for f in files:
        where, text = _source_for(f["path"], result_path)
        if f.get("sha256") and f["sha256"] != render.text_digest(text):
            _error(f"distaff: warning: {f['path']} changed since {result_path} was written")
        found[f["path"]] = (where, text)
    project = Project(lambda p: found[p][1], lambda p, _: build_flags(args, found[p][0]), data_model=data_model)
    try:
        return project.link(list(found), require_entry=False).linked
    except (LinkError, ProjectError) as e:
        raise BadInput(f"{result_path}: {e}") from None


# --------------------------------------------------------------------------
# distaff ir, distaff lsp


def _cmd_ir(args: argparse.Namespace) -> int:
    text = read_source(args.file)

    program = parse_file(args.file, text, DataModel(args.data_model or DataModel.LP64.value),
                         build_flags(args, args.file))
    for f in program.findings:
        severity, msg = wording.finding_message(Finding(f.kind, f.span, f.message))
        _error(f"{f.span}: {severity}: {msg}")
    print(format_program(program), end="")
    return EXIT_BAD_INPUT if any(f.kind.value == "syntax" for f in program.findings) else EXIT_OK


def run_lsp(argv: list[str]) -> int:
    """``distaff lsp ...``: the arguments are the server's own (``--tcp PORT``,
    ``--stdio``, ``--log-level``: see ``distaff lsp --help``)."""
    import importlib

    try:
        app = importlib.import_module("distaff.server.app")
    except ModuleNotFoundError as e:
        if e.name != "distaff.server.app":
            raise
        raise BadInput("the language server is not part of this build (no distaff.server.app)") from None
    status = app.main(argv)
    return status if isinstance(status, int) else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
