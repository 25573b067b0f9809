"""Weakest preconditions along explored runs (assertion-guided paper, §4,
Definition 1), over program variables.

:meth:`WeakestPreconditions.through` takes a formula ``phi`` about the state
at the end of a piece of a run (between two nodes of the explorer, or a node
and a leaf) and returns the condition on the state at its start under which
executing the same instructions -- the same branch outcomes, schedule and
addresses -- keeps the run alive without a run-time error and ends in a state
satisfying ``phi``. It walks the recorded
:class:`~distaff.analysis.symex.state.Effect` s backwards:

* ``dst := e``: substitute ``e`` for ``dst`` (Definition 1);
* a branch taken: conjoin its condition; ``assume(c)``: ``!c || phi`` (a
  false condition ends the run, which cannot violate the target); an
  assertion that held: ``c && phi`` (for another assertion too: its failure
  may be deferred while other threads run on, so ``!c`` is not safe by
  itself);
* a load or store: select from or store into the memory array ``M`` at the
  address the run used, conjoined with "the address expression still
  evaluates to that address" (so the summary's interleavings have the same
  dependences wherever it is used); an address the run only knew
  symbolically makes the result ``false``;
* a call or thread creation: parameters get the arguments; the new frame's
  other registers are unknown values; the new thread's handle is stored;
* synchronization: the address expressions must evaluate to the objects the
  run used; results are the run's (their outcome is fixed by the control
  state);
* the conditions under which the engine would have reported a run-time error
  (overflow, division by zero, shift range) are required;
* anything not modelled (memcpy/memset, fresh heap memory that the formula
  reads, returns from ``pthread_join`` into memory) makes the result
  ``false``: an under-approximation, always sound (§6.2).

Also returned: the concrete ``(address, size, write)`` accesses the formula
relies on; a state where one of them would be invalid cannot use it.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from distaff.analysis import ir
from distaff.analysis.ir import Intrinsic, Op, PtrType, bits_of, is_signed
from distaff.analysis.summaries import translate
from distaff.analysis.summaries.translate import Untranslatable
from distaff.analysis.summaries.variables import MEMORY, Variables
from distaff.analysis.symex.libc import writes_memory
from distaff.analysis.symex.sync import EBUSY
from distaff.analysis.symex.state import State, cons_list

_SYNC_OBJECT_OPS = frozenset({
    Op.MUTEX_INIT, Op.MUTEX_DESTROY, Op.MUTEX_LOCK, Op.MUTEX_TRYLOCK, Op.MUTEX_UNLOCK,
    Op.COND_INIT, Op.COND_DESTROY, Op.COND_SIGNAL, Op.COND_BROADCAST,
    Op.BARRIER_INIT, Op.BARRIER_DESTROY, Op.BARRIER_WAIT,
    Op.SEM_INIT, Op.SEM_DESTROY, Op.SEM_WAIT, Op.SEM_TRYWAIT, Op.SEM_POST,
    Op.RWLOCK_INIT, Op.RWLOCK_DESTROY, Op.RWLOCK_RDLOCK, Op.RWLOCK_WRLOCK,
    Op.RWLOCK_TRYRDLOCK, Op.RWLOCK_TRYWRLOCK, Op.RWLOCK_UNLOCK, Op.ONCE, Op.ONCE_DONE,
})
_UNMODELLED = frozenset({Op.MEMSET, Op.MEMCPY, Op.MAKE_SYMBOLIC})


class Bail(Exception):
    """The piece cannot be summarised: its precondition is ``false``."""


def unsupported_reason(program: ir.Program) -> str | None:
    """Why summaries cannot be computed for ``program`` at all (None: they can):
    calls through pointers may write registers without a recorded effect, and
    the first half of a condition wait through a pointer leaves no effect to
    check its addresses against; a thread-local variable's name stands for a
    different object in each thread."""
    if any(g.thread_local for g in program.globals):
        return "thread-local variables (one name, a copy per thread)"
    for f in program.functions:
        for i in f.body:
            if isinstance(i, ir.Call) and not (isinstance(i.callee, ir.Addr)
                                               and i.callee.kind is ir.ObjKind.FUNCTION):
                return "call through a function pointer"
            if isinstance(i, Intrinsic) and i.op is Op.COND_WAIT:
                if not all(isinstance(a, ir.Addr) for a in i.args[:2]):
                    return "condition wait through a pointer"
    return None


@dataclass(slots=True)
class FrameInfo:
    uid: int | None
    func: ir.Function
    ret_dst: ir.Reg | None
    stack_objs: dict | None


_UNKNOWN = object()


class WeakestPreconditions:
    """Weakest preconditions for one check: ``target`` is the checked
    assertion's instruction."""

    def __init__(self, engine, variables: Variables, target):
        self.E = engine
        self.X = variables
        self.T = translate.Translator(engine)
        self.values = engine.values
        self.pb = engine.ptr_bits
        self.target = target
        self.bails = 0
        self._regs: dict = {}
        self._translated: dict = {}
        self._made: dict = {}  # memory reads and writes at constant addresses

    # ------------------------------------------------------------------ helpers

    def _reg_ph(self, tid: int, depth: int, fi: FrameInfo):
        X, T = self.X, self.T

        def reg(r: ir.Reg):
            return X.reg(tid, depth, fi.func.name, r.name, T.bits(r.type))
        return reg

    def _stack_ph(self, tid: int, depth: int, fi: FrameInfo):
        names = {sv.name for sv in fi.func.stack}

        def stack(name: str):
            return self.X.stack(tid, depth, fi.func.name, name) if name in names else None
        return stack

    def _subst(self, phi, pairs):
        if isinstance(phi, bool) or not pairs:
            return phi
        V, Tm = self.values, self.values.terms
        out = []
        for a, b in pairs:
            if isinstance(b, bool):
                raise Bail("boolean for a bit-vector")
            if isinstance(b, int):
                n = Tm.bv_size(a.as_ast())
                b = V.const(b & ((1 << n) - 1), n)
            elif not Tm.same_sort(a.as_ast(), b.as_ast()):
                raise Bail("width mismatch")
            out.append((a, b))
        if type(phi) is not z3.BoolRef:
            return z3.substitute(phi, *out)
        return Tm.substitute(phi, out)

    def _load(self, addr: int, n: int):
        key = ("load", addr, n)
        hit = self._made.get(key)
        if hit is None:
            hit = self._made[key] = translate.load(self.X.memory, addr, n, self.values, self.pb)
        return hit

    def _store(self, addr: int, val, n: int):
        key = ("store", addr, n, val if isinstance(val, int) else val.get_id())
        hit = self._made.get(key)
        if hit is None:
            hit = self._made[key] = (translate.store(self.X.memory, addr, val, n, self.values, self.pb), val)
        return hit[0]

    def _tr(self, e, tid: int, depth: int, fi: FrameInfo, reg, stack, checks: list, cond: bool = False):
        """``T.expr`` (``T.cond`` if ``cond``) of ``e`` over the placeholders
        of the frame at ``depth`` of ``tid``, remembered: the same
        instruction is met on every run through it and the result depends
        only on these."""
        key = (id(e), cond, tid, depth, fi.func.name)
        hit = self._translated.get(key)
        if hit is None:
            got: list = []
            v = (self.T.cond if cond else self.T.expr)(e, reg, stack, got)
            hit = self._translated[key] = (v, tuple(got), e)  # e: keeps id(e) from being reused
        checks.extend(hit[1])
        return hit[0]

    def _registers(self, f: ir.Function) -> list:
        """``(name, bits)`` of every register ``f`` mentions."""
        hit = self._regs.get(f.name)
        if hit is None:
            names: dict = {p.name: p.type for p in f.params}
            for i in f.body:
                dst = getattr(i, "dst", None)
                if dst is not None:
                    names[dst.name] = dst.type
                for e in _exprs(i):
                    for r in _reg_nodes(e):
                        names[r.name] = r.type
            hit = self._regs[f.name] = [(n, self.T.bits(t)) for n, t in names.items()]
        return hit

    def _mentions(self, phi, terms) -> bool:
        """Does ``phi`` contain one of the constants ``terms``?"""
        if isinstance(phi, bool) or not terms:
            return False
        marks = [(t, z3.FreshConst(t.sort(), "probe")) for t in terms]
        return not z3.substitute(phi, *marks).eq(phi) if marks else False

    def _forget_frame(self, phi, tid: int, depth: int, f: ir.Function):
        """The frame of ``f`` at ``depth`` of ``tid`` did not exist before: its
        registers are unknown values; its stack objects cannot be described."""
        if isinstance(phi, bool):
            return phi
        X = self.X
        stack = [X.stack(tid, depth, f.name, sv.name) for sv in f.stack]
        if self._mentions(phi, stack):
            raise Bail("a new frame's stack object")
        pairs = [(X.reg(tid, depth, f.name, n, b), X.fresh(b)) for n, b in self._registers(f)]
        return self._subst(phi, pairs)

    # ------------------------------------------------------------------ pieces

    def effects_between(self, start: State, end: State) -> list:
        """The effects recorded from ``start`` to ``end`` (oldest first)."""
        out = []
        c = end.effects
        stop = start.effects
        while c is not None and c is not stop:
            out.append(c[0])
            c = c[1]
        if c is not stop:
            raise Bail("not a continuation")
        out.reverse()
        return out

    def through(self, start: State, end: State, phi):
        """``(precondition at start, accesses)`` of ``phi`` at ``end``; the
        precondition is ``False`` when the piece cannot be summarised."""
        if phi is False:
            return False, frozenset()
        try:
            effects = self.effects_between(start, end)
            ann = self._annotate(start, end, effects)
            acc: set = set()
            for item in reversed(ann):
                phi = self._back(item, phi, acc)
                if phi is False:
                    return False, frozenset()
            if not isinstance(phi, bool):
                phi = self.values.concrete(z3.simplify(phi))
            return phi, frozenset(acc)
        except (Bail, Untranslatable):
            self.bails += 1
            return False, frozenset()

    def error(self, st: State, tid: int | None, message: str):
        """The precondition at a run-time error's leaf: the inputs for which
        the failing instruction fails that way (so a summary covering them
        only hides occurrences of this very finding); ``False`` when that is
        not one check of the instruction with this message."""
        found = self._instruction(st, tid)
        if found is None:
            return False
        i, t, fi = found
        depth = len(t.frames) - 1
        reg, stack = self._reg_ph(t.tid, depth, fi), self._stack_ph(t.tid, depth, fi)
        checks: list = []
        try:
            for e in _exprs(i):
                self.T.expr(e, reg, stack, checks)
        except Untranslatable:
            return False
        same = [c for m, c in checks if m == message]
        if len(same) != 1 or len(checks) != len(same):
            return False
        return self.values.not_(same[0])

    def _instruction(self, st: State, tid: int | None):
        if tid is None or tid >= len(st.threads) or not st.threads[tid].frames:
            return None
        t = st.threads[tid]
        f = t.frames[-1]
        if f.pc >= len(f.func.body):
            return None
        return f.func.body[f.pc], t, FrameInfo(f.uid, f.func, f.ret_dst, f.stack_objs)

    def leaf(self, kind: str, st: State, tid: int | None):
        """The precondition at a run's last state: a failed assume (the run is
        infeasible) or another assertion failing (the run stops) needs that
        condition false; ``kind`` is ``"infeasible"`` or ``"stopped"``."""
        if tid is None or tid >= len(st.threads) or not st.threads[tid].frames:
            return False
        t = st.threads[tid]
        f = t.frames[-1]
        if f.pc >= len(f.func.body):
            return False
        i = f.func.body[f.pc]
        want = Op.ASSUME if kind == "infeasible" else Op.ASSERT
        if not (isinstance(i, Intrinsic) and i.op is want and i.args) or i is self.target:
            return False
        depth = len(t.frames) - 1
        fi = FrameInfo(f.uid, f.func, f.ret_dst, f.stack_objs)
        checks: list = []
        try:
            c = self.T.cond(i.args[0], self._reg_ph(tid, depth, fi), self._stack_ph(tid, depth, fi), checks)
        except Untranslatable:
            return False
        return self.values.and_(*translate.conds(checks), self.values.not_(c))

    # ------------------------------------------------------------------ forward: where each effect ran

    def _annotate(self, start: State, end: State, effects: list) -> list:
        E = self.E
        stacks: dict[int, list[FrameInfo]] = {}
        for t in start.threads:
            stacks[t.tid] = [FrameInfo(f.uid, f.func, f.ret_dst, f.stack_objs) for f in t.frames]
        start_regs = {}
        for t in start.threads:
            for d, f in enumerate(t.frames):
                start_regs[(t.tid, d)] = (f.uid, f.regs)
        end_frames = {f.uid: f for t in end.threads for f in t.frames}
        nthreads = len(start.threads)
        overlay: dict = {}
        out = []
        for eff in effects:
            tid = eff.tid
            stk = stacks.setdefault(tid, [])
            depth = self._depth(stk, eff.frame, end_frames)
            fi = stk[depth]
            i = eff.instr

            def reg(r, tid=tid, depth=depth, fi=fi):
                v = overlay.get((tid, depth, fi.func.name, r.name))
                if v is None:
                    uid, regs = start_regs.get((tid, depth), (None, None))
                    v = regs.get(r.name) if uid is not None and uid == fi.uid else None
                if v is None or v is _UNKNOWN:
                    raise Untranslatable("register value not recorded")
                return v

            def stack(name, fi=fi):
                if fi.stack_objs is not None and name in fi.stack_objs:
                    return E.layout.make(fi.stack_objs[name])
                if any(sv.name == name for sv in fi.func.stack):
                    raise Untranslatable("stack object of an unknown frame")
                return None

            def value(e):
                try:
                    v = self.T.expr(e, reg, stack, [])
                except Untranslatable:
                    return None
                v = self.values.simplified(v)
                return v if isinstance(v, int) else None

            extra = None
            if isinstance(i, ir.Call):
                callee = i.callee
                if not (isinstance(callee, ir.Addr) and callee.kind is ir.ObjKind.FUNCTION):
                    raise Bail("indirect call")
                f = E.program.function(callee.name)
                if f is None:
                    raise Bail("call without body")
                extra = f
                stk.append(FrameInfo(None, f, i.dst, None))
                for p, v in zip(f.params, eff.value or ()):
                    overlay[(tid, depth + 1, f.name, p.name)] = v
            elif isinstance(i, ir.Return) or i is None:
                extra = stk[depth - 1] if depth > 0 else None
                if extra is not None and fi.ret_dst is not None:
                    overlay[(tid, depth - 1, extra.func.name, fi.ret_dst.name)] = (
                        eff.value if eff.value is not None else _UNKNOWN)
                del stk[depth:]
            elif isinstance(i, Intrinsic):
                op = i.op
                if op is Op.THREAD_CREATE:
                    routine = i.args[2]
                    if not (isinstance(routine, ir.Addr) and routine.kind is ir.ObjKind.FUNCTION):
                        raise Bail("thread routine through a pointer")
                    rf = E.program.function(routine.name)
                    new = nthreads
                    nthreads += 1
                    stacks[new] = [FrameInfo(None, rf, None, None)]
                    arg = value(i.args[3]) if len(i.args) > 3 else 0
                    if rf.params:
                        ab = self.T.bits(i.args[3].type) if len(i.args) > 3 else self.pb
                        overlay[(new, 0, rf.name, rf.params[0].name)] = (
                            self.values.convert(arg, ab, self.T.bits(rf.params[0].type), False)
                            if arg is not None else _UNKNOWN)
                    extra = (new, value(i.args[0]), rf)
                elif op is Op.THREAD_JOIN:
                    extra = value(i.args[0])
                elif op in _SYNC_OBJECT_OPS:
                    extra = tuple(value(a) for a in i.args)
                if i.dst is not None:
                    v = eff.value if eff.value is not None else 0
                    overlay[(tid, depth, fi.func.name, i.dst.name)] = v
            elif isinstance(i, (ir.Assign, ir.Load)):
                overlay[(tid, depth, fi.func.name, i.dst.name)] = eff.value
            out.append((eff, depth, fi, extra))
        return out

    @staticmethod
    def _depth(stk: list, uid: int, end_frames: dict) -> int:
        for d in range(len(stk) - 1, -1, -1):
            if stk[d].uid == uid:
                return d
        for d in range(len(stk) - 1, -1, -1):
            if stk[d].uid is None:
                fi = stk[d]
                fi.uid = uid
                f = end_frames.get(uid)
                if f is not None:
                    fi.stack_objs = f.stack_objs
                return d
        raise Bail("frame not found")

    # ------------------------------------------------------------------ backward: the transformer of one effect

    def _back(self, item, phi, acc: set):
        eff, depth, fi, extra = item
        V, T, X, pb = self.values, self.T, self.X, self.pb
        tid = eff.tid
        i = eff.instr
        reg = self._reg_ph(tid, depth, fi)
        stack = self._stack_ph(tid, depth, fi)
        checks: list = []
        t = type(i)
        if t is ir.Assign:
            v = self._tr(i.expr, tid, depth, fi, reg, stack, checks)
            phi = self._subst(phi, [(reg(i.dst), v)])
            return V.and_(*translate.conds(checks), phi)
        if t is ir.Load or t is ir.Store:
            a = self._tr(i.addr, tid, depth, fi, reg, stack, checks)
            conc = eff.addr
            if not isinstance(conc, int):
                raise Bail("symbolic address")
            n = ir.type_size(i.type)
            guard = V.eq(a, conc, pb)
            if t is ir.Load:
                acc.add((conc, n, False))
                phi = self._subst(phi, [(reg(i.dst), self._load(conc, n))])
            else:
                acc.add((conc, n, True))
                val = self._tr(i.value, tid, depth, fi, reg, stack, checks)
                phi = self._subst(phi, [(X.memory, self._store(conc, val, n))])
            return V.and_(*translate.conds(checks), guard, phi)
        if t is ir.Branch:
            c = self._tr(i.cond, tid, depth, fi, reg, stack, checks, cond=True)
            return V.and_(*translate.conds(checks), c if eff.outcome else V.not_(c), phi)
        if t is ir.Jump:
            return phi
        if t is ir.Call:
            f = extra
            pairs = []
            for k, a in enumerate(i.args):
                v = self._tr(a, tid, depth, fi, reg, stack, checks)
                if k < len(f.params):
                    p = f.params[k]
                    if a.type != p.type and ir.is_scalar(p.type):
                        v = V.convert(v, T.bits(a.type), T.bits(p.type), is_signed(a.type))
                    pairs.append((X.reg(tid, depth + 1, f.name, p.name, T.bits(p.type)), v))
            phi = self._subst(phi, pairs)
            phi = self._forget_frame(phi, tid, depth + 1, f)
            return V.and_(*translate.conds(checks), phi)
        if t is ir.Return or i is None:
            caller = extra
            v = None
            if i is not None and i.value is not None:
                v = self._tr(i.value, tid, depth, fi, reg, stack, checks)
            if caller is not None and fi.ret_dst is not None:
                rb = T.bits(fi.ret_dst.type)
                dst = X.reg(tid, depth - 1, caller.func.name, fi.ret_dst.name, rb)
                if v is None:
                    v = X.reg(tid, depth - 1, caller.func.name, f"{fi.func.name}()", rb)
                phi = self._subst(phi, [(dst, v)])
            return V.and_(*translate.conds(checks), phi)
        if t is Intrinsic:
            return self._intrinsic(i, eff, depth, fi, extra, phi, reg, stack, checks)
        raise Bail(f"instruction {t.__name__}")

    def _intrinsic(self, i, eff, depth, fi, extra, phi, reg, stack, checks):
        V, T, X, pb = self.values, self.T, self.X, self.pb
        tid = eff.tid
        op = i.op
        dst = reg(i.dst) if i.dst is not None else None
        if op is Op.ASSERT:
            # another assertion failing does not end the run on the spot: after
            # the block's global operation the engine defers the failure to the
            # thread's next step, and other threads may violate the target
            # first; so it must hold, like the target (its failing side is
            # summarised where it leads)
            c = self._tr(i.args[0], tid, depth, fi, reg, stack, checks, cond=True) if i.args else False
            return V.and_(*translate.conds(checks), c, phi)
        if op is Op.ASSUME:
            if not i.args:
                return phi
            c = self._tr(i.args[0], tid, depth, fi, reg, stack, checks, cond=True)
            return V.and_(*translate.conds(checks), V.or_(V.not_(c), phi))
        if op in (Op.NONDET, Op.EXTERNAL):
            if op is Op.EXTERNAL:
                if writes_memory(i.name) and any(isinstance(a.type, PtrType) for a in i.args):
                    raise Bail(f"{i.name} may write memory")
                for a in i.args:
                    self._tr(a, tid, depth, fi, reg, stack, checks)
            if dst is not None:
                phi = self._subst(phi, [(dst, X.fresh(dst.size()))])
            return V.and_(*translate.conds(checks), phi)
        if op in (Op.MALLOC, Op.CALLOC, Op.ALLOCA):
            if dst is not None and self._mentions(phi, [dst]):
                raise Bail("fresh memory")
            return phi
        if op is Op.FREE:
            self._tr(i.args[0], tid, depth, fi, reg, stack, checks)
            return V.and_(*translate.conds(checks), phi)
        if op in _UNMODELLED:
            raise Bail(op.value)
        if op is Op.THREAD_SELF:
            if dst is not None:
                phi = self._subst(phi, [(dst, tid)])
            return phi
        if op is Op.THREAD_CREATE:
            new, handle, rf = extra
            if handle is None:
                raise Bail("thread handle address unknown")
            h = self._tr(i.args[0], tid, depth, fi, reg, stack, checks)
            ht = i.args[0].type.pointee if isinstance(i.args[0].type, PtrType) else None
            hsize = ht.size if isinstance(ht, (ir.IntType, PtrType)) else pb // 8
            pairs = [(X.memory, translate.store(X.memory, handle, new, hsize, V, pb))]
            if rf.params:
                p0 = rf.params[0]
                arg = self._tr(i.args[3], tid, depth, fi, reg, stack, checks) if len(i.args) > 3 else 0
                ab = T.bits(i.args[3].type) if len(i.args) > 3 else pb
                pairs.append((X.reg(new, 0, rf.name, p0.name, T.bits(p0.type)),
                              V.convert(arg, ab, T.bits(p0.type), False)))
            if dst is not None:
                pairs.append((dst, 0))
            phi = self._subst(phi, pairs)
            phi = self._forget_frame(phi, new, 0, rf)
            acc_guard = V.eq(h, handle, pb)
            return V.and_(*translate.conds(checks), acc_guard, phi)
        if op is Op.THREAD_JOIN:
            if len(i.args) > 1 and not _null(i.args[1]):
                raise Bail("join storing the result")
            h = self._tr(i.args[0], tid, depth, fi, reg, stack, checks)
            if extra is None:
                raise Bail("joined thread unknown")
            guard = V.eq(h, extra, T.bits(i.args[0].type))
            if dst is not None:
                phi = self._subst(phi, [(dst, 0)])
            return V.and_(*translate.conds(checks), guard, phi)
        if op in _SYNC_OBJECT_OPS or op is Op.COND_WAIT:
            guards = []
            if op is not Op.COND_WAIT:
                for k, a in enumerate(i.args):
                    if k > 0 and not (k == 2 and op in (Op.BARRIER_INIT, Op.SEM_INIT)):
                        continue  # an attribute, a deadline: the engine ignores them
                    v = self._tr(a, tid, depth, fi, reg, stack, checks)
                    if isinstance(v, int):
                        continue
                    conc = extra[k] if extra is not None and k < len(extra) else None
                    if conc is None:
                        raise Bail("synchronization operand unknown")
                    guards.append(V.eq(v, conc, T.bits(a.type)))
            if dst is not None:
                res = eff.value if eff.value is not None else 0
                if op is Op.MUTEX_TRYLOCK and res not in (0, EBUSY):
                    raise Bail("trylock result")
                phi = self._subst(phi, [(dst, res)])
            return V.and_(*translate.conds(checks), *guards, phi)
        if op in (Op.ATOMIC_BEGIN, Op.ATOMIC_END):
            return phi
        raise Bail(f"operation {op.value}")


def _exprs(i) -> list:
    out = []
    for name in ("expr", "addr", "value", "cond", "callee"):
        e = getattr(i, name, None)
        if e is not None and not isinstance(e, (bool, int)):
            out.append(e)
    out.extend(getattr(i, "args", ()))
    return out


def _reg_nodes(e) -> list:
    out = []
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, ir.Reg):
            out.append(x)
        elif isinstance(x, (ir.Unary, ir.Cast)):
            stack.append(x.arg)
        elif isinstance(x, (ir.Binary, ir.PtrDiff)):
            stack.extend((x.left, x.right))
        elif isinstance(x, ir.PtrAdd):
            stack.extend((x.ptr, x.offset))
        elif isinstance(x, ir.Ite):
            stack.extend((x.cond, x.then, x.other))
    return out


def _null(e) -> bool:
    while isinstance(e, ir.Cast):
        e = e.arg
    return isinstance(e, ir.Const) and e.value == 0


__all__ = ["WeakestPreconditions", "Bail", "unsupported_reason", "cons_list", "bits_of", "MEMORY"]
