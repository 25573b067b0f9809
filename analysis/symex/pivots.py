"""What the engine hands to the explorer: pivot points and leaves.

The engine runs a state forward until it meets a *pivot point* -- a place
where more than one continuation is feasible -- or a *leaf* where the run
ends. Pivots come in two kinds (assertion-guided paper §3.2):

* ``INTERLEAVE`` (i-PP): several threads may take the next scheduling step;
  each option's payload is a thread id.
* ``BRANCH`` (b-PP): several outcomes of a fork inside one instruction are
  feasible: a branch's two sides, a run-time error versus the safe path, the
  objects a symbolic pointer may point to, the waiters a notify may wake.
  Each option carries the constraint that selects it and a payload.

A fork can occur in the middle of an instruction. Instructions make all their
forks before they change the state, so the explorer resumes a branch pivot by
adding the option's constraint and re-executing the instruction with the
decisions of its earlier forks and this one *forced* (``prefix``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final

from mypy_extensions import mypyc_attr

from distaff.analysis.ir import SingletonEnum, Span
from distaff.analysis.record import Record


class PivotKind(SingletonEnum):
    INTERLEAVE = "interleave"
    BRANCH = "branch"


# the kinds as Final names: compiled code reads them from C statics, not
# through the enum class (as ir's FUNCTION_OBJECT and STACK_OBJECT)
INTERLEAVE_PIVOT: Final = PivotKind.INTERLEAVE
BRANCH_PIVOT: Final = PivotKind.BRANCH


@dataclass(frozen=True, slots=True, init=False)
class Option(Record):
    """One continuation of a fork: ``cond`` selects it (a Python bool or a z3
    condition), ``payload`` says what it means to the instruction."""

    cond: Any
    payload: Any = None

    def __init__(self, cond: Any, payload: Any = None) -> None:
        object.__setattr__(self, "cond", cond)
        object.__setattr__(self, "payload", payload)


@dataclass(frozen=True, slots=True, init=False)
class Pivot(Record):
    """A pivot point. ``options`` are the feasible continuations as
    ``(index, Option)`` pairs, ``index`` being the option's position among all
    options the instruction offered (what a trace records); for INTERLEAVE
    the options' payloads are thread ids. ``prefix`` are the forced decisions of
    the same instruction's earlier forks; ``span`` locates the instruction."""

    kind: PivotKind
    options: tuple
    prefix: tuple = ()
    span: Span | None = None
    tid: int | None = None  # the thread executing the instruction (BRANCH)
    by_value: bool = False  # the trace records the payload instead of the index

    def __init__(self, kind: PivotKind, options: tuple, prefix: tuple = (), span: Span | None = None,
                 tid: int | None = None, by_value: bool = False) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "prefix", prefix)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "tid", tid)
        object.__setattr__(self, "by_value", by_value)


class LeafKind(SingletonEnum):
    END = "end"  # every thread ended, or exit()/abort()/main returned
    VIOLATION = "violation"  # the target assertion fails
    STOPPED = "stopped"  # another assertion fails: the run ends (that one has its own sub-check)
    DEADLOCK = "deadlock"
    CUT = "bound-cut"  # a loop or recursion exceeded the unwind bound
    ERROR = "error"  # a run-time error (division by zero, null dereference, ...)
    INFEASIBLE = "infeasible"  # an assume (or another assertion) cannot hold
    PRUNED = "pruned"  # a reduction cut the run short


@dataclass(frozen=True, slots=True, init=False)
class Leaf(Record):
    kind: LeafKind
    message: str = ""
    span: Span | None = None
    tid: int | None = None

    def __init__(self, kind: LeafKind, message: str = "", span: Span | None = None, tid: int | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "tid", tid)


# Leaves that end a *run* (the README's "Runs and statistics"; counted in full_runs).
FULL_RUN_LEAVES = frozenset({LeafKind.END, LeafKind.VIOLATION, LeafKind.STOPPED, LeafKind.DEADLOCK, LeafKind.CUT})


# (a compiled exception class kept what it carried alive: every Leaf of a check)
@mypyc_attr(native_class=False)
class PivotReached(Exception):
    def __init__(self, pivot: Pivot):
        self.pivot = pivot


@mypyc_attr(native_class=False)
class LeafReached(Exception):
    def __init__(self, leaf: Leaf):
        self.leaf = leaf


@mypyc_attr(native_class=False)
class ThreadCut(Exception):
    """The executing thread was stopped at the unwind bound (its status is
    then ``CUT``); the block ends, the run goes on with the other threads."""


@mypyc_attr(native_class=False)
class EngineLimit(Exception):
    """Something the engine does not handle on this path (too many values for a
    symbolic pointer, a construct outside the model): the check is inconclusive."""


@dataclass(init=False)
class Budget(Record):
    """Wall-clock deadline (``time.monotonic()`` value) and cancel token,
    polled by the engine between instructions."""

    deadline: float | None = None
    cancel: Any = None
    expired_reason: str | None = field(default=None)

    def __init__(self, deadline: float | None = None, cancel: Any = None, expired_reason: str | None = None) -> None:
        self.deadline = deadline
        self.cancel = cancel
        self.expired_reason = expired_reason

    def poll(self) -> None:
        if self.cancel is not None and self.cancel.cancelled:
            self.expired_reason = "cancelled"
            raise BudgetExpired("cancelled")
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.expired_reason = "timeout"
            raise BudgetExpired("timeout")


@mypyc_attr(native_class=False)
class BudgetExpired(Exception):
    """The check's time ran out or it was cancelled (``args[0]`` says which)."""
