"""Program contexts a whole-program run passes through.

:func:`contexts_along` replays a counterexample found from ``main`` and
records, at every scheduling point of the run, where each live thread
stands: each such point is a program context the violation passes
through, as a :class:`~distaff.analysis.check.Context` with every ingredient of the
initial state on.
"""

from __future__ import annotations

from distaff.analysis.check import Context, ContextThread
from distaff.analysis.replay import replay_run
from distaff.analysis.symex.state import ENDED


def snapshot(st) -> tuple | None:
    """Where each live thread of ``st`` stands, or None when one is mid-wait,
    has a deferred abort or a call stack (not a plain context)."""
    threads = []
    for t in st.threads:
        if t.status == ENDED:
            continue
        if t.phase is not None or t.pending is not None or len(t.frames) != 1:
            return None
        f = t.frames[-1]
        threads.append(ContextThread(f.func.name, f.pc))
    return tuple(threads) or None


def contexts_along(program, trace, options, target: str) -> list[Context]:
    """The contexts at the scheduling points of the run ``trace`` records
    (as each event ends; without repeats, in the order the run meets them)."""
    snapshots: list = []

    def observe(event, st) -> None:
        s = snapshot(st)
        if s is not None:
            snapshots.append(s)

    replay_run(program, trace, options, target, observer=observe)
    return [Context(threads, naive=False, reaching_defs=True, sync_invariants=True)
            for threads in distinct(snapshots)]


def distinct(snapshots: list) -> list:
    """``snapshots`` without repeats, in their order."""
    return list(dict.fromkeys(snapshots))


def spread(items: list, k: int) -> list:
    """At most ``k`` of ``items``, evenly spaced, the first and last included."""
    if len(items) <= k:
        return items
    step = (len(items) - 1) / (k - 1) if k > 1 else 0
    return [items[round(i * step)] for i in range(k)]
