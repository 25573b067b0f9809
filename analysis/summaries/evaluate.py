"""A summary under the current state's memory: ``PS[s][M]`` (§5.1).

:func:`instantiate` replaces every program variable of a summary by its value
in a state: registers and stack addresses from the threads' frames (a
register not set yet is an unknown value, as the engine would read it), the
bytes the summary reads from memory from the state's memory objects. What is
left mentions only the run's own symbols and the summary's unknown values, so
``pcon && !PS[s][M]`` can go to the solver.

It gives up (None) when the summary reads memory at an address that is not a
constant once the registers are known, or when one of the accesses it relies
on would not be a valid access in this state (dead object, out of bounds):
the summary says nothing there, which is always sound.
"""

from __future__ import annotations

import z3

from distaff.analysis.summaries.variables import MEMORY, FreeVar, RegVar, StackVar, Variables, parse
from distaff.analysis.symex.state import State
from distaff.analysis.symex.values import Terms


def _valid(st: State, L, addr: int, n: int, write: bool) -> bool:
    oid = addr >> L.off_bits
    off = addr & ((1 << L.off_bits) - 1)
    obj = st.memory.objs.get(oid)
    if obj is None or not obj.alive or obj.kind in ("null", "function", "thread"):
        return False
    if write and obj.readonly:
        return False
    return isinstance(obj.size, int) and off + n <= obj.size


def _byte(st: State, L, V, X: Variables, addr: int):
    oid = addr >> L.off_bits
    off = addr & ((1 << L.off_bits) - 1)
    obj = st.memory.objs.get(oid)
    if obj is None or not obj.alive:
        return None
    if obj.array is not None:
        return z3.Select(obj.array, V.const(off, L.bits))
    cells = obj.cells
    for s in range(off, off - obj.widest, -1):
        c = cells.get(s)
        if c is not None and s + c[0] > off:
            b = V.extract(c[1], (off - s) * 8 + 7, (off - s) * 8)
            return V.lift(b, 8)
    if obj.zeroed:
        return V.const(0, 8)
    return X.fresh(8)


class ReadsMemo:
    """What :func:`memory_reads` found per sub-term (AST pointer -> the
    pointers of the ``select(M, k)`` below it, or None), shared by the
    summaries of one check: a merged summary contains the ones it merged.
    z3 hash-conses terms; the walked roots are kept alive, and with them
    every sub-term with an entry, so no pointer is reused while the memo
    lives."""

    def __init__(self, X: Variables):
        self.T = Terms(X.ctx)
        self.mid = X.memory.as_ast().value
        self.found: dict = {}
        self.selects: dict = {}  # select id -> (term, constant address)
        self.alive: list = []


def memory_reads(phi, X: Variables, memo: ReadsMemo | None = None):
    """The ``select(M, k)`` terms of a summary with their constant byte
    addresses, or None when it reads memory in another way."""
    if isinstance(phi, bool):
        return []
    memo = ReadsMemo(X) if memo is None else memo
    T, found, mid = memo.T, memo.found, memo.mid
    root = phi.as_ast()
    rid = root.value
    if rid not in found:
        memo.alive.append(phi)
        todo = [(root, rid, False)]
        while todo:
            x, xid, expanded = todo.pop()
            if xid in found:
                continue
            op = T.op(x)
            if op == z3.Z3_OP_SELECT and T.arg(x, 0).value == mid:
                idx = T.arg(x, 1)
                if T.is_bv_value(idx):
                    memo.selects[xid] = (z3.BitVecRef(x, X.ctx), T.value(idx))
                    found[xid] = frozenset((xid,))
                else:
                    found[xid] = None
                continue
            if xid == mid or op == z3.Z3_OP_STORE:
                found[xid] = None
                continue
            kids = T.args(x)
            if not expanded:
                todo.append((x, xid, True))
                todo.extend((k, k.value, False) for k in kids)
                continue
            # (sets: a term shares its sub-terms, and lists of every select
            # below each node grew with the paths through them, not the nodes)
            out: frozenset | None = frozenset()
            for k in kids:
                sub = found[k.value]
                if sub is None:
                    out = None
                    break
                if sub:
                    out = out | sub if out else sub
            found[xid] = out
    ids = found[rid]
    if ids is None:
        return None
    return sorted((memo.selects[i] for i in ids), key=lambda s: s[1])  # by address: the same order every run


