"""May a thread still reach an assertion, and how far is it (in instructions)?

Per assertion, for every function ``f`` and pc: the length of the shortest CFG
path from ``pc`` to the assertion that stays within ``f`` and the functions it
calls or starts as threads (parallel-property-checking paper: guidance by CFG
reachability, priority by shortest distance). Reaching a call of a function
whose entry may reach the assertion counts, and so does reaching a
``pthread_create`` whose routine may reach it (the new thread reaches it).
Stepping over a call costs one plus the shortest path through the callee; a
call whose callees can never return (every path aborts, exits or loops) cannot
be stepped over. Back edges are followed without bound: this is may-reach.

What lies beyond the current function's return depends on the call stack, which
the explorer knows: :meth:`Reach.from_stack` combines the frames; for a thread
whose stack is unknown (a context started mid-function),
:meth:`Reach.reaches_via_return` says whether returning from the function may
still lead to the assertion.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from distaff.analysis.ir import Call, Intrinsic, Op, Program, Return, successors
from distaff.analysis.static.fixpoint import solve
from distaff.analysis.static.slicing import find_assertion

if TYPE_CHECKING:
    from distaff.analysis.static.facts import Facts

INF = float("inf")


@dataclass(frozen=True, slots=True, eq=False)
class Reach:
    """``dist[f][pc]`` for every function that may reach the assertion (others
    are absent: nothing in them reaches it); ``via_return[f]`` the distance
    from a return of ``f`` through some caller's continuation (None: none
    reaches it)."""

    assertion: str
    dist: dict
    via_return: dict
    call_succ: dict  # call site (func, pc) -> its successors, for from_stack

    def distance(self, func: str, pc: int) -> int | None:
        """Shortest CFG distance from ``pc`` of ``func`` to the assertion within
        ``func`` and its callees; None when it cannot be reached that way."""
        d = self.dist.get(func)
        if d is None or not 0 <= pc < len(d):
            return None
        return d[pc]

    def may_reach_in_function(self, func: str, pc: int) -> bool:
        return self.distance(func, pc) is not None

    def reaches_via_return(self, func: str) -> bool:
        """Whether the continuation after some call of ``func`` may reach the
        assertion (returning from a thread routine or the entry ends the thread)."""
        return self.via_return.get(func) is not None

    def from_stack(self, frames: Sequence[tuple[str, int]]) -> int | None:
        """Distance for a thread whose call stack is ``frames``, outermost
        first: the innermost frame at its current pc, every outer frame at the
        pc of the call it is waiting on (whose continuation is what counts)."""
        if not frames:
            return None
        best = self.distance(*frames[-1])
        for func, pc in frames[:-1]:
            for s in self.call_succ.get((func, pc), ()):
                d = self.distance(func, s)
                if d is not None and (best is None or d < best):
                    best = d
        return best


def returning_distance(program: Program, facts: "Facts") -> dict[str, int | None]:
    """For each function, the length of the shortest path from its entry to a
    return (None: it never returns)."""
    through: dict[str, float] = {f.name: INF for f in program.functions}

    def update(name: str) -> bool:
        f = program.function(name)
        d = _dijkstra(f.body, _step_costs(f, facts, through), {0: 0}, forward=True)
        best = INF
        for pc, instr in enumerate(f.body):
            if isinstance(instr, Return) or (
                not successors(f.body, pc) and not _ends_thread(instr)
            ):
                best = min(best, d[pc] + 1)
        if best < through[name]:
            through[name] = best
            return True
        return False

    # a function's value needs its callees' final values: callees first
    solve(list(through), facts.calls.called_from, update)
    return {k: (None if v == INF else int(v)) for k, v in through.items()}


def _ends_thread(instr) -> bool:
    return isinstance(instr, Intrinsic) and instr.op in (Op.ABORT, Op.EXIT, Op.THREAD_EXIT)


def _step_costs(f, facts: "Facts", through) -> list[float]:
    """Cost of going from each pc to its successors (INF: impossible)."""
    calls = facts.calls
    out = []
    for pc, instr in enumerate(f.body):
        if isinstance(instr, Call):
            callees = calls.callees_at(f.name, pc)
            options = [through.get(c, INF) for c in callees]
            if (f.name, pc) in calls.unknown_calls or not callees:
                options.append(0)  # an external call returns at once
            out.append(1 + min(options))
        else:
            out.append(1)
    return out


def _dijkstra(body, cost: list[float], sources: dict[int, float], *, forward: bool) -> list[float]:
    """Forward: distance from the sources to each pc (cost of a pc paid on
    leaving it). Backward: distance from each pc to the nearest source, where a
    source's value is what reaching it costs."""
    n = len(body)
    dist = [INF] * n
    heap = []
    for pc, d in sources.items():
        if d < dist[pc]:
            dist[pc] = d
            heap.append((d, pc))
    heapq.heapify(heap)
    pred: list[list[int]] | None = None
    if not forward:
        pred = [[] for _ in range(n)]
        for pc in range(n):
            for s in successors(body, pc):
                pred[s].append(pc)
    while heap:
        d, pc = heapq.heappop(heap)
        if d > dist[pc]:
            continue
        if forward:
            step = cost[pc]
            nexts = [(s, d + step) for s in successors(body, pc)]
        else:
            nexts = [(p, d + cost[p]) for p in pred[pc]]
        for x, nd in nexts:
            if nd < dist[x]:
                dist[x] = nd
                heapq.heappush(heap, (nd, x))
    return dist


