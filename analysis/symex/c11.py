"""The engine's accesses under C11 (``--memory-model rc11``): loads, stores
and fences on the run's execution graph (:mod:`distaff.analysis.symex.weak`).

Contract: the engine calls :func:`load`, :func:`store` and :func:`fence`
instead of its sequentially consistent memory when the run has a graph
(``State.weak``) and the access is GLOBAL or its location is already in the
graph. A location enters the graph at its first GLOBAL access, its initial
write the value memory holds then. The engine's memory keeps, for each
location of the graph, the value of its latest write in mo, so what reads
memory directly (printing, summaries) sees a value some thread can see.

A load forks over the writes it may read, a store over the places in mo it
may take (``Engine.fork``: branch pivots, explored like a branch on an
input). The load of a read-modify-write (a store to the same address
follows it in its atomic region) reads a write no other one has read. A
compare-and-swap's store (``Store.only_if``) happens only when it
succeeds; when it fails, its read is made again with the failure order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from distaff.analysis import ir
from distaff.analysis.ir import FENCE_ORDERS, Intrinsic, IntType, MemOrder, Op, Store, type_size
from distaff.analysis.symex.pivots import EngineLimit, Leaf, LeafKind, LeafReached, Option
from distaff.analysis.symex.state import State
from distaff.analysis.symex.awaits import same
from distaff.analysis.symex.trace import lvalue
from distaff.analysis.symex.weak import Graph, Race, WeakMemoryLimit, psc_acyclic

if TYPE_CHECKING:
    from distaff.analysis.symex.engine import Engine


def _location(E: "Engine", st: State, tid: int, p, n: int, write: bool) -> tuple[int, Any]:
    oid, off = E.resolve(st, p, n, write)
    if not isinstance(off, int):
        off = E.concretize(st, off, E.ptr_bits, "an offset into an atomic object")
    return oid, off


def _enter(E: "Engine", st: State, tid: int, loc: tuple[int, int], n: int) -> Graph:
    """The run's graph with ``loc`` in it. Memory holds the value of each
    location's latest write; when it holds another, something wrote it
    outside the loads and stores of this module (a thread handle, a join's
    result, memset, a library model), which the graph cannot order: the run
    stops there, undecided, rather than read a value no write made."""
    g = st.weak
    known = g.has(loc)
    init = None if known else st.memory.load(loc[0], loc[1], n, E.values, E.layout, E.fresh_mem(st, tid, loc[0]))
    try:
        g = g.with_location(loc, n, init)  # (an access of another size raises, known or not)
    except WeakMemoryLimit as limit:
        raise EngineLimit(str(limit)) from None
    if known:
        now = st.memory.peek(loc[0], loc[1], n)
        if now is not None and not same(now, g.value(g.latest(loc))):
            raise EngineLimit("memory written outside its loads and stores (a library call, a thread handle, "
                              "a join's result) at a location C11 reads: not modelled yet")
    return g


# what a trace's step adds when a write did not become the latest in mo, and
# how the text a read of an older write adds begins (_older)
EARLIER = " (placed before a write another thread made earlier, as C11 allows)"
OLDER = ", not the latest: "


def weak_steps(actions) -> bool:
    """Does a trace whose steps say ``actions`` show what only C11 allows (a
    read of an older value, a write placed before an earlier one)?"""
    return any(OLDER in a or EARLIER in a for a in actions)
LATEST, BEFORE, NONE = "latest", "before", "none"


def weak_orders(program: ir.Program) -> bool:
    """Does ``program`` make an atomic access weaker than seq_cst? Without
    one, a program free of data races has only sequentially consistent
    executions (RC11's DRF-SC), and its runs need no graph."""
    for f in program.functions:
        for i in f.body:
            if isinstance(i, (ir.Load, Store)) and i.order is not MemOrder.NA and i.order is not MemOrder.SC:
                return True
    return False


def graph_kind(program: ir.Program, memory_model: str, count_executions: bool) -> str:
    """The execution graph runs of ``program`` keep (``Engine.graph``)."""
    if memory_model == "rc11" and weak_orders(program):
        return "rc11"
    return "sc" if count_executions else ""


def location_of(E: "Engine", p) -> tuple[Any, Any]:
    """(object, offset) of ``p`` without checks; either may be a term."""
    return E.layout.obj(p, E.values), E.layout.off(p, E.values)


def in_graph(E: "Engine", st: State, p) -> bool:
    """Is what ``p`` points to a location of the run's graph already?"""
    oid, off = location_of(E, p)
    return isinstance(oid, int) and isinstance(off, int) and st.weak.has((oid, off))


def race_message(E: "Engine", st: State, race: Race) -> str:
    """A data race of the graph in the words of the race detector's:
    ``data race on `x`: write at line 15 (thread writer#1) and read at line
    22 (thread main)``, and why it is one."""
    oid, off = race.loc
    size = dict(st.weak.sizes[oid])[off]
    where = lvalue(st, E.layout, E.layout.make(oid, off), IntType(8 * size, True))
    sides = [f"{'write' if w else 'read'} at line {span.line} (thread {st.threads[tid].name})"
             for span, w, tid in zip((race.first, race.second), race.writes, race.tids)]
    return (f"data race on `{where}`: {sides[0]} and {sides[1]}, one of them plain, and neither happens "
            "before the other (undefined in C)")


RMW, CAS = "rmw", "cas"


def rmw_load(E: "Engine", func: ir.Function, pc: int) -> str:
    """What the Load at ``pc`` is the read of, when a Store to the same
    address follows it in its atomic region: RMW when that store happens
    whatever was read, CAS when it is a compare-and-swap's; "" otherwise."""
    key = (func.name, pc)
    known = E.c11_rmw.get(key)
    if known is None:
        body = func.body
        load = body[pc]
        known = ""
        for i in body[pc + 1:]:
            if isinstance(i, Intrinsic) and i.op is Op.ATOMIC_END:
                break
            if isinstance(i, Store) and i.addr == load.addr and i.order is not MemOrder.NA:
                known = RMW if i.only_if is None else CAS
                break
        E.c11_rmw[key] = known
    return known


def load(E: "Engine", st: State, tid: int, i: ir.Load, p) -> tuple[Any, tuple[int, Any], tuple]:
    """The value ``tid``'s load ``i`` of ``p`` reads; its object and offset;
    and, when it read an older write than the latest in mo, the parts of a
    step's text that say so (empty otherwise)."""
    n = type_size(i.type)
    loc = _location(E, st, tid, p, n, False)
    g = _enter(E, st, tid, loc, n)
    f = st.threads[tid].frames[-1]
    order = i.order
    part = rmw_load(E, f.func, f.pc) if order is not MemOrder.NA and st.threads[tid].atomic > 0 else ""
    rmw = part == RMW
    options = g.read_options(tid, loc, order, rmw)
    if not options:
        raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=i.span))
    w = options[0] if len(options) == 1 else E.fork(
        st, lambda: [Option(True, x) for x in options], known_feasible=True).payload
    before = g
    g, _ = g.read(tid, loc, order, w, rmw, i.span)
    if part == CAS:
        g.cas = (tid, before, w)  # (a compare-and-swap's store may ask for it again)
    if len(options) > 1:
        E.counters["c11_read_choices"] = E.counters.get("c11_read_choices", 0) + 1
    st.weak = g
    return g.value(w), loc, _older(g, loc, w, i.type)


