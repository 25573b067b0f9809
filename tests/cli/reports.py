"""Hand-built check results for testing the command line without the engine."""

from distaff.analysis.ir import Span
from distaff.analysis.report import (
    AssertionResult, BoundStop, Finding, FindingKind, Input, Reason, Stats, Status, Step, Trace,
)

PATH = "prog.c"


def span(line: int, col: int = 5, path: str = PATH) -> Span:
    return Span(path, line, col, line, col + 10)


RACE_TRACE = Trace(
    inputs=(Input("n@main:20", 3, span(20, 13)),),
    steps=(
        Step(0, "main", span(21), "create thread visit#1"),
        Step(1, "visit#1", span(10), "read hits == 0"),
        Step(0, "main", span(22), "create thread visit#2"),
        Step(2, "visit#2", span(10), "read hits == 0"),
        Step(1, "visit#1", span(10), "write hits = 1"),
        Step(2, "visit#2", span(10), "write hits = 1"),
        Step(0, "main", span(25), "hits == 2 is false"),
    ),
    schedule=(0, 1, 0, 2, 1, 2, 0),
    choices=(),
)


def violated(line: int = 25) -> AssertionResult:
    return AssertionResult(
        id=f"main:{line}", span=span(line), text="hits == 2", status=Status.VIOLATED,
        trace=RACE_TRACE, stats=Stats(runs=3, full_runs=3, solver_calls=4, solver_time_s=0.01, time_s=0.2),
        unwind=8, mode="dpor-ag",
    )


def holds(line: int = 30, bounded: bool = False) -> AssertionResult:
    """A proof, or with ``bounded`` no violation within unwind 8 (main's loop at line 20 stopped)."""
    return AssertionResult(
        id=f"main:{line}", span=span(line), text="a <= b", status=Status.BOUNDED if bounded else Status.HOLDS,
        stats=Stats(runs=7, full_runs=5, pruned_runs=2, solver_calls=9, solver_time_s=0.05, time_s=0.21,
                    bound_cuts=2 if bounded else 0),
        unwind=8, mode="dpor-ag", reached_paths=7,
        message="unwind 8 stopped main's loop at line 20; checked on 7 paths" if bounded else "",
        stops=(BoundStop("main", 20, "loop", 2),) if bounded else (),
    )


def unknown(line: int = 40, reason: Reason = Reason.TIMEOUT, message: str = "") -> AssertionResult:
    return AssertionResult(
        id=f"main:{line}", span=span(line), text="x != 3", status=Status.UNKNOWN, reason=reason,
        message=message, stats=Stats(runs=2, full_runs=2, time_s=5.0), unwind=8, mode="dpor-ag",
    )


def deadlock(line: int = 12) -> Finding:
    trace = Trace((), (Step(1, "t#1", span(12), "lock a"), Step(2, "u#2", span(18), "lock b")), (1, 2))
    return Finding(FindingKind.DEADLOCK, span(line), "threads t#1, u#2 wait for each other", trace)


def syntax(line: int = 3) -> Finding:
    return Finding(FindingKind.SYNTAX, span(line), "unexpected '}'")
