"""Global control states: what a predicate summary is keyed by.

The engine's :meth:`~distaff.analysis.symex.state.State.control_key` gives every
thread's status, wait phase, atomic depth and call stack (function, pc and
back-edge counters per frame), the mutex owners, the wait queue and the
barrier arrivals. Summaries also depend on what it leaves out but the
future of a run depends on: the mutex a thread woken from a condition wait
must re-acquire, whether a thread's end ends the process, and the barriers'
expected counts (symbolic counts by their term: equal terms, equal counts).
"""

from __future__ import annotations

from distaff.analysis.symex.state import State


def _plain(v):
    return v if isinstance(v, int) else str(v)


def control_state(st: State) -> tuple:
    """A hashable key naming ``st``'s global control state."""
    extra = tuple((_plain(t.phase_arg) if t.phase else None, t.ends_process) for t in st.threads)
    counts = tuple(sorted((a, _plain(n)) for a, (n, _) in st.barriers.items()))
    return st.control_key(), extra, counts