def _older(g: Graph, loc, w: int, ctype) -> tuple:
    """What a read of ``w`` says under C11: which write it read; and when
    that is not the latest write of ``loc``, why it could be: the latest
    does not happen before the read (else the read could not read an older
    one). Nothing under sequential consistency (the graph counts only)."""
    if g.sc:
        return ()
    latest = g.events[g.latest(loc)]
    read = g.events[w]
    source = " (the initial value" if read.tid < 0 or read.span is None else f" (written at line {read.span.line}"
    if g.latest(loc) == w or latest.span is None:
        return (source + ")",)
    return (source + OLDER + "the write of ", ("v", latest.value, ctype), f" at line {latest.span.line} is not "
            "visible here: nothing makes it happen before this read, as a release store read by an acquire "
            "load, a pair of fences or a lock would)")


def store(E: "Engine", st: State, tid: int, i: ir.Store, p, v) -> tuple[tuple[int, Any], str]:
    """Make ``tid``'s store ``i`` of ``v`` to ``p`` an event of the graph.
    Returns its location and LATEST when it is the latest write there
    (memory is to hold it), BEFORE when it went before another in mo, NONE
    when a compare-and-swap failed and wrote nothing."""
    n = type_size(i.type)
    loc = _location(E, st, tid, p, n, True)
    g = _enter(E, st, tid, loc, n)
    order = i.order
    atomic = order is not MemOrder.NA and st.threads[tid].atomic > 0
    rmw_read = g.last_read(tid, loc, i.only_if is None) if atomic else -1
    if i.only_if is not None and atomic:
        g = _compare(E, st, tid, i, g, loc, rmw_read)
        if g is None:
            return loc, NONE
    places = g.consistent_places(tid, loc, order, v, rmw_read)
    if not places:
        raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=i.span))
    k = places[-1] if len(places) == 1 else E.fork(
        st, lambda: [Option(True, x) for x in places], known_feasible=True).payload
    if len(places) > 1:
        E.counters["c11_write_choices"] = E.counters.get("c11_write_choices", 0) + 1
    latest = k == len(g.mo[loc])
    g = g.write(tid, loc, order, v, k, rmw_read, i.span)
    g.cas = None
    st.weak = g
    return loc, LATEST if latest else BEFORE


