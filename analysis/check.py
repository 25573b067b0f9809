"""The public API: check a program's assertions.

``check(program, options, cancel)`` yields results as they are decided: one
:class:`~analysis.report.AssertionResult` per assertion of the program
(every assertion exactly once, in the order its sub-check finishes), and
:class:`~analysis.report.Finding` s (deadlocks, run-time errors, and the front
end's syntax/unsupported findings) as they are met, each finding once.

Each assertion is its own sub-check (parallel-property-checking paper): a
sub-check explores the program guided by that assertion only. With
``options.workers > 1`` sub-checks run in a process pool; with 1 they run in
this process, one after the other.

Cancellation: ``cancel.cancelled`` is polled often by the engine (between
instructions and solver calls); once set, the remaining assertions are yielded
with status UNKNOWN and reason CANCELLED, promptly.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from analysis.ir import DataModel

MODES = ("baseline", "dpor", "dpor-ag")


@dataclass(frozen=True, slots=True)
class Options:
    """How to check. ``timeout_s`` and ``max_runs`` are per assertion; None is
    no limit. ``optimisations`` switches single optimisations off by name
    (e.g. ``{"solver_cache": False}``); every one is on by default and counted
    in the statistics' counters."""

    mode: str = "dpor-ag"
    unwind: int = 8
    timeout_s: float | None = None
    max_runs: int | None = None
    data_model: DataModel = DataModel.LP64
    workers: int = 1
    optimisations: tuple[tuple[str, bool], ...] = ()
    report_races: bool = False

    def enabled(self, name: str) -> bool:
        return dict(self.optimisations).get(name, True)


@dataclass
class CancelToken:
    """Set once to ask a running check to stop; cheap to poll."""

    _event: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass(frozen=True, slots=True)
class ContextThread:
    """A thread of a program context: it starts at ``pc`` of ``func`` (its call
    stack beyond ``func`` unknown: when ``func`` returns, the thread ends)."""

    func: str
    pc: int


@dataclass(frozen=True, slots=True)
class Context:
    """A program context for "check from here": the first thread is the
    cursor's. Threads that may run in parallel and are not listed start at
    their entry. ``naive``: every value not fixed by the program text is a
    fresh symbol (the arbitrary-context paper's naive approach)."""

    threads: tuple[ContextThread, ...]
    naive: bool = True


# The entry points, implemented by the engine:
#   check(program: Program, options: Options, cancel: CancelToken | None = None,
#         context: Context | None = None) -> Iterator[AssertionResult | Finding]
#   check_text(text: str, path: str, options: Options, cancel=None, context=None)
#         -> Iterator[AssertionResult | Finding]   (parses with analysis.frontend first;
#         syntax/unsupported findings come first, and with syntax errors every
#         assertion is yielded UNKNOWN with reason SKIPPED: never "holds")
#   context_at(program, positions: list[tuple[int, int]]) -> Context
#         (1-based line, column of each thread's statement; raises ValueError with a
#         message naming the position when no statement is there)
