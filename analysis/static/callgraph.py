"""The call graph, with thread creation as a kind of call.

Callees of every Call and start routines of every THREAD_CREATE come from the
points-to analysis (so calls through function pointers are resolved), joined
with the routines the front end recorded on its ThreadSites.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from distaff.analysis.ir import Addr, Call, Instr, Intrinsic, ObjKind, Op, Program, expressions_of, nodes
from distaff.analysis.static.pointsto import PointsTo

Site = tuple[str, int]  # (function, pc)


@dataclass(frozen=True, slots=True, eq=False)
class CallGraph:
    """``calls[site]``: the functions with a body a Call may invoke;
    ``unknown_calls``: Call sites that may also invoke something without a
    body; ``creates[site]``: the start routines a THREAD_CREATE may run.
    ``callers[f]`` and ``creators[f]`` are the reverse maps."""

    calls: dict
    unknown_calls: frozenset
    creates: dict
    callers: dict
    creators: dict
    called: dict  # function -> the functions its Calls may invoke
    _reached: dict = field(default_factory=dict)  # root -> reachable(root), filled on demand

    def reachable(self, root: str) -> frozenset[str]:
        """Functions reached from ``root`` by calls (``root`` included)."""
        hit = self._reached.get(root)
        if hit is None:
            hit = self._reached[root] = frozenset(_closure([root], self.called_from))
        return hit

    def called_from(self, func: str) -> tuple[str, ...]:
        return self.called.get(func, ())

    def callees_at(self, func: str, pc: int) -> tuple[str, ...]:
        return self.calls.get((func, pc), ())

    def routines_at(self, func: str, pc: int) -> tuple[str, ...]:
        return self.creates.get((func, pc), ())

    def call_sites_of(self, func: str) -> tuple[Site, ...]:
        return self.callers.get(func, ())

    def create_sites_of(self, func: str) -> tuple[Site, ...]:
        return self.creators.get(func, ())


def call_graph(program: Program, pts: PointsTo) -> CallGraph:
    calls: dict[Site, tuple[str, ...]] = {}
    creates: dict[Site, tuple[str, ...]] = {}
    bodies = {f.name for f in program.functions}
    recorded = {(t.func, t.pc): t.routines for t in program.threads}
    for f in program.functions:
        for pc, i in enumerate(f.body):
            site = (f.name, pc)
            if isinstance(i, Call):
                calls[site] = pts.callees.get(site, ())
            elif isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE:
                names = set(pts.routines.get(site, ())) | set(recorded.get(site, ()))
                creates[site] = tuple(sorted(n for n in names if n in bodies))
    return CallGraph(
        calls=calls,
        unknown_calls=pts.unknown_calls,
        creates=creates,
        callers=_reverse(calls),
        creators=_reverse(creates),
        called=_by_caller(calls),
    )


def _by_caller(calls: dict[Site, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    out: dict[str, set[str]] = {}
    for (func, _), names in calls.items():
        out.setdefault(func, set()).update(names)
    return {f: tuple(sorted(n)) for f, n in out.items()}


def _reverse(edges: dict[Site, tuple[str, ...]]) -> dict[str, tuple[Site, ...]]:
    out: dict[str, list[Site]] = {}
    for site, names in edges.items():
        for n in names:
            out.setdefault(n, []).append(site)
    return {n: tuple(sites) for n, sites in out.items()}


def named_functions(program: Program, roots, addresses: bool = True) -> set[str]:
    """The functions with a body reached from ``roots`` through calls that name
    their callee and, with ``addresses``, through any function whose address
    is taken on the way (a function pointer may call it, or a thread start
    it): what a run from ``roots`` may execute, without points-to."""
    def successors(name: str):
        f = program.function(name)
        return () if f is None else _named_in(f.body, addresses)

    return {n for n in _closure(roots, successors) if program.function(n) is not None}


def _named_in(body: tuple[Instr, ...], addresses: bool) -> set[str]:
    out: set[str] = set()
    for i in body:
        if isinstance(i, Call) and type(i.callee) is Addr and i.callee.kind is ObjKind.FUNCTION:
            out.add(i.callee.name)
        if addresses:
            for e in expressions_of(i):
                out.update(x.name for x in nodes(e) if type(x) is Addr and x.kind is ObjKind.FUNCTION)
    return out


def _closure(roots, successors) -> set:
    """``roots`` and everything ``successors`` reaches from them."""
    seen, todo = set(roots), list(roots)
    while todo:
        for g in successors(todo.pop()):
            if g not in seen:
                seen.add(g)
                todo.append(g)
    return seen
