"""The time budget and cancel token of the static phase.

A check's ``--timeout`` and its cancel token cover the static analyses run
for it, not only the exploration: the check sets the budget for as long as it
runs (:func:`bounded`, with an :class:`distaff.analysis.symex.pivots.Budget`), and the
analyses' long loops call :func:`poll`, which raises
:class:`~distaff.analysis.symex.pivots.BudgetExpired` (``"timeout"`` or
``"cancelled"``) once the deadline has passed or the token is set. The
budget is held in a context variable, so analyses need no extra parameter and
a check in one thread does not see another's. With no budget set (tests, the
front end) :func:`poll` does nothing.

Whatever an analysis caches is cached only once complete, so an interrupted
analysis leaves nothing half-done behind for the next check; the one
exception is the slice base (:meth:`distaff.analysis.static.facts.Facts.slice_base`),
kept consistent between steps and continued by the next sub-check.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from distaff.analysis.symex.pivots import Budget, BudgetExpired

_current: ContextVar = ContextVar("static_budget", default=None)


def poll() -> None:
    """Raise BudgetExpired when the current budget has run out."""
    budget = _current.get()
    if budget is not None:
        budget.poll()


def current() -> Budget | None:
    return _current.get()


@contextmanager
def bounded(budget: Budget | None) -> Iterator[None]:
    """Run the body with ``budget`` as the static phase's budget (None: no
    limit beyond an enclosing one)."""
    if budget is None:
        yield
        return
    token = _current.set(budget)
    try:
        yield
    finally:
        _current.reset(token)


__all__ = ["Budget", "BudgetExpired", "bounded", "current", "poll"]