def reach_of(program: Program, assertion_id: str, facts: "Facts") -> Reach:
    target_func, target_pc = find_assertion(program, assertion_id)
    calls = facts.calls
    through = {k: (INF if v is None else v) for k, v in facts.returning.items()}
    # Only functions that may (transitively) call or start the assertion's
    # function can reach it.
    relevant = {target_func}
    work = [target_func]
    while work:
        g = work.pop()
        for f, _ in calls.call_sites_of(g) + calls.create_sites_of(g):
            if f not in relevant:
                relevant.add(f)
                work.append(f)
    funcs = [f for f in program.functions if f.name in relevant]
    by_name = {f.name: f for f in funcs}
    costs = {f.name: _step_costs(f, facts, through) for f in funcs}
    entry: dict[str, float] = {f.name: INF for f in funcs}
    dist: dict[str, list[float]] = {}
    starts: dict[str, set[str]] = {}  # function -> what its calls and creates may run
    for (func, _), names in list(calls.calls.items()) + list(calls.creates.items()):
        if func in by_name:
            starts.setdefault(func, set()).update(names)

    def update(name: str) -> bool:
        f = by_name[name]
        sources: dict[int, float] = {}
        if name == target_func:
            sources[target_pc] = 0
        for pc, instr in enumerate(f.body):
            if isinstance(instr, Call):
                names = calls.callees_at(name, pc)
            elif isinstance(instr, Intrinsic) and instr.op is Op.THREAD_CREATE:
                names = calls.routines_at(name, pc)
            else:
                continue
            best = min((entry.get(g, INF) for g in names), default=INF)
            if best < INF and 1 + best < sources.get(pc, INF):
                sources[pc] = 1 + best
        d = _dijkstra(f.body, costs[name], sources, forward=False)
        dist[name] = d
        if f.body and d[0] < entry[name]:
            entry[name] = d[0]
            return True
        return False

    # a function's distances need final entry distances of what it calls or starts
    solve([f.name for f in funcs], lambda name: sorted(starts.get(name, ())), update)
    dist = {f.name: dist[f.name] for f in funcs}  # program order
    table = {
        name: tuple(None if x == INF else int(x) for x in d)
        for name, d in dist.items()
        if any(x < INF for x in d)
    }
    call_succ = facts.call_successors
    via = _via_return(calls, table, call_succ)
    return Reach(assertion_id, table, via, call_succ)


def _via_return(calls, table, call_succ) -> dict[str, int | None]:
    """Least fixpoint: from a return of ``g``, the nearest assertion distance
    over its callers' continuations, or their own returns in turn. Only the
    functions called, directly or not, from one that reaches can have one."""
    names: set[str] = set()
    work = list(table)
    while work:
        for g in calls.called_from(work.pop()):
            if g not in names:
                names.add(g)
                work.append(g)
    via: dict[str, float] = {n: INF for n in names}

    def update(name: str) -> bool:
        best = INF
        for caller, pc in calls.call_sites_of(name):
            d = table.get(caller)
            if d is not None:
                for s in call_succ.get((caller, pc), ()):
                    if d[s] is not None:
                        best = min(best, d[s])
            best = min(best, via.get(caller, INF))
        if best < via[name]:
            via[name] = best
            return True
        return False

    # a function's value needs its callers' final values: callers first
    solve(sorted(names), lambda name: [c for c, _ in calls.call_sites_of(name)], update)
    return {k: int(v) for k, v in via.items() if v != INF}