def _compare(E: "Engine", st: State, tid: int, i: ir.Store, g: Graph, loc, rmw_read: int) -> Graph | None:
    """A compare-and-swap's outcome: the graph to write in when it
    succeeds, None when it fails (its read made again with the failure
    order). It cannot succeed on a write another read-modify-write read."""
    ok = E.cond(st, tid, i.only_if)
    cas = g.cas
    if cas is None or cas[0] != tid or rmw_read < 0 or rmw_read != len(g.events) - 1:
        raise EngineLimit("a compare-and-swap whose comparison reads shared memory under C11")
    w = cas[2]
    mo = g.mo[loc]
    taken = g.taken(loc, mo.index(w))
    fails = E.values.not_(ok)
    if taken:  # (the write it read is another read-modify-write's)
        if not E.is_sat(st, fails):
            raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=i.span))
        E.constrain(st, fails)
        success = False
    else:
        success = E.fork(st, lambda: [Option(ok, True), Option(fails, False)], exhaustive=True).payload
    if success:
        return g
    g = g.copy()  # (shared with the states of the other outcome)
    if i.fail_order is not g.events[rmw_read].order:  # read again with the failure's order
        _, before, w = cas
        g, _ = before.read(tid, loc, i.fail_order, w, False, g.events[rmw_read].span)
        if g.sc_events and not psc_acyclic(g):
            raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=i.span))
    g.cas = None
    st.weak = g
    return None


def fence(E: "Engine", st: State, tid: int, i: Intrinsic) -> None:
    order = FENCE_ORDERS[i.args[0].value] if isinstance(i.args[0], ir.Const) else MemOrder.SC
    g = st.weak.fence(tid, order, i.span)
    if order is MemOrder.SC and g.sc_events > 1 and not psc_acyclic(g):
        raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=i.span))
    st.weak = g


__all__ = ["graph_kind", "race_message", "weak_orders", "weak_steps", "BEFORE", "EARLIER", "LATEST", "NONE", "OLDER", "fence", "in_graph", "load", "rmw_load", "store"]
