"""Solver layer: constraint independence.

Only the path constraints that share a symbol with the query, directly or
through other such constraints, can affect its satisfiability, because the
rest of the path condition is satisfiable on its own (the chain's invariant)
and mentions none of the query's symbols. Each constraint carries its symbol
set (:class:`~distaff.analysis.symex.state.PathCond`), so the split costs set
intersections only. Counted as ``independence_dropped`` (constraints left out).
"""

from __future__ import annotations


class IndependenceSolver:
    def __init__(self, inner, stats):
        self.inner = inner
        self.stats = stats

    def check(self, items, extra, rlimit: int = 0) -> bool | None:
        want: set[str] = set()
        for e in extra:
            want |= e.syms
        if not items:
            return self.inner.check(items, extra, rlimit)
        picked = [False] * len(items)
        changed = True
        while changed:
            changed = False
            for i, it in enumerate(items):
                if not picked[i] and it.syms and not want.isdisjoint(it.syms):
                    picked[i] = True
                    want |= it.syms
                    changed = True
        kept = [it for i, it in enumerate(items) if picked[i]]
        if len(kept) < len(items):
            self.stats.count("independence_dropped", len(items) - len(kept))
        return self.inner.check(kept, extra, rlimit)
