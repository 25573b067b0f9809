"""Semantics of the built-in operations other than synchronization:
checks (assert, assume, abort, exit), fresh values (nondet, externals,
``klee_make_symbolic``) and the heap (malloc, calloc, alloca, free, memset,
memcpy). pthreads operations are in :mod:`distaff.analysis.symex.sync`.

Like every instruction handler, each operation makes all its forks (through
``E.fork``/``E.require``/``E.concretize``/``E.resolve``) before it changes the
state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from distaff.analysis import ir
from distaff.analysis.ir import AssertKind, IntType, Op, PtrType, bits_of, is_signed
from distaff.analysis.symex import awaits, c11, libc, sync
from distaff.analysis.symex.pivots import EngineLimit, Leaf, LeafKind, LeafReached, Option
from distaff.analysis.symex.state import Effect, State, SyncOp
from distaff.analysis.symex.unmodelled import unsupported_here
from distaff.analysis.symex.values import mask

if TYPE_CHECKING:
    from distaff.analysis.symex.engine import Engine

CHUNK = 8  # bytes moved at a time by memset/memcpy
# bytes of shared memory a memset/memcpy moves per visible step: tears inside
# a piece are not explored
SHARED_PIECE = 4


def _next(E: Engine, st: State, tid: int, i: ir.Intrinsic, value=None) -> None:
    f = st.wframe(tid)
    if i.dst is not None and value is not None:
        f.regs[i.dst.name] = value
    f.pc += 1
    if E.record_effects:
        st.add_effect(Effect(tid, f.uid, i, value=value))


def _label(i: ir.Intrinsic) -> str:
    if i.dst is not None and not i.dst.name.startswith("%"):
        return i.dst.name
    name = i.name or "nondet"
    return name.removeprefix("__VERIFIER_")


def assume(E: Engine, st: State, c) -> None:
    """Go on only where ``c`` holds. An assumption on symbolic values narrows
    the inputs for the rest of the run: a step of another thread before it may
    see inputs it rules out (and fail an assertion there), so for the
    dependence it is like the end of the process, dependent with every step
    (noted as the synchronization ``assume``) -- unless every symbol it
    narrows was made in this very block, where no other thread can have
    seen it (``x = nondet(); assume(x > 0);``)."""
    if c is True:
        return
    if c is False or not E.is_sat(st, c):
        raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=E.span))
    E.constrain(st, c)
    if st.event is not None and not E.values.symbols(c) <= _made_in_block(st):
        st.event.syncs.append(SyncOp("assume", 0))


def _made_in_block(st: State) -> set[str]:
    """Names of the symbols made since the current block started."""
    out = set()
    cell, stop = st.symbols, st.block_symbols
    while cell is not None and cell is not stop:
        sym, cell = cell
        out.add(sym.name)
    return out


def _assert(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    c = E.cond(st, tid, i.args[0]) if i.args else False
    f = st.threads[tid].frames[-1]
    unreach = i.assert_kind is AssertKind.UNREACH_CALL
    text = f"{i.name or 'reach_error'}()" if unreach else i.text
    is_target = f"{f.func.name}:{f.pc}" == E.target
    if is_target:
        E.reach(st)
    # every assertion forks the same way whatever the target, so that a trace's
    # recorded choices replay under any target; only the failing side differs
    opt = E.fork(st, lambda: [Option(E.values.not_(c), "fail"), Option(c, "hold")], exhaustive=True)
    if opt.payload == "fail":
        if unreach:
            st.add_step(tid, i.span, f"call {text}: reached")
            msg = f"{text} is reachable"
        else:
            st.add_step(tid, i.span, f"assert {text} fails")
            msg = f"assertion {text} can fail"
        if is_target:
            raise LeafReached(Leaf(LeafKind.VIOLATION, msg, i.span, tid))
        raise LeafReached(Leaf(LeafKind.STOPPED, msg, i.span, tid))
    st.add_step(tid, i.span, f"assert {text} holds")
    if E.record_effects:
        st.add_effect(Effect(tid, f.uid, i, outcome="hold"))
    st.wframe(tid).pc += 1


def _assume(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    c = E.cond(st, tid, i.args[0]) if i.args else True
    assume(E, st, c)
    if i.args:
        regs = st.threads[tid].frames[-1].regs
        temps = {r: regs.get(r) for r in E.temps_read(i.args[0])}
        st.add_step(tid, i.span, "assume (", ("expr", i.args[0], temps), ")")
    _next(E, st, tid, i)


def _end(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    if i.name == UNREACHABLE:  # the program promised no run gets here
        raise LeafReached(Leaf(LeafKind.ERROR, f"{UNREACHABLE}() is reached", i.span, tid))
    if i.op is Op.EXIT and i.args:
        st.add_step(tid, i.span, "exit(", ("v", E.ev(st, tid, i.args[0]), i.args[0].type), ")")
    else:
        st.add_step(tid, i.span, f"{i.name or i.op.value}()")
    st.ended = True
    raise LeafReached(Leaf(LeafKind.END, i.op.value, i.span, tid))


# a NONDET without destination named so marks where the front end met C it
# does not cover (distaff.analysis.frontend.lower_func)
UNSUPPORTED_MARK = "unsupported"

# an ABORT named so is GCC's __builtin_unreachable(): a run that reaches it
# is a run-time error (the front end's lowering, distaff.analysis.frontend.lower_call)
UNREACHABLE = "__builtin_unreachable"

# body-less functions that synchronize or update memory atomically: treating
# them as ordinary externals would silently drop their effect
UNMODELLED_SYNC = (
    "pthread_rwlock_", "pthread_spin_", "pthread_once", "sem_", "__sync_", "__atomic_", "atomic_",
    "mtx_", "cnd_", "thrd_", "call_once",
)


def _nondet(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    if i.dst is None and i.op is Op.NONDET and i.name == UNSUPPORTED_MARK:
        # the front end's mark of C it does not cover: the rest of the run is not vouched for
        what = unsupported_here(E.program, i.span)
        if what not in st.taint:
            st.taint = st.taint + (what,)
        _next(E, st, tid, i)
        return
    origin = ""
    if i.op is Op.EXTERNAL:
        model = libc.MODELS.get(i.name)  # every modelled name is a library name, never the program's own
        if model is not None:
            model.run(E, st, tid, i)
            return
        if i.name and i.name.startswith(UNMODELLED_SYNC):
            raise EngineLimit(f"{i.name} is not modelled (synchronization or an atomic operation)")
        origin = i.name
        args = [E.ev(st, tid, a) for a in i.args]
        for a, v in zip(i.args, args):
            if isinstance(a.type, PtrType):
                E.havoc(st, v, origin)
    if i.dst is None:
        st.add_step(tid, i.span, f"call {i.name} (no body)")
        _next(E, st, tid, i)
        return
    b = bits_of(i.dst.type, E.ptr_bits)
    label = f"{i.name}()" if i.op is Op.EXTERNAL else _label(i)
    v = E._fresh(st, tid, label, b, is_signed(i.dst.type), i.span, origin=origin, ctype=i.dst.type)
    if isinstance(i.dst.type, IntType) and i.dst.type.is_bool:
        E.constrain(st, E.values.le(v, 1, b, False))  # a _Bool holds 0 or 1 only
    st.add_step(tid, i.span, f"{label} = ", ("v", v, i.dst.type), op=("input", v, i.name or "", i.op.value))
    _next(E, st, tid, i, v)


def _string_at(E: Engine, e) -> str | None:
    if isinstance(e, ir.Addr):
        g = E.program.global_var(e.name)
        if g is not None and g.is_string:
            data = bytes(iv.value.value & 0xFF for iv in sorted(g.init, key=lambda iv: iv.offset)
                         if isinstance(iv.value, ir.Const))
            return data.split(b"\0", 1)[0].decode(errors="replace")
    return None


def _make_symbolic(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    V, pb = E.values, E.ptr_bits
    p = E.ev(st, tid, i.args[0])
    n = E.concretize(st, V.convert(E.ev(st, tid, i.args[1]), bits_of(i.args[1].type, pb), pb, False),
                     pb, "a symbolic object's size")
    label = (_string_at(E, i.args[2]) if len(i.args) > 2 else None) or "sym"
    oid, off = E.resolve(st, p, n, True)
    for k in range(0, n, CHUNK):
        w = min(CHUNK, n - k)
        v = E._fresh(st, tid, label if n <= CHUNK else f"{label}[{k}]", 8 * w, False, i.span)
        st.memory.store(oid, V.add(off, k, pb), w, v, V, E.layout)
    E.note_access(st, True, p, n, i.kind)
    st.add_step(tid, i.span, "make ", ("lv", p), f" symbolic ({n} bytes)")
    _next(E, st, tid, i)


def _alloc(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    V, pb = E.values, E.ptr_bits
    vals = [V.convert(E.ev(st, tid, a), bits_of(a.type, pb), pb, False) for a in i.args]
    if i.op is Op.CALLOC:
        size = V.mul(vals[0], vals[1], pb) if len(vals) > 1 else vals[0]
    else:
        size = vals[0] if vals else 0
    kind = "alloca" if i.op is Op.ALLOCA else "heap"
    oid = E.allocate(st, f"heap@{i.span.line}" if kind == "heap" else f"alloca@{i.span.line}", kind, size, None,
                   i.span, zeroed=i.op is Op.CALLOC)
    if kind == "alloca":
        st.wframe(tid).allocas.append(oid)
    p = E.layout.make(oid)
    st.add_step(tid, i.span, f"{i.name or i.op.value}(", ("v", size, IntType(pb, False)), ") = ", ("v", p, PtrType(ir.VoidType(), pb)),
                op=("alloc", p))
    _next(E, st, tid, i, p)


def _free(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    V, L, pb = E.values, E.layout, E.ptr_bits
    p = E.ev(st, tid, i.args[0])
    is_null = V.eq(p, 0, pb)
    if is_null is not False:
        if E.fork(st, lambda: [Option(is_null, "null"), Option(V.not_(is_null), "ptr")], exhaustive=True).payload == "null":
            st.add_step(tid, i.span, "free(NULL)")
            _next(E, st, tid, i)
            return
    oidv = V.simplified(L.obj(p, V))
    oid = oidv if isinstance(oidv, int) else E.concretize(st, oidv, L.id_bits, "a freed pointer's object")
    obj = st.memory.get(oid)
    if obj is None or obj.kind != "heap":
        raise LeafReached(Leaf(LeafKind.ERROR, "free of memory not allocated by malloc", i.span, tid))
    E.require(st, V.eq(L.off(p, V), 0, pb), "free of a pointer into the middle of a block")
    if not obj.alive:
        raise LeafReached(Leaf(LeafKind.ERROR, "double free", i.span, tid))
    st.memory.writable(oid).alive = False
    st.add_step(tid, i.span, f"free {obj.name}", op=("free", p))
    _next(E, st, tid, i)


def _size_arg(E: Engine, st: State, tid: int, e) -> int:
    pb = E.ptr_bits
    return E.concretize(st, E.values.convert(E.ev(st, tid, e), bits_of(e.type, pb), pb, False), pb, "a memory size")


def _memset(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    V, pb = E.values, E.ptr_bits
    p = E.ev(st, tid, i.args[0])
    byte = V.trunc(E.ev(st, tid, i.args[1]), 8)
    n = _size_arg(E, st, tid, i.args[2])
    lo, hi = _piece(st, tid, i, n, True)
    if n:
        oid, off = E.resolve(st, p, n, True)
        for k in range(lo, hi, CHUNK):
            w = min(CHUNK, hi - k)
            v = V.concat([(byte, 8)] * w)
            st.memory.store(oid, V.add(off, k, pb), w, v, V, E.layout)
        E.note_access(st, True, V.add(p, lo, pb), hi - lo, i.kind)
    st.add_step(tid, i.span, "memset ", ("lv", p), f" ({_bytes(lo, hi, n)}) to ", ("v", byte, IntType(8, False)),
                op=("memset", p, lo, hi, n))
    _advance(E, st, tid, i, hi, n, p)


def _memcpy(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    V, pb = E.values, E.ptr_bits
    d = E.ev(st, tid, i.args[0])
    s = E.ev(st, tid, i.args[1])
    n = _size_arg(E, st, tid, i.args[2])
    lo, hi = 0, n
    if n:
        soid, soff = E.resolve(st, s, n, False)
        doid, doff = E.resolve(st, d, n, True)
        apart = soid != doid or (isinstance(soff, int) and isinstance(doff, int)
                                 and (soff + n <= doff or doff + n <= soff))
        lo, hi = _piece(st, tid, i, n, apart)
        fresh = E.fresh_mem(st, tid, soid)
        chunks = []
        for k in range(lo, hi, CHUNK):
            w = min(CHUNK, hi - k)
            chunks.append((k, w, st.memory.load(soid, V.add(soff, k, pb), w, V, E.layout, fresh)))
        for k, w, v in chunks:
            st.memory.store(doid, V.add(doff, k, pb), w, v, V, E.layout)
        E.note_access(st, False, V.add(s, lo, pb), hi - lo, i.kind)
        E.note_access(st, True, V.add(d, lo, pb), hi - lo, i.kind)
    st.add_step(tid, i.span, f"copy {_bytes(lo, hi, n)} from ", ("lv", s), " to ", ("lv", d),
                op=("memcpy", s, d, lo, hi, n))
    _advance(E, st, tid, i, hi, n, d)


def _piece(st: State, tid: int, i: ir.Intrinsic, n: int, apart: bool) -> tuple[int, int]:
    """The bytes ``[lo, hi)`` of an ``n``-byte memset/memcpy moved by this step.

    On memory other threads may see (``i.kind`` GLOBAL) the operation is
    SHARED_PIECE bytes per visible step, so other threads' accesses can come
    between the pieces and a racing copy tears as in C; the thread's ``phase``
    ``"copy"`` holds, in ``phase_arg``, where the next piece starts. A copy
    whose ranges may overlap (memmove's case, within one object) stays one
    step (``apart`` false)."""
    t = st.threads[tid]
    lo = t.phase_arg if t.phase == "copy" else 0
    if i.kind is not ir.Kind.GLOBAL or not apart or n <= SHARED_PIECE:
        return lo, n
    return lo, min(n, lo + SHARED_PIECE)


def _bytes(lo: int, hi: int, n: int) -> str:
    if lo == 0 and hi == n:
        return f"{n} bytes"
    return f"bytes {lo}..{hi - 1} of {n}"


def _advance(E: Engine, st: State, tid: int, i: ir.Intrinsic, done: int, n: int, value) -> None:
    """After a piece: the operation's end, or its next piece as the thread's
    next visible step (the piece still leaves an effect, so that weakest
    preconditions see that memory changed)."""
    if done >= n:
        t = st.threads[tid]
        if t.phase == "copy":
            t = st.wthread(tid)
            t.phase, t.phase_arg = None, 0
        _next(E, st, tid, i, value)
        return
    t = st.wthread(tid)
    t.phase, t.phase_arg = "copy", done
    if E.record_effects:
        st.add_effect(Effect(tid, st.wframe(tid).uid, i, value=value))


def run(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    if st.threads[tid].laps and not E.round_neutral(i):  # (every continuation does it: before the forks)
        awaits.drop(st, tid)
    h = _OPS.get(i.op)
    if h is not None:
        h(E, st, tid, i)
        return
    before = st.steps
    sync.run(E, st, tid, i)
    steps = st.steps
    while steps is not before and steps:  # name the operation of the steps it recorded
        rec = steps[0]
        if not rec.op:
            head = rec.parts[0] if rec.parts else ""
            blocked = isinstance(head, str) and head.startswith(("wait for ", "woken, wait for "))
            # (_value_: the enum's value property runs Python code)
            rec.op = ("blocked", i.op._value_) if blocked else ("sync", i.op._value_, i.name or "")
        steps = steps[1]


def _fence(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    """A thread fence: an event of the run's graph under C11, nothing under
    sequential consistency."""
    if st.weak is not None and not st.weak.sc:
        c11.fence(E, st, tid, i)
    _next(E, st, tid, i)


_OPS = {
    Op.FENCE: _fence,
    Op.ASSERT: _assert,
    Op.ASSUME: _assume,
    Op.ABORT: _end,
    Op.EXIT: _end,
    Op.NONDET: _nondet,
    Op.EXTERNAL: _nondet,
    Op.MAKE_SYMBOLIC: _make_symbolic,
    Op.MALLOC: _alloc,
    Op.CALLOC: _alloc,
    Op.ALLOCA: _alloc,
    Op.FREE: _free,
    Op.MEMSET: _memset,
    Op.MEMCPY: _memcpy,
}

__all__ = ["run", "assume", "mask"]
