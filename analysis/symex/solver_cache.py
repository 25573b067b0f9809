"""Solver layer: a cache of satisfiability results keyed by the constraint set.

z3 terms are hash-consed, so a constraint's AST id identifies it; the key is
the set of ids of the path constraints and the query. Different interleavings
often reach the same constraint set (reads and writes that commute), and a
branch decided once is asked again in every later run through it. Counted as
``solver_cache_hits`` / ``solver_cache_misses``. The cache holds the terms of
its keys so that their ids are not reused; it is cleared when it reaches
``limit`` entries. A query stopped at its resource limit is not kept.
"""

from __future__ import annotations


class CachingSolver:
    def __init__(self, inner, stats, limit: int = 100_000):
        self.inner = inner
        self.stats = stats
        self.limit = limit
        self.results: dict[frozenset, tuple[bool, list]] = {}

    def check(self, items, extra, rlimit: int = 0) -> bool | None:
        key = frozenset([it.cid for it in items] + [e.cid for e in extra])
        hit = self.results.get(key)
        if hit is not None:
            self.stats.count("solver_cache_hits")
            return hit[0]
        self.stats.count("solver_cache_misses")
        r = self.inner.check(items, extra, rlimit)
        if r is None:  # stopped at its resource limit: not an answer to keep
            return r
        if len(self.results) >= self.limit:
            self.results.clear()
        self.results[key] = (r, [it.cond for it in items] + [e.cond for e in extra])
        return r
