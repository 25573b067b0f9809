"""C11 memory as RC11 defines it: the execution graph of a run.

Lahav, Vafeiadis, Kang, Hur and Dreyer, "Repairing sequential consistency in
C/C++11" (PLDI 2017) define which executions of a C program are consistent:
an execution is a graph of events (reads, writes, fences) with program order
``po``, reads-from ``rf`` (which write each read reads) and a modification
order ``mo`` per location (the order its writes take effect), and it is
consistent when

* coherence: ``hb ; eco?`` is irreflexive, with ``hb = (po ∪ sw)+`` and
  ``eco`` the order of rf, mo and from-reads ``fr = rf⁻¹ ; mo``;
* atomicity: no write comes between a read-modify-write and the write it
  read, in mo;
* SC: ``psc`` (over the seq_cst accesses and fences) is acyclic;
* no thin air: ``po ∪ rf`` is acyclic.

A run adds events to a :class:`Graph` in the order the threads execute them,
which respects ``po ∪ rf`` by construction (a read reads a write that is
already there), so every consistent execution is the graph of some run: the
one that executes its events in a ``po ∪ rf`` order. At each read the run
chooses among the writes :meth:`Graph.read_options` allows; at each write,
among the places in mo :meth:`Graph.write_places` allows; each choice keeps
the graph consistent, so no run ends in an inconsistent graph.

Happens-before is kept as bitsets over the events: ``Event.hb`` is the set
of events that happen before it, ``front[tid]`` the set before the thread's
next event; synchronises-with adds to them when an acquire read (or an
acquire fence after a relaxed read) reads a write whose release sequence
has a release head (``Event.relv``: the heads and what happens before
them; RC11's release sequence ``[W] ; po|loc? ; [W ⊒ rlx] ; (rf ; rmw)*``).
Mutexes, thread creation and join synchronise as C says (:meth:`spawn`,
:meth:`join`, :meth:`acquire`, :meth:`release`). The initial value of a
location is a write that happens before everything.

Coherence for a new event is checked through its *view*: the latest
position in mo, among the writes to its location that happen before it and
the writes read by the reads that happen before it. A read may read a write
at or after its view; a write is placed after it (and never between a
read-modify-write and the write it read). Nothing else can close a cycle
through the new event, which has no successors yet. ``psc`` is checked on
the whole graph (:func:`psc_acyclic`) when the graph has seq_cst events.

Plain (non-atomic) accesses are events too. Two conflicting accesses of
different threads, at least one plain, that happen-before does not order
are a data race (:attr:`Graph.races`): C leaves the program undefined.

A graph is immutable: every change makes a new one, so a state's clone
shares it. ``sc``: sequential consistency instead (each read reads the
latest write, each write goes last), used to count the executions of a
program under SC.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from distaff.analysis.ir import MemOrder, Span

ACQUIRING = frozenset({MemOrder.ACQ, MemOrder.ACQ_REL, MemOrder.SC})
RELEASING = frozenset({MemOrder.REL, MemOrder.ACQ_REL, MemOrder.SC})

READ, WRITE, FENCE = "R", "W", "F"


@dataclass(frozen=True, slots=True)
class Event:
    """One event of the graph. ``tid`` -1: a location's initial value.
    ``rf``: the write a read
    read (-1 otherwise). ``rmw``: a write's read part when it is a
    read-modify-write, a read's 1 when it is one (-1 / 0 otherwise).
    ``hb``: the events that happen before it. ``relv``: a write's release
    heads and what happens before them (the synchronisation an acquire
    reading it gets). ``value``: what a write wrote (a term of the engine)."""

    tid: int
    kind: str
    loc: tuple | None
    order: MemOrder
    rf: int
    rmw: int
    hb: int
    relv: int
    value: Any
    span: Span | None


@dataclass(frozen=True, slots=True)
class Race:
    """Two conflicting accesses of a location, one plain, that happen-before
    does not order: the ``first`` made earlier in the run. ``writes``: whether
    each writes; ``tids``: their threads; ``loc``: the location (object,
    offset)."""

    first: Span
    second: Span
    writes: tuple[bool, bool]
    tids: tuple[int, int]
    loc: tuple


class WeakMemoryLimit(Exception):
    """What this model does not cover (the engine stops the run, undecided)."""


class Graph:
    """The execution graph of a run (module docstring)."""

    __slots__ = ("events", "mo", "reads", "front", "pending", "relf", "ownrel", "syncv", "sizes",
                 "sc_events", "races", "sc", "cas")

    def __init__(self, sc: bool = False) -> None:
        self.events: tuple[Event, ...] = ()
        self.mo: dict[tuple, tuple[int, ...]] = {}  # location -> its writes in mo
        self.reads: dict[tuple, tuple[int, ...]] = {}  # location -> its reads
        self.front: tuple[int, ...] = (0,)  # per thread: the events before its next one
        self.pending: tuple[int, ...] = (0,)  # per thread: what an acquire fence would acquire
        self.relf: tuple[int, ...] = (0,)  # per thread: its last release fence and what precedes it
        self.ownrel: dict[tuple, int] = {}  # (thread, location) -> its release writes there and their hb
        self.syncv: dict[Any, int] = {}  # synchronisation object -> what its releases released
        self.sizes: dict[int, tuple] = {}  # object -> ((offset, size), ...) of its locations
        self.sc_events = 0  # seq_cst events (psc is checked when there are any)
        self.races: tuple[Race, ...] = ()
        self.sc = sc
        # a compare-and-swap's read in progress: (thread, the graph before it,
        # the write it read), for a failure to read it again with its own order
        self.cas: tuple | None = None

    def copy(self) -> "Graph":
        g = Graph.__new__(Graph)
        for name in Graph.__slots__:
            setattr(g, name, getattr(self, name))
        return g

    # ------------------------------------------------------------------
    # locations

    def has(self, loc: tuple) -> bool:
        return loc in self.mo

    def with_location(self, loc: tuple, size: int, value: Any) -> "Graph":
        """The graph with ``loc`` (object, offset) of ``size`` bytes known,
        its initial write holding ``value``: what memory held when the
        location was first accessed. Raises :class:`WeakMemoryLimit` when it
        overlaps a location of another size or offset (mixed-size accesses)."""
        if loc in self.mo:
            if (loc[1], size) not in self.sizes[loc[0]]:
                raise WeakMemoryLimit("accesses of different sizes to one atomic location")
            return self
        oid, off = loc
        for o, s in self.sizes.get(oid, ()):
            if o < off + size and off < o + s:
                raise WeakMemoryLimit("accesses of different sizes to one atomic location")
        g = self.copy()
        eid = len(self.events)
        g.events = self.events + (Event(-1, WRITE, loc, MemOrder.NA, -1, -1, 0, 0, value, None),)
        g.mo = {**self.mo, loc: (eid,)}
        g.reads = {**self.reads, loc: ()}
        g.sizes = {**self.sizes, oid: self.sizes.get(oid, ()) + ((off, size),)}
        return g

    def latest(self, loc: tuple) -> int:
        return self.mo[loc][-1]

    def value(self, eid: int) -> Any:
        return self.events[eid].value

    def last_read(self, tid: int, loc: tuple, rmw: bool = True) -> int:
        """``tid``'s latest event when it is a read of ``loc`` made as the
        read of a read-modify-write (``rmw``; any read with False), else -1."""
        for x in range(len(self.events) - 1, -1, -1):
            e = self.events[x]
            if e.tid == tid:
                return x if e.kind == READ and e.loc == loc and (e.rmw == 1 or not rmw) else -1
        return -1

    # ------------------------------------------------------------------
    # views

    def _view(self, loc: tuple, hb: int) -> int:
        """The position in mo a new event of ``loc`` whose predecessors are
        ``hb`` must not go below (module docstring)."""
        mo = self.mo[loc]
        best = 0
        for k in range(len(mo) - 1, 0, -1):
            if hb >> mo[k] & 1:
                best = k
                break
        for r in self.reads[loc]:
            if hb >> r & 1:
                k = mo.index(self.events[r].rf)
                if k > best:
                    best = k
        return best

    def _thread(self, tid: int) -> None:
        n = tid + 1 - len(self.front)
        if n > 0:
            self.front = self.front + (0,) * n
            self.pending = self.pending + (0,) * n
            self.relf = self.relf + (0,) * n

    # ------------------------------------------------------------------
    # reads

    def read_options(self, tid: int, loc: tuple, order: MemOrder, rmw: bool) -> list[int]:
        """The writes a read of ``loc`` by ``tid`` may read, oldest in mo
        first; ``rmw``: the read of a read-modify-write (it goes right after
        the write it read, so not one another one already did)."""
        mo = self.mo[loc]
        if self.sc:
            return [mo[-1]]
        front = self.front[tid] if tid < len(self.front) else 0
        view = self._view(loc, front)
        out = []
        for k in range(view, len(mo)):
            w = mo[k]
            if rmw and self.taken(loc, k):
                continue
            if order in ACQUIRING and self._view(loc, front | self.events[w].relv) > k:
                continue
            if self.sc_events:
                if not psc_acyclic(self.read(tid, loc, order, w, rmw, None)[0]):
                    continue
            out.append(w)
        return out

    def taken(self, loc: tuple, k: int) -> bool:
        """Does a read-modify-write already follow the k-th write of ``loc`` in mo?"""
        mo = self.mo[loc]
        if k + 1 >= len(mo):
            return False
        e = self.events[mo[k + 1]]
        return e.rmw >= 0 and self.events[e.rmw].rf == mo[k]

    def read(self, tid: int, loc: tuple, order: MemOrder, w: int, rmw: bool, span: Span | None
             ) -> tuple["Graph", int]:
        """The graph with ``tid``'s read of ``loc`` reading write ``w``; and the read."""
        g = self.copy()
        g._thread(tid)
        eid = len(self.events)
        wev = self.events[w]
        hb = g.front[tid]
        if order in ACQUIRING:
            hb |= wev.relv
        e = Event(tid, READ, loc, order, w, 1 if rmw else 0, hb, 0, None, span)
        g.events = self.events + (e,)
        g.reads = {**self.reads, loc: self.reads[loc] + (eid,)}
        g._set(tid, hb | 1 << eid)
        if order is not MemOrder.NA and order not in ACQUIRING and wev.relv:
            g.pending = _put(g.pending, tid, g.pending[tid] | wev.relv)
        if order is MemOrder.SC:
            g.sc_events += 1
        g._race(e, eid)
        return g, eid

    # ------------------------------------------------------------------
    # writes

    def write_places(self, tid: int, loc: tuple, rmw_read: int = -1) -> list[int]:
        """Where in ``loc``'s mo a write by ``tid`` may go (an index to insert
        at, the latest last); a read-modify-write's write (its read part
        ``rmw_read``) goes right after the write it read."""
        mo = self.mo[loc]
        if rmw_read >= 0:
            return [mo.index(self.events[rmw_read].rf) + 1]
        if self.sc:
            return [len(mo)]
        front = self.front[tid] if tid < len(self.front) else 0
        view = self._view(loc, front)
        return [k for k in range(view + 1, len(mo) + 1) if not self.taken(loc, k - 1)]

    def consistent_places(self, tid: int, loc: tuple, order: MemOrder, value: Any, rmw_read: int = -1
                          ) -> list[int]:
        """:meth:`write_places` that keep ``psc`` acyclic."""
        places = self.write_places(tid, loc, rmw_read)
        if self.sc or not self.sc_events:
            return places
        return [k for k in places if psc_acyclic(self.write(tid, loc, order, value, k, rmw_read, None))]

    def write(self, tid: int, loc: tuple, order: MemOrder, value: Any, place: int, rmw_read: int,
              span: Span | None) -> "Graph":
        """The graph with ``tid``'s write of ``value`` to ``loc`` at ``place`` in mo."""
        g = self.copy()
        g._thread(tid)
        eid = len(self.events)
        hb = g.front[tid]
        relv = 0
        if order is not MemOrder.NA:
            if order in RELEASING:
                relv = hb | 1 << eid
            relv |= g.relf[tid] | self.ownrel.get((tid, loc), 0)
            if rmw_read >= 0:
                relv |= self.events[self.events[rmw_read].rf].relv
        e = Event(tid, WRITE, loc, order, -1, rmw_read, hb, relv, value, span)
        g.events = self.events + (e,)
        mo = self.mo[loc]
        g.mo = {**self.mo, loc: mo[:place] + (eid,) + mo[place:]}
        if order in RELEASING:
            g.ownrel = {**self.ownrel, (tid, loc): self.ownrel.get((tid, loc), 0) | hb | 1 << eid}
        g._set(tid, hb | 1 << eid)
        if order is MemOrder.SC:
            g.sc_events += 1
        g._race(e, eid)
        return g

    # ------------------------------------------------------------------
    # fences and synchronisation

    def fence(self, tid: int, order: MemOrder, span: Span | None) -> "Graph":
        g = self.copy()
        g._thread(tid)
        eid = len(self.events)
        hb = g.front[tid]
        if order in ACQUIRING:
            hb |= g.pending[tid]
        g.events = self.events + (Event(tid, FENCE, None, order, -1, -1, hb, 0, None, span),)
        g._set(tid, hb | 1 << eid)
        if order in RELEASING:
            g.relf = _put(g.relf, tid, hb | 1 << eid)
        if order is MemOrder.SC:
            g.sc_events += 1
        return g

    def spawn(self, parent: int, child: int) -> "Graph":
        g = self.copy()
        g._thread(max(parent, child))
        g.front = _put(g.front, child, g.front[parent])
        return g

    def join(self, tid: int, child: int) -> "Graph":
        g = self.copy()
        g._thread(max(tid, child))
        g.front = _put(g.front, tid, g.front[tid] | g.front[child])
        return g

    def acquire(self, tid: int, key: Any) -> "Graph":
        if not self.syncv.get(key):
            return self
        g = self.copy()
        g._thread(tid)
        g.front = _put(g.front, tid, g.front[tid] | self.syncv[key])
        return g

    def release(self, tid: int, key: Any) -> "Graph":
        g = self.copy()
        g._thread(tid)
        g.syncv = {**self.syncv, key: self.syncv.get(key, 0) | g.front[tid]}
        return g

    def _set(self, tid: int, bits: int) -> None:
        self.front = _put(self.front, tid, bits)

    # ------------------------------------------------------------------
    # data races

    def _race(self, e: Event, eid: int) -> None:
        """Record the data races of new event ``e`` with the earlier accesses
        of its location (module docstring)."""
        loc = e.loc
        others = self.mo[loc] + self.reads[loc] if e.kind == WRITE else self.mo[loc]
        for x in others:
            o = self.events[x]
            if x == eid or o.tid < 0 or o.tid == e.tid or e.hb >> x & 1:
                continue
            if (o.order is MemOrder.NA or e.order is MemOrder.NA) and o.span is not None and e.span is not None:
                race = Race(o.span, e.span, (o.kind == WRITE, e.kind == WRITE), (o.tid, e.tid), loc)
                self.races = self.races + (race,)

    # ------------------------------------------------------------------
    # the execution as a value

    def signature(self) -> tuple:
        """The execution's identity, whatever order the run made it in: per
        location the writes in mo, per read the write it read, each event
        named by (thread, number in the thread) (a location's initial write
        by the location)."""
        names: list[tuple] = []
        count: dict[int, int] = {}
        for e in self.events:
            names.append((e.tid, count.get(e.tid, 0)) if e.tid >= 0 else ("init",) + e.loc)
            count[e.tid] = count.get(e.tid, 0) + 1

        def name(x: int) -> tuple:
            return names[x]
        mo = tuple(sorted((loc, tuple(name(x) for x in ws)) for loc, ws in self.mo.items()))
        rf = tuple(sorted((name(r), name(self.events[r].rf)) for rs in self.reads.values() for r in rs))
        return mo, rf