class InstanceMemo:
    """What :func:`instantiate` made of a summary under constant values
    (summary and values by z3's term ids -> the simplified result), for one
    check: the nodes of a small state space meet the same summaries with the
    same memory again and again (szymanski.c in dpor-ag at unwind 3: 7,918
    instantiations, 15 different ones). The entries keep their terms alive,
    so no id is reused while the memo lives; at ``LIMIT`` entries it starts
    over. ``hits`` counts the instantiations it answered."""

    LIMIT = 20_000

    def __init__(self):
        self.entries: dict = {}
        self.hits = 0


def instantiate(phi, accesses, st: State, engine, X: Variables, reads=None, memo: InstanceMemo | None = None):
    """``phi`` with the state's values for its program variables (a z3
    condition or a Python bool), or None when that cannot be done.
    ``reads``: :func:`memory_reads` of ``phi``, when known; ``memo``: where
    instantiations under constant values are remembered."""
    if isinstance(phi, bool):
        return phi
    V, L = engine.values, engine.layout
    for addr, n, write in accesses:
        if not _valid(st, L, addr, n, write):
            return None
    pairs = []
    if reads is not None:
        seen = set()
        for sel, idx in reads:  # several summaries' reads: some twice
            key = sel.as_ast().value
            if key in seen:
                continue
            seen.add(key)
            b = _byte(st, L, V, X, idx)
            if b is None:
                return None
            pairs.append((sel, b))
    memory = False
    for name in V.symbols(phi):
        var = parse(name)
        if var is None or isinstance(var, FreeVar):
            continue
        if var == MEMORY:
            memory = reads is None
            continue
        frames = st.threads[var.tid].frames if var.tid < len(st.threads) else []
        f = frames[var.depth] if var.depth < len(frames) else None
        if f is not None and f.func.name != var.func:
            f = None
        if isinstance(var, RegVar):
            v = f.regs.get(var.name) if f is not None else None
            if v is None:
                v = X.fresh(var.bits)
            elif isinstance(v, int):
                v = V.const(v & ((1 << var.bits) - 1), var.bits)
            elif not (isinstance(v, z3.BitVecRef) and V.terms.bv_size(v.as_ast()) == var.bits):
                return None
            pairs.append((X.term(var), v))
        elif isinstance(var, StackVar):
            if f is None or var.name not in f.stack_objs:
                return None
            pairs.append((X.term(var), V.const(L.make(f.stack_objs[var.name]), L.bits)))
    key = None
    if memo is not None and not memory:
        Tm = V.terms
        if all(Tm.is_bv_value(v.as_ast()) for _, v in pairs):
            key = (phi.as_ast().value,) + tuple((a.as_ast().value, v.as_ast().value) for a, v in pairs)
            hit = memo.entries.get(key)
            if hit is not None:
                memo.hits += 1
                return hit[0]
    out = _substitute(V, phi, pairs) if pairs else phi
    out = z3.simplify(out)
    if key is not None:
        if len(memo.entries) >= memo.LIMIT:
            memo.entries.clear()
        result = V.concrete(out)
        memo.entries[key] = (result, phi, pairs)  # (the terms kept alive: their ids stay theirs)
        return result
    if memory:
        selects = _selects(out, X.memory)
        if selects is None:
            return None
        byte_pairs = []
        for sel, idx in selects:
            b = _byte(st, L, V, X, idx)
            if b is None:
                return None
            byte_pairs.append((sel, b))
        if byte_pairs:
            out = z3.simplify(_substitute(V, out, byte_pairs))
        if MEMORY in V.symbols(out):
            return None
    return V.concrete(out)


def _substitute(V, phi, pairs):
    """``z3.substitute`` through the C API when every pair has one sort
    (z3's wrapper checks the sorts slowly); z3's own call otherwise, which
    raises on a mismatch as before."""
    Tm = V.terms
    if all(Tm.same_sort(a.as_ast(), b.as_ast()) for a, b in pairs):
        return Tm.substitute(phi, pairs)
    return z3.substitute(phi, *pairs)


def _selects(phi, memory):
    """Every ``select(M, k)`` in ``phi`` with its constant index ``k``; None
    when ``M`` is read at an index that is not constant (or through a store
    the simplifier could not resolve)."""
    out = []
    seen = set()
    todo = [phi]
    mid = memory.get_id()
    while todo:
        x = todo.pop()
        xid = x.get_id()
        if xid in seen:
            continue
        seen.add(xid)
        if z3.is_select(x):
            arr, idx = x.arg(0), x.arg(1)
            if arr.get_id() == mid:
                if not z3.is_bv_value(idx):
                    return None
                out.append((x, idx.as_long()))
                continue
        if z3.is_store(x) or (z3.is_const(x) and x.get_id() == mid):
            return None
        todo.extend(x.children())
    return out
