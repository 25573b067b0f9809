"""Litmus tests as data, their C text, and a brute-force oracle of their
executions under RC11 and under sequential consistency.

A litmus test is a tuple of threads, each a tuple of operations:
``("W", loc, order)`` a store of a value unique to it, ``("R", loc, order)``
a load, ``("U", loc, order)`` a fetch-and-add (a read-modify-write),
``("F", order)`` a thread fence. Orders are C11's names without the
prefix (``relaxed``, ``acquire``, ``release``, ``acq_rel``, ``seq_cst``).
Locations are ``x``, ``y``, ``z``: ``atomic_int`` globals, initially 0.

:func:`count` enumerates every reads-from choice for every read and every
modification order of every location (initial write first), and keeps the
graphs that are consistent, by the definitions of Lahav et al., "Repairing
sequential consistency in C/C++11" (PLDI 2017), written out as relations
on pairs with transitive closures, nothing shared with the engine's
incremental reading (``distaff.analysis.symex.weak``). Under ``sc`` a graph
is consistent when ``po ∪ rf ∪ mo ∪ fr`` is acyclic and each
read-modify-write reads its immediate predecessor in mo.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

ACQ = {"acquire", "acq_rel", "seq_cst"}
REL = {"release", "acq_rel", "seq_cst"}
ATOMIC = {"relaxed", "acquire", "release", "acq_rel", "seq_cst"}


@dataclass(frozen=True)
class Ev:
    id: int
    tid: int  # -1: an initial write
    kind: str  # "R" or "W" or "F"
    loc: str | None
    order: str  # "na" for the initial writes


def c_text(test: tuple) -> str:
    """The litmus test as a C program: main starts the threads and joins them."""
    lines = ["#include <pthread.h>", "#include <stdatomic.h>", "", "atomic_int x, y, z;", ""]
    value = 0
    for n, ops in enumerate(test):
        lines.append(f"void *t{n}(void *arg) {{")
        for k, op in enumerate(ops):
            if op[0] == "W":
                value += 1
                lines.append(f"  atomic_store_explicit(&{op[1]}, {value}, memory_order_{op[2]});")
            elif op[0] == "R":
                lines.append(f"  int r{k} = atomic_load_explicit(&{op[1]}, memory_order_{op[2]});")
                lines.append(f"  (void)r{k};")
            elif op[0] == "U":
                lines.append(f"  atomic_fetch_add_explicit(&{op[1]}, 1, memory_order_{op[2]});")
            else:
                lines.append(f"  atomic_thread_fence(memory_order_{op[1]});")
        lines += ["  return 0;", "}", ""]
    lines.append("int main(void) {")
    lines.append(f"  pthread_t h[{len(test)}];")
    for n in range(len(test)):
        lines.append(f"  pthread_create(&h[{n}], 0, t{n}, 0);")
    for n in range(len(test)):
        lines.append(f"  pthread_join(h[{n}], 0);")
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


def _events(test: tuple) -> tuple[list[Ev], set, set]:
    """The events (initial writes first), po and the rmw pairs."""
    locs = sorted({op[1] for ops in test for op in ops if op[0] != "F"})
    evs = [Ev(k, -1, "W", loc, "na") for k, loc in enumerate(locs)]
    po, rmw = set(), set()
    for tid, ops in enumerate(test):
        mine = []
        for op in ops:
            if op[0] == "U":
                r = Ev(len(evs), tid, "R", op[1], op[2])
                w = Ev(len(evs) + 1, tid, "W", op[1], op[2])
                evs += [r, w]
                rmw.add((r.id, w.id))
                mine += [r, w]
            elif op[0] == "F":
                e = Ev(len(evs), tid, "F", None, op[1])
                evs.append(e)
                mine.append(e)
            else:
                e = Ev(len(evs), tid, op[0], op[1], op[2])
                evs.append(e)
                mine.append(e)
        for a, b in itertools.combinations(mine, 2):
            po.add((a.id, b.id))
    for i in evs[:len(locs)]:  # the initial writes come before everything
        for e in evs[len(locs):]:
            po.add((i.id, e.id))
    return evs, po, rmw


def _closure(rel: set) -> set:
    out = set(rel)
    while True:
        new = {(a, d) for (a, b) in out for (c, d) in out if b == c} - out
        if not new:
            return out
        out |= new


def _seq(*rels: set) -> set:
    out = rels[0]
    for r in rels[1:]:
        out = {(a, d) for (a, b) in out for (c, d) in r if b == c}
    return out


def _ident(ids) -> set:
    return {(i, i) for i in ids}


def _acyclic(rel: set) -> bool:
    return all(a != b for a, b in _closure(rel))


def _graphs(test: tuple):
    """Every (events, po, rmw, rf, mo) a choice of writes for the reads and
    orders of the writes makes."""
    evs, po, rmw = _events(test)
    reads = [e for e in evs if e.kind == "R"]
    locs = sorted({e.loc for e in evs if e.loc})
    writes = {loc: [e.id for e in evs if e.kind == "W" and e.loc == loc] for loc in locs}
    mos = []
    for loc in locs:
        init, rest = writes[loc][0], writes[loc][1:]
        mos.append([[init] + list(p) for p in itertools.permutations(rest)])
    rf_choices = [writes[r.loc] for r in reads]
    for mo_pick in itertools.product(*mos):
        mo = set()
        for order in mo_pick:
            mo |= {(a, b) for a, b in itertools.combinations(order, 2)}
        for rf_pick in itertools.product(*rf_choices):
            rf = {(w, r.id) for w, r in zip(rf_pick, reads)}
            yield evs, po, rmw, rf, mo


def _rc11(evs, po, rmw, rf, mo) -> bool:
    by = {e.id: e for e in evs}
    ids = [e.id for e in evs]
    if not _acyclic(po | rf):
        return False
    fr = {(r, w2) for (w, r) in rf for (w1, w2) in mo if w1 == w and r != w2}
    po_loc = {(a, b) for (a, b) in po if by[a].loc is not None and by[a].loc == by[b].loc}
    W = {i for i in ids if by[i].kind == "W"}
    R = {i for i in ids if by[i].kind == "R"}
    F = {i for i in ids if by[i].kind == "F"}
    atomic_w = {i for i in W if by[i].order in ATOMIC}
    atomic_r = {i for i in R if by[i].order in ATOMIC}
    rel = {i for i in ids if by[i].order in REL}
    acq = {i for i in ids if by[i].order in ACQ}
    # rs = [W] ; po|loc? ; [W ⊒ rlx] ; (rf ; rmw)*
    step = _ident(W) | {(a, b) for (a, b) in po_loc if a in W}
    rs = {(a, b) for (a, b) in step if b in atomic_w}
    chain = _seq(rf, rmw)
    rs = rs | _seq(rs, _closure(chain)) if chain else rs
    # sw = [E ⊒ rel] ; ([F] ; po)? ; rs ; rf ; [R ⊒ rlx] ; (po ; [F])? ; [E ⊒ acq]
    head = _ident(rel) | {(a, b) for (a, b) in po if a in rel and a in F}
    tail = _ident(ids) | {(a, b) for (a, b) in po if b in F}
    sw = _seq(head, rs, {(w, r) for (w, r) in rf if r in atomic_r}, tail)
    sw = {(a, b) for (a, b) in sw if b in acq}
    hb = _closure(po | sw)
    eco = _closure(rf | mo | fr)
    if any(a == b for (a, b) in hb) or any(a == b for (a, b) in _seq(hb, eco)):
        return False
    # atomicity: rmw ∩ (fre ; moe) = ∅
    fre = {(a, b) for (a, b) in fr if by[a].tid != by[b].tid}
    moe = {(a, b) for (a, b) in mo if by[a].tid != by[b].tid}
    if rmw & _seq(fre, moe):
        return False
    # psc
    sc = {i for i in ids if by[i].order == "seq_cst"}
    if len(sc) < 2:
        return True
    po_nloc = po - po_loc
    hb_loc = {(a, b) for (a, b) in hb if by[a].loc is not None and by[a].loc == by[b].loc}
    scb = po | _seq(po_nloc, hb, po_nloc) | hb_loc | mo | fr
    sc_f = sc & F
    left = _ident(sc) | {(a, b) for (a, b) in hb if a in sc_f}
    right = _ident(sc) | {(a, b) for (a, b) in hb if b in sc_f}
    psc = _seq(left, scb, right)
    psc |= {(a, b) for (a, b) in hb | _seq(hb, eco, hb) if a in sc_f and b in sc_f}
    return _acyclic(psc)


def _sc(evs, po, rmw, rf, mo) -> bool:
    fr = {(r, w2) for (w, r) in rf for (w1, w2) in mo if w1 == w and r != w2}
    if not _acyclic(po | rf | mo | fr):
        return False
    return not (rmw & _seq(fr, mo))


ORDERS = {"R": ("relaxed", "acquire", "seq_cst"), "W": ("relaxed", "release", "seq_cst"),
          "U": ("relaxed", "acquire", "release", "acq_rel", "seq_cst"),
          "F": ("acquire", "release", "acq_rel", "seq_cst")}


def generate(rnd: random.Random, max_ops: int = 6) -> tuple:
    """A litmus test drawn with ``rnd``: two to four threads, at most
    ``max_ops`` operations in all, on x, y and (rarely) z, every order that
    is valid for each kind of operation."""
    threads = rnd.choice((2, 2, 2, 3, 3, 4))
    total = rnd.randint(min(2 * threads, max_ops), max(threads, max_ops))
    sizes = [1] * threads
    for _ in range(total - threads):
        sizes[rnd.randrange(threads)] += 1
    test = []
    for n in sizes:
        ops = []
        for _ in range(n):
            kind = rnd.choice("RRRWWWUUF")
            order = rnd.choice(ORDERS[kind] + ((ORDERS[kind][0],) * 2 if kind != "F" else ()))  # relaxed thrice
            if kind == "F":
                ops.append(("F", order))
            else:
                ops.append((kind, rnd.choice("xxxyyyz"), order))
        test.append(tuple(ops))
    return tuple(test)


def candidates(test: tuple) -> int:
    """How many graphs :func:`count` enumerates for ``test``."""
    writes: dict = {}
    reads: dict = {}
    for ops in test:
        for op in ops:
            if op[0] in "WU":
                writes[op[1]] = writes.get(op[1], 0) + 1
            if op[0] in "RU":
                reads[op[1]] = reads.get(op[1], 0) + 1
    out = 1
    for loc, n in writes.items():
        out *= math.factorial(n)
    for loc, n in reads.items():
        out *= (writes.get(loc, 0) + 1) ** n
    return out


def count(test: tuple, model: str) -> int:
    """How many executions of ``test`` are consistent under ``model`` ("rc11" or "sc")."""
    check = _rc11 if model == "rc11" else _sc
    return sum(1 for g in _graphs(test) if check(*g))


__all__ = ["ORDERS", "c_text", "candidates", "count", "generate"]
