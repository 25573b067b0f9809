"""The solver chain: every layer switched on or off answers the same, and each
counts what it does (cache hits, constraints dropped by independence)."""

from __future__ import annotations

import itertools

import pytest
import z3

from distaff.analysis.check import Options
from distaff.analysis.symex.solver import SolverStats, build_solver
from distaff.analysis.symex.state import PathCond
from distaff.analysis.symex.values import Values

LAYERS = ("solver_incremental", "solver_cache", "solver_independence")


def chain(**off):
    V = Values()
    stats = SolverStats()
    opts = Options(optimisations=tuple((k, False) for k in off))
    return V, stats, build_solver(opts, V, stats)


def pc_of(V, conds):
    pc = None
    for c in conds:
        pc = PathCond(c, V.symbols(c), c.get_id(), pc, (pc.depth + 1) if pc else 1)
    return pc


def item(V, c):
    return PathCond(c, V.symbols(c), c.get_id())


@pytest.mark.parametrize("off", [dict(zip(s, [True] * len(s))) for n in range(4) for s in itertools.combinations(LAYERS, n)])
def test_every_combination_answers_the_same(off):
    V, stats, S = chain(**off)
    x, y, z = (z3.BitVec(n, 32, V.ctx) for n in "xyz")
    pc = pc_of(V, [x > 5, y < 3, z == x + y])
    assert S.is_sat(pc, [item(V, x < 10)])
    assert not S.is_sat(pc, [item(V, x < 5)])
    assert not S.is_sat(pc, [item(V, z == x + y + 1)])
    assert S.is_sat(pc, [item(V, y == 2)])
    m = S.model(pc, [item(V, x == 7)])
    assert m.eval(x).as_long() == 7
    assert stats.calls >= 1


def test_cache_hits_are_counted():
    V, stats, S = chain()
    x = z3.BitVec("x", 32, V.ctx)
    pc = pc_of(V, [x > 5])
    for _ in range(3):
        assert S.is_sat(pc, [item(V, x < 10)])
    assert stats.counters["solver_cache_hits"] == 2 and stats.calls == 1


def test_independence_drops_unrelated_constraints():
    V, stats, S = chain(solver_cache=True)
    x, y = z3.BitVec("x", 32, V.ctx), z3.BitVec("y", 32, V.ctx)
    pc = pc_of(V, [x > 5, y < 3, y > -10])
    assert S.is_sat(pc, [item(V, x < 10)])
    assert stats.counters["independence_dropped"] == 2


def _ordered_maxima(V):
    """Eight inputs in [0, 1000] whose pairwise maxima rise, and the query
    that the last pair's maximum is below an input: unsat, but in the
    incremental solver a second or so of z3's work, far past a small limit."""
    cells = [z3.BitVec(f"c{i}", 32, V.ctx) for i in range(8)]
    bounds = [c for x in cells for c in (x >= 0, x <= 1000)]
    top = [z3.If(cells[i] > cells[i + 1], cells[i], cells[i + 1]) for i in range(0, 8, 2)]
    rising = [top[i] < top[i + 1] for i in range(3)]
    return pc_of(V, bounds + rising), z3.Or(*[x > top[3] for x in cells])


@pytest.mark.parametrize("off", [{}, {"solver_incremental": True}, {"solver_cache": True}])
def test_a_query_with_a_resource_limit_stops_at_it_and_is_not_cached(off):
    V, stats, S = chain(**off)
    pc, above = _ordered_maxima(V)
    assert S.is_sat_within(pc, [item(V, above)], 1_000) is None
    assert stats.counters["solver_rlimit_stops"] == 1
    # asked again without a limit, it is answered (nothing was kept of the stop)
    assert S.is_sat(pc, [item(V, above)]) is False
    assert stats.counters.get("solver_cache_hits", 0) == 0
    # a limit it stays within answers as is_sat does; a later query has no limit left over
    x = z3.BitVec("c0", 32, V.ctx)
    assert S.is_sat_within(pc, [item(V, x == 7)], 10_000_000) is True
    assert S.is_sat(pc, [item(V, above == False)]) is True  # noqa: E712 - a z3 term