def _put(t: tuple, i: int, v: int) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


# ----------------------------------------------------------------------
# psc


def psc_acyclic(g: Graph) -> bool:
    """Is RC11's partial SC order over the seq_cst events of ``g`` acyclic?

    ``psc = psc_base ∪ psc_F``, with ``scb = po ∪ po|≠loc ; hb ; po|≠loc ∪
    hb|loc ∪ mo ∪ fr``, ``psc_base = ([E_sc] ∪ [F_sc] ; hb?) ; scb ;
    ([E_sc] ∪ hb? ; [F_sc])`` and ``psc_F = [F_sc] ; (hb ∪ hb ; eco ; hb) ;
    [F_sc]`` (Lahav et al. 2017, section 3)."""
    ev = g.events
    n = len(ev)
    sc = [x for x in range(n) if ev[x].order is MemOrder.SC]
    if len(sc) < 2:
        return True
    succ = [0] * n  # hb successors
    for y in range(n):
        h = ev[y].hb
        while h:
            low = h & -h
            x = low.bit_length() - 1
            succ[x] |= 1 << y
            h ^= low
    po_after = [0] * n
    po_before = [0] * n
    for x in range(n):
        for y in range(x + 1, n):
            if ev[x].tid == ev[y].tid and ev[x].tid >= 0:
                po_after[x] |= 1 << y
                po_before[y] |= 1 << x
    mo_after = [0] * n
    for ws in g.mo.values():
        for i, x in enumerate(ws):
            for y in ws[i + 1:]:
                mo_after[x] |= 1 << y
    fr_after = [0] * n
    rf_out = [0] * n
    for rs in g.reads.values():
        for r in rs:
            w = ev[r].rf
            fr_after[r] = mo_after[w] & ~(1 << r)
            rf_out[w] |= 1 << r
    eco = [0] * n  # rf ∪ (mo ∪ fr) ; rf?
    for x in range(n):
        base = mo_after[x] | fr_after[x]
        out = rf_out[x] | base
        b = base
        while b:
            low = b & -b
            out |= rf_out[low.bit_length() - 1]
            b ^= low
        eco[x] = out

    def diff_loc(x: int, bits: int) -> int:
        out = 0
        while bits:
            low = bits & -bits
            y = low.bit_length() - 1
            if ev[y].loc is None or ev[y].loc != ev[x].loc:
                out |= low
            bits ^= low
        return out

    def union(bits: int, table: list) -> int:
        out = 0
        while bits:
            low = bits & -bits
            out |= table[low.bit_length() - 1]
            bits ^= low
        return out

    same_loc = [0] * n
    for x in range(n):
        if ev[x].loc is not None:
            for y in range(n):
                if ev[y].loc == ev[x].loc:
                    same_loc[x] |= 1 << y

    def scb(x: int) -> int:
        """The events y with x scb y."""
        out = po_after[x] | (succ[x] & same_loc[x]) | mo_after[x] | fr_after[x]
        mid = union(diff_loc(x, po_after[x]), succ)
        if mid:
            for y in range(n):
                if diff_loc(y, po_before[y]) & mid:
                    out |= 1 << y
        return out

    fences = {x for x in sc if ev[x].kind == FENCE}
    edges: dict[int, int] = {}
    for a in sc:
        starts = [a] if a not in fences else [a] + _bits(succ[a])
        reach = 0
        for s in starts:
            reach |= scb(s)
        out = 0
        for b in sc:
            if b in fences:
                if reach & ((1 << b) | ev[b].hb):
                    out |= 1 << b
            elif reach >> b & 1:
                out |= 1 << b
        if a in fences:
            via = union(union(succ[a], eco), succ) | succ[a]
            for b in fences:
                if via >> b & 1:
                    out |= 1 << b
        edges[a] = out
    return not _cyclic(sc, edges)


def _bits(b: int) -> list[int]:
    out = []
    while b:
        low = b & -b
        out.append(low.bit_length() - 1)
        b ^= low
    return out


def _cyclic(nodes: list[int], edges: dict[int, int]) -> bool:
    colour: dict[int, int] = {}

    def visit(x: int) -> bool:
        colour[x] = 1
        for y in _bits(edges[x]):
            c = colour.get(y, 0)
            if c == 1 or (c == 0 and visit(y)):
                return True
        colour[x] = 2
        return False

    return any(colour.get(x, 0) == 0 and visit(x) for x in nodes)


__all__ = ["ACQUIRING", "RELEASING", "Event", "Graph", "WeakMemoryLimit", "psc_acyclic"]
