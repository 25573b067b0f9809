"""The solver chain: satisfiability of a path condition plus a query.

Every layer answers ``check(items, extra)``: is the conjunction of the path
condition's constraints ``items`` (:class:`~distaff.analysis.symex.state.PathCond`
nodes, oldest first) and the query constraints ``extra`` satisfiable? The
chain is built in one place, :func:`build_solver`, from the options; each
layer can be switched off by name and counts what it does:

* ``solver_independence`` (:mod:`.solver_independence`): drop the constraints
  sharing no symbol (transitively) with the query;
* ``solver_cache`` (:mod:`.solver_cache`): remember results per constraint set;
* ``solver_incremental``: one z3 solver whose assertion stack follows the
  path condition by push/pop (a depth-first exploration shares long
  prefixes); switched off, every query gets a fresh solver.

Callers keep the invariant that the path condition alone is satisfiable
(every constraint added to it was checked first); the independence layer
relies on it. A query z3 cannot decide (timeout, interrupt) raises
:class:`SolverUnknown`, except one asked with a resource limit (``rlimit``:
z3's deterministic count of its work, the same on any machine), which is
answered None when z3 stops at that limit: the caller then acts as if it
did not know (a summary check that prunes nothing).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import z3

from distaff.analysis.symex.solver_cache import CachingSolver
from distaff.analysis.symex.solver_independence import IndependenceSolver
from distaff.analysis.symex.state import PathCond


class SolverUnknown(Exception):
    """z3 answered unknown; ``reason`` is z3's reason (``canceled``, ``timeout``...)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class SolverStats:
    calls: int = 0
    time_s: float = 0.0
    counters: dict = field(default_factory=dict)

    def count(self, name: str, n: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + n


def _at_limit(reason: str) -> bool:
    """z3's reason for stopping at a resource limit: the incremental core
    says ``canceled``, a fresh solver ``max. resource limit exceeded``. (An
    interrupt at the explorer's deadline says ``canceled`` too: the query
    then reads as stopped at its limit, and the explorer stops at its next
    look at the budget.)"""
    return reason == "canceled" or "resource limit" in reason


class Z3Base:
    """The bottom layer: a z3 solver, incremental (push/pop along the path
    condition, the query passed as assumptions) or fresh per query. Once a
    floating-point term exists every query is fresh: z3 bit-blasts floating
    point only for a whole problem (its incremental core takes tens of
    times longer on the same query)."""

    def __init__(self, values, stats: SolverStats, incremental: bool, timeout_ms: int | None):
        self.values = values  # its context is made with the first term
        self.stats = stats
        self.incremental = incremental
        self.timeout_ms = timeout_ms
        self.solver: z3.Solver | None = None  # the incremental solver, made on first use
        self.pushed: list[PathCond] = []

    def _new(self) -> z3.Solver:
        s = z3.Solver(ctx=self.values.ctx)
        if self.timeout_ms:
            s.set("timeout", self.timeout_ms)
        return s

    def _prepare(self, items, extra) -> tuple[z3.Solver, list]:
        if not self.incremental or self.values.has_floats:
            s = self._new()
            for it in items:
                s.add(it.cond)
            for e in extra:
                s.add(e.cond)
            return s, []
        if self.solver is None:
            self.solver = self._new()
        s, stack = self.solver, self.pushed
        n, m = 0, min(len(stack), len(items))
        while n < m and stack[n] is items[n]:
            n += 1
        if len(stack) > n:
            s.pop(len(stack) - n)
            del stack[n:]
        for it in items[n:]:
            s.push()
            s.add(it.cond)
            stack.append(it)
        return s, [e.cond for e in extra]

    def _run(self, s: z3.Solver, assumptions: list, rlimit: int = 0) -> z3.CheckSatResult:
        t0 = time.perf_counter()
        if rlimit:
            s.set("rlimit", rlimit)  # z3 counts it from where the solver's count stands
        try:
            r = s.check(*assumptions)
        finally:
            if rlimit:
                s.set("rlimit", 0)
            self.stats.calls += 1
            self.stats.time_s += time.perf_counter() - t0
        if r == z3.unknown and not (rlimit and _at_limit(s.reason_unknown())):
            raise SolverUnknown(s.reason_unknown())
        return r

    def check(self, items, extra, rlimit: int = 0) -> bool | None:
        s, assumptions = self._prepare(items, extra)
        r = self._run(s, assumptions, rlimit)
        return None if r == z3.unknown else r == z3.sat

    def model(self, items, extra) -> z3.ModelRef | None:
        s, assumptions = self._prepare(items, extra)
        if self._run(s, assumptions) != z3.sat:
            return None
        return s.model()


class SolverChain:
    """What the engine calls: ``is_sat(pc, extra)`` and ``model(pc, extra)``,
    where ``pc`` is the newest :class:`PathCond` node (or None) and ``extra``
    a list of PathCond items for the query."""

    def __init__(self, top, base: Z3Base, stats: SolverStats):
        self.top = top
        self.base = base
        self.stats = stats

    def is_sat(self, pc: PathCond | None, extra: list[PathCond]) -> bool:
        items = pc.constraints() if pc is not None else []
        return self.top.check(items, extra)

    def is_sat_within(self, pc: PathCond | None, extra: list[PathCond], rlimit: int) -> bool | None:
        """``is_sat``, or None when z3 spends ``rlimit`` of its resource
        count without an answer (counted as ``solver_rlimit_stops``); 0 is
        no limit."""
        items = pc.constraints() if pc is not None else []
        r = self.top.check(items, extra, rlimit)
        if r is None:
            self.stats.count("solver_rlimit_stops")
        return r

    def model(self, pc: PathCond | None, extra: list[PathCond] = ()) -> z3.ModelRef | None:
        """A model of the whole path condition and ``extra`` (no layer in between)."""
        items = pc.constraints() if pc is not None else []
        return self.base.model(items, list(extra))


def build_solver(options, values, stats: SolverStats, timeout_ms: int | None = None) -> SolverChain:
    """The solver chain for ``options`` (see the module docstring) over the
    terms of ``values`` (:class:`~distaff.analysis.symex.values.Values`)."""

    base = Z3Base(values, stats, options.enabled("solver_incremental"), timeout_ms)
    top = base
    if options.enabled("solver_cache"):
        top = CachingSolver(top, stats)
    if options.enabled("solver_independence"):
        top = IndependenceSolver(top, stats)
    return SolverChain(top, base, stats)
