"""Weakest preconditions along explored runs (assertion-guided paper, §4,
Definition 1), over program variables.

:meth:`WeakestPreconditions.through` takes a formula ``phi`` about the state
at the end of a piece of a run (between two nodes of the explorer, or a node
and a leaf) and returns the condition on the state at its start under which
executing the same instructions -- the same branch outcomes, schedule and
addresses -- keeps the run alive without a run-time error and ends in a state
satisfying ``phi``. It is defined by the recorded
:class:`~distaff.analysis.symex.state.Effect` s read backwards (computed by
a forward walk that yields the same formula, see :meth:`through`):

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


# simplified preconditions remembered before the memo starts afresh
SIMPLIFIED_LIMIT = 20_000

_UNKNOWN = object()
_AND, _ASSUME = "and", "assume"


class _Walk:
    """A piece walked forwards: ``sub`` maps a placeholder (by ``id``) to
    ``(placeholder, value over the piece's start)`` once a step has written
    it; ``items`` are the conditions met, over the start, oldest first:
    ``(_AND, conditions)`` that must hold, ``(_ASSUME, c)`` past which only
    runs with ``c`` go on; ``probes`` are values the precondition must not
    mention (fresh memory's address, a new frame's stack objects, a value of
    another sort than its register); ``dead``: a condition is false outside
    any assumption, so the precondition is."""

    __slots__ = ("sub", "items", "probes", "assumed", "dead")

    def __init__(self):
        self.sub: dict = {}
        self.items: list = []
        self.probes: list = []
        self.assumed = False
        self.dead = False

    def need(self, conds: list) -> None:
        if not conds:
            return
        if not self.assumed and any(c is False for c in conds):
            self.dead = True
        self.items.append((_AND, conds))


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
        self._simplified: dict = {}  # term id -> (term, simplified)
        self.simplify_hits = 0
        self._made: dict = {}  # memory reads and writes at constant addresses, over the placeholders

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

    def _set(self, w: _Walk, place, value) -> None:
        """After this step ``place`` holds ``value`` (over the piece's start).
        A value of another sort becomes a probe: the precondition cannot
        describe it, so it must not be needed."""
        V, Tm = self.values, self.values.terms
        if isinstance(value, int) and not isinstance(value, bool):
            n = Tm.bv_size(place.as_ast())
            value = V.const(value & ((1 << n) - 1), n)
        elif isinstance(value, bool) or not Tm.same_sort(place.as_ast(), value.as_ast()):
            value = self._probe(w, place)
        w.sub[id(place)] = (place, value)

    @staticmethod
    def _probe(w: _Walk, place):
        """A value the precondition must not mention, of ``place``'s sort."""
        p = z3.FreshConst(place.sort(), "probe")
        w.probes.append(p)
        return p

    def _now(self, w: _Walk, term, places):
        """``term`` (over the placeholders ``places``) over the piece's start."""
        if not w.sub or isinstance(term, (bool, int)):
            return term
        pairs = [hit for p in places if (hit := w.sub.get(id(p))) is not None]
        return self.values.terms.substitute(term, pairs) if pairs else term

    def _load(self, w: _Walk, addr: int, n: int):
        key = ("load", addr, n)
        hit = self._made.get(key)
        if hit is None:
            hit = self._made[key] = translate.load(self.X.memory, addr, n, self.values, self.pb)
        return self._now(w, hit, (self.X.memory,))

    def _store(self, w: _Walk, addr: int, n: int, raw, places=()) -> None:
        """Memory after storing ``raw`` (a value over the placeholders
        ``places``) at ``addr``; the store's term over the placeholders is
        remembered (making it through z3's API costs more than substituting
        into it)."""
        M = self.X.memory
        key = ("store", addr, n, raw if isinstance(raw, int) else raw.get_id())
        hit = self._made.get(key)
        if hit is None:
            hit = self._made[key] = (translate.store(M, addr, raw, n, self.values, self.pb), raw)
        w.sub[id(M)] = (M, self._now(w, hit[0], places + (M,)))

    def _translation(self, e, tid: int, depth: int, fi: FrameInfo, reg, stack, cond: bool = False):
        """``(term, checks, placeholders in them)`` of ``T.expr`` (``T.cond``
        if ``cond``) of ``e`` over the placeholders of the frame at ``depth``
        of ``tid``, remembered: the same instruction is met on every run
        through it and the result depends only on these."""
        key = (id(e), cond, tid, depth, fi.func.name)
        hit = self._translated.get(key)
        if hit is None:
            got: list = []
            places: dict = {}

            def reg_seen(r):
                v = reg(r)
                places[id(v)] = v
                return v

            def stack_seen(name):
                v = stack(name)
                if v is not None:
                    places[id(v)] = v
                return v
            v = (self.T.cond if cond else self.T.expr)(e, reg_seen, stack_seen, got)
            # e: keeps id(e) from being reused
            hit = self._translated[key] = (v, tuple(got), tuple(places.values()), e)
        return hit[:3]

    def _tr(self, w: _Walk, e, tid: int, depth: int, fi: FrameInfo, reg, stack, checks: list,
            cond: bool = False):
        """The translation of ``e`` over the piece's start, its checks added
        to ``checks``."""
        v, got, places = self._translation(e, tid, depth, fi, reg, stack, cond)
        self._checks_now(w, got, places, checks)
        return self._now(w, v, places)

    def _checks_now(self, w: _Walk, got, places, checks: list) -> None:
        """Add a translation's checks ``got`` (over ``places``) to ``checks``, over the start."""
        checks.extend((m, self._now(w, c, places)) for m, c in got)

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

    @staticmethod
    def _mentions(phi, terms) -> bool:
        """Does ``phi`` contain one of the constants ``terms``?"""
        if isinstance(phi, bool) or not terms:
            return False
        marks = [(t, z3.FreshConst(t.sort(), "probe")) for t in terms]
        return not z3.substitute(phi, *marks).eq(phi)

    def _forget_frame(self, w: _Walk, tid: int, depth: int, f: ir.Function) -> None:
        """The frame of ``f`` at ``depth`` of ``tid`` is new: its registers
        hold unknown values; its stack objects cannot be described."""
        X = self.X
        for sv in f.stack:
            place = X.stack(tid, depth, f.name, sv.name)
            w.sub[id(place)] = (place, self._probe(w, place))
        for n, b in self._registers(f):
            place = X.reg(tid, depth, f.name, n, b)
            w.sub[id(place)] = (place, X.fresh(b))

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
        precondition is ``False`` when the piece cannot be summarised.

        The piece is walked forwards, each placeholder mapped to its value
        over the start, so a step costs what its own instruction's terms
        cost; substituting backwards into the growing precondition, as
        Definition 1 reads, costs the precondition's size at every step (a
        loop of n steps, n squared). The result is the same formula."""
        if phi is False:
            return False, frozenset()
        try:
            effects = self.effects_between(start, end)
            ann = self._annotate(start, end, effects)
            acc: set = set()
            w = _Walk()
            for item in ann:
                self._step(item, w, acc)
                if w.dead:
                    return False, frozenset()
            phi = self._close(w, phi)
            if phi is False:
                return False, frozenset()
            if not isinstance(phi, bool):
                phi = self._simplify(phi)
            return phi, frozenset(acc)
        except (Bail, Untranslatable):
            self.bails += 1
            return False, frozenset()

    def _simplify(self, phi):
        """``phi`` simplified, as a constant when it becomes one. Remembered
        by the term (z3's terms are shared, so an equal formula is the same
        term): pieces of different runs through the same code give the same
        preconditions again and again. ``simplify_hits`` counts reuses."""
        key = phi.get_id()
        hit = self._simplified.get(key)
        if hit is not None:
            self.simplify_hits += 1
            return hit[1]
        if len(self._simplified) >= SIMPLIFIED_LIMIT:
            self._simplified.clear()
        # phi is kept with its result: a live term's id is not reused
        self._simplified[key] = (phi, got := self.values.concrete(z3.simplify(phi)))
        return got

    def _close(self, w: _Walk, phi):
        """``phi`` at the piece's end, under the conditions met on the way,
        over the piece's start."""
        V = self.values
        if not isinstance(phi, bool) and w.sub:
            phi = self.values.terms.substitute(phi, list(w.sub.values()))
        for kind, cs in reversed(w.items):
            phi = V.and_(*cs, phi) if kind is _AND else V.or_(V.not_(cs), phi)
        if w.probes and self._mentions(phi, w.probes):
            raise Bail("a value the run cannot describe")
        return phi

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

    def _step(self, item, w: _Walk, acc: set) -> None:
        eff, depth, fi, extra = item
        V, X, pb = self.values, self.X, self.pb
        tid = eff.tid
        i = eff.instr
        reg = self._reg_ph(tid, depth, fi)
        stack = self._stack_ph(tid, depth, fi)
        checks: list = []
        t = type(i)
        if t is ir.Assign:
            v = self._tr(w, i.expr, tid, depth, fi, reg, stack, checks)
            self._set(w, reg(i.dst), v)
            w.need(translate.conds(checks))
        elif t is ir.Load or t is ir.Store:
            a = self._tr(w, i.addr, tid, depth, fi, reg, stack, checks)
            conc = eff.addr
            if not isinstance(conc, int):
                raise Bail("symbolic address")
            n = ir.type_size(i.type)
            guard = V.eq(a, conc, pb)
            if t is ir.Load:
                acc.add((conc, n, False))
                self._set(w, reg(i.dst), self._load(w, conc, n))
            else:
                acc.add((conc, n, True))
                raw, got, places = self._translation(i.value, tid, depth, fi, reg, stack)
                self._checks_now(w, got, places, checks)
                if eff.outcome is True:
                    # the runs below were reduced with this store as a read: they stand
                    # for a state only where it stores what the memory holds
                    checks.append(("silent store", V.eq(self._load(w, conc, n), self._now(w, raw, places), 8 * n)))
                self._store(w, conc, n, raw, places)
            w.need(translate.conds(checks) + [guard])
        elif t is ir.Branch:
            c = self._tr(w, i.cond, tid, depth, fi, reg, stack, checks, cond=True)
            w.need(translate.conds(checks) + [c if eff.outcome else V.not_(c)])
        elif t is ir.Jump:
            pass
        elif t is ir.Call:
            f = extra
            pairs = []
            for k, a in enumerate(i.args):
                v = self._tr(w, a, tid, depth, fi, reg, stack, checks)
                if k < len(f.params):
                    p = f.params[k]
                    if a.type != p.type and ir.is_scalar(p.type):
                        v = V.convert(v, self.T.bits(a.type), self.T.bits(p.type), is_signed(a.type))
                    pairs.append((X.reg(tid, depth + 1, f.name, p.name, self.T.bits(p.type)), v))
            self._forget_frame(w, tid, depth + 1, f)
            for place, v in pairs:
                self._set(w, place, v)
            w.need(translate.conds(checks))
        elif t is ir.Return or i is None:
            caller = extra
            v = None
            if i is not None and i.value is not None:
                v = self._tr(w, i.value, tid, depth, fi, reg, stack, checks)
            if caller is not None and fi.ret_dst is not None:
                rb = self.T.bits(fi.ret_dst.type)
                dst = X.reg(tid, depth - 1, caller.func.name, fi.ret_dst.name, rb)
                if v is None:
                    unknown = X.reg(tid, depth - 1, caller.func.name, f"{fi.func.name}()", rb)
                    v = self._now(w, unknown, (unknown,))
                self._set(w, dst, v)
            w.need(translate.conds(checks))
        elif t is Intrinsic:
            self._intrinsic(i, eff, depth, fi, extra, w, reg, stack, checks)
        else:
            raise Bail(f"instruction {t.__name__}")

    def _intrinsic(self, i, eff, depth, fi, extra, w: _Walk, reg, stack, checks):
        V, T, X, pb = self.values, self.T, self.X, self.pb
        tid = eff.tid
        op = i.op
        dst = reg(i.dst) if i.dst is not None else None

        def tr(e, cond=False):
            return self._tr(w, e, tid, depth, fi, reg, stack, checks, cond)
        if op is Op.ASSERT:
            # another assertion failing does not end the run on the spot: after
            # the block's global operation the engine defers the failure to the
            # thread's next step, and other threads may violate the target
            # first; so it must hold, like the target (its failing side is
            # summarised where it leads)
            c = tr(i.args[0], cond=True) if i.args else False
            w.need(translate.conds(checks) + [c])
        elif op is Op.ASSUME:
            if i.args:
                c = tr(i.args[0], cond=True)
                w.need(translate.conds(checks))
                w.items.append((_ASSUME, c))
                w.assumed = True
        elif op in (Op.NONDET, Op.EXTERNAL):
            if op is Op.EXTERNAL:
                if writes_memory(i.name) and any(isinstance(a.type, PtrType) for a in i.args):
                    raise Bail(f"{i.name} may write memory")
                for a in i.args:
                    tr(a)
            if dst is not None:
                self._set(w, dst, X.fresh(dst.size()))
            w.need(translate.conds(checks))
        elif op in (Op.MALLOC, Op.CALLOC, Op.ALLOCA):
            if dst is not None:  # fresh memory: its address cannot be described
                w.sub[id(dst)] = (dst, self._probe(w, dst))
        elif op is Op.FREE:
            tr(i.args[0])
            w.need(translate.conds(checks))
        elif op in _UNMODELLED:
            raise Bail(op.value)
        elif op is Op.THREAD_SELF:
            if dst is not None:
                self._set(w, dst, tid)
        elif op is Op.THREAD_CREATE:
            new, handle, rf = extra
            if handle is None:
                raise Bail("thread handle address unknown")
            h = tr(i.args[0])
            ht = i.args[0].type.pointee if isinstance(i.args[0].type, PtrType) else None
            hsize = ht.size if isinstance(ht, (ir.IntType, PtrType)) else pb // 8
            pairs = []
            if rf.params:
                p0 = rf.params[0]
                arg = tr(i.args[3]) if len(i.args) > 3 else 0
                ab = T.bits(i.args[3].type) if len(i.args) > 3 else pb
                pairs.append((X.reg(new, 0, rf.name, p0.name, T.bits(p0.type)),
                              V.convert(arg, ab, T.bits(p0.type), False)))
            if dst is not None:
                pairs.append((dst, 0))
            self._store(w, handle, hsize, new)
            self._forget_frame(w, new, 0, rf)
            for place, v in pairs:
                self._set(w, place, v)
            w.need(translate.conds(checks) + [V.eq(h, handle, pb)])
        elif op is Op.THREAD_JOIN:
            if len(i.args) > 1 and not _null(i.args[1]):
                raise Bail("join storing the result")
            h = tr(i.args[0])
            if extra is None:
                raise Bail("joined thread unknown")
            guard = V.eq(h, extra, T.bits(i.args[0].type))
            if dst is not None:
                self._set(w, dst, 0)
            w.need(translate.conds(checks) + [guard])
        elif op in _SYNC_OBJECT_OPS or op is Op.COND_WAIT:
            guards = []
            if op is not Op.COND_WAIT:
                for k, a in enumerate(i.args):
                    if k > 0 and not (k == 2 and op in (Op.BARRIER_INIT, Op.SEM_INIT)):
                        continue  # an attribute, a deadline: the engine ignores them
                    v = tr(a)
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
                self._set(w, dst, res)
            w.need(translate.conds(checks) + guards)
        elif op in (Op.ATOMIC_BEGIN, Op.ATOMIC_END, Op.FENCE):
            pass
        else:
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
