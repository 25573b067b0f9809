"""Context-specific must-reaching definitions, for registers and memory.

The arbitrary-context paper (§2.3, §3.3, §4.4) initialises the state at a
program context from the definitions that *must* reach it along every path
from program entry. We compute them by a forward walk over the
interprocedural control-flow graph from ``main`` to the context's pcs:

* A fact (:class:`Env`) maps registers and tracked memory cells to terms
  (:mod:`distaff.analysis.context.terms`). An assignment ``r := e`` defines ``r`` as
  ``e`` evaluated in the fact, so ``r1 := r2 + 5`` with ``r2`` known as
  ``x`` gives ``r1 = x + 5``: relations between values survive even when
  the values are unknown.
* Where paths with different definitions of a register join, the register
  gets a fresh *join symbol* (named after the register and the join
  point), so later definitions can still refer to it (``y`` and ``y + 1``).
  A value that mentions a symbol introduced on a cycle through the join
  point is stale there (it may describe an earlier iteration) and is
  replaced by the join symbol too; this keeps every term's meaning "as of
  the latest visit" of the points it mentions.
* Memory cells (object, offset, size) are tracked when their object is
  known: globals, stack objects of the frames walked, heap blocks
  *materialised* because they are allocated exactly once before the
  context. Which cells survive once other threads run (§4.4): a cell is
  kept only when its object is *conflict-free* (:mod:`.conflicts`), *quiet*
  at this context (no write that may precede the context writes it), owned
  by the thread walked (only its own code before its position may have
  written it) or thread-local (the escape analysis says no other thread
  reaches it).
  Stores through unknown pointers kill the cells points-to says they may
  write. Reads of untracked memory give fresh symbols.
* Calls are walked inline (context-sensitive, up to :data:`MAX_DEPTH`
  nested calls; recursion falls back to "kills everything it may write, a
  fresh result, any lock"). The lockset part of the fact
  (:mod:`distaff.analysis.context.locksets`) is composed from the callee's
  relative locksets at the call: its function summary for that call.

:class:`Walker` walks ``main`` once (observing, at every
``pthread_create``, the creator's fact: a new thread's entry fact and its
argument; at every ``pthread_barrier_init`` its object and count), then
each context thread from its routine's entry down its call chain to its
pc. A thread's entry fact is the creator's fact with only conflict-free
cells kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from distaff.analysis import ir
from distaff.analysis.context import assumed
from distaff.analysis.context.conflicts import Quiet, concurrent_code, conflict_free
from distaff.analysis.context.stored import settled_origins
from distaff.analysis.context.locksets import ANY, TOP, LockState
from distaff.analysis.context.terms import ObjRef, Sym, address_parts, fold, leaves, substitute
from distaff.analysis.context.threads import ThreadStart, cyclic_pcs
from distaff.analysis.ir import (
    Addr, Assign, Branch, Call, Const, Intrinsic, IntType, Jump, Load, ObjKind, Op, PtrType, Reg, Return,
    Store, type_size,
)
from distaff.analysis.static import access
from distaff.analysis.static.facts import Facts
from distaff.analysis.static.fixpoint import components
from distaff.analysis.static.pointsto import ObjectKind

MAX_DEPTH = 6
_ABS = ("abs", "labs", "llabs")
MAX_PASSES = 40  # visits per pc before a walk gives up on precision (never seen in practice)


@dataclass
class Env:
    """A must-reaching fact. ``regs``: register -> term (absent: the value on
    entry of the frame). ``cells``: ``(base, offset, size)`` -> term, where
    ``base`` is ``("g", global name)`` or ``("o", ObjRef key)``. ``clean``:
    bases whose cells not in ``cells`` still hold their static initial value
    (globals before anything wrote them). ``concurrent``: some thread may
    have been created on the way here. ``facts``: conditions that hold on
    every path here, as ``(term, truth)`` (:mod:`.assumed`)."""

    regs: dict
    cells: dict
    clean: frozenset
    locks: LockState
    concurrent: bool
    facts: frozenset = frozenset()

    def copy(self) -> "Env":
        return Env(dict(self.regs), dict(self.cells), self.clean, self.locks, self.concurrent, self.facts)

    def same(self, other: "Env | None") -> bool:
        return other is not None and self.regs == other.regs and self.cells == other.cells and \
            self.clean == other.clean and self.locks == other.locks and self.concurrent == other.concurrent \
            and self.facts == other.facts

    def knowing(self, term, truth: bool) -> "Env":
        """This fact with one more condition known (the same when it is full)."""
        if (term, truth) in self.facts or len(self.facts) >= assumed.MAX_FACTS:
            return self
        out = self.copy()
        out.facts = self.facts | {(term, truth)}
        return out


@dataclass
class Activation:
    """One walk of a function: the fact before each pc (None: unreachable),
    the fact after its returns joined (None: it never returns), and the
    returned value's term."""

    frame: str
    func: ir.Function
    env_in: list
    exit: Env | None
    ret: object = None


@dataclass
class Observed:
    """What the walk of ``main`` saw: the fact before each thread creation
    (keyed by its ``(function, pc)``) and the barriers initialised, as
    ``(address term, count term)`` pairs."""

    creates: dict = field(default_factory=dict)
    create_frames: dict = field(default_factory=dict)  # (function, pc) -> the frame it was walked in
    barrier_inits: list = field(default_factory=list)
    materialised: dict = field(default_factory=dict)  # ObjRef key -> (size term, zeroed, span, label)


class Walker:
    """See the module docstring. One walker per (program, context)."""

    def __init__(self, program: ir.Program, facts: Facts, reaching_defs: bool = True):
        self.rd = reaching_defs
        self.program = program
        self.facts = facts
        self.pts = facts.points_to
        self.ptr_bytes = program.data_model.pointer_bits // 8
        self.ptr_type = PtrType(ir.VoidType(), program.data_model.pointer_bits)
        self._objects = object_index(self.pts)
        self._sccs: dict[str, dict[int, int]] = {}
        self._cyclic: dict[str, frozenset[int]] = {}
        self.concurrent_funcs, self.concurrent_main = concurrent_code(program, facts)
        self.conflict_free = conflict_free(program, facts, self.concurrent_funcs, self.concurrent_main)
        # objects no write before this context can have changed, and those only
        # one context thread's own code may have (set by the plan)
        self.quiet = Quiet()
        self.walking: int | None = None  # the given thread being walked (its index)
        self.observed = Observed()
        self._observing = False
        self._per_thread = True
        self.decider = assumed.Decider()
        self._once: frozenset | None = None  # origins of settled symbols (:func:`.stored.settled_origins`)

    # ------------------------------------------------------------------
    # the walks a context needs

    def main_entry(self) -> Env:
        """``main`` about to run: every global at its static initial value."""
        clean = frozenset(("g", g.name) for g in self.program.globals) if self.rd else frozenset()
        return Env({}, {}, clean, LockState(), False)

    def walk_main(self) -> Activation | None:
        """Walk ``main`` (shared symbols), observing creations and barrier inits."""
        main = self.program.function(self.program.entry)
        if main is None:
            return None
        self._per_thread = False
        act = self.walk(main.name, self.main_entry(), main.name, True, 0, (main.name,), observe=True)
        self._per_thread = True
        return act

    def thread_entry(self, routine: str) -> Env:
        """The fact at the entry of a thread of ``routine``: what its creators
        knew, with only the cells that stay valid while threads run; the
        parameters are symbols ``<param>@<routine>`` that the initial state
        binds to each instance's argument."""
        if routine == self.program.entry:
            return self.main_entry()
        envs = [e for (func, pc), e in self.observed.creates.items()
                if routine in self.facts.calls.routines_at(func, pc)]
        if not envs:
            envs = list(self.observed.creates.values())
        base = _join_all(envs, self, ("entry", routine), frozenset()) if envs else None
        if base is None:
            base = Env({}, {}, frozenset(), LockState(), True)
        env = self.concurrent_view(base)
        f = self.program.function(routine)
        regs = {}
        for p in (f.params if f else ()):
            regs[p.name] = Sym(param_symbol(routine, p.name), p.type, (routine, -1), True)
        if not self.rd:
            return Env(regs, {}, frozenset(), LockState(), True)
        return Env(regs, env.cells, env.clean, LockState(), True)

    def walk_thread(self, start: ThreadStart) -> list[tuple[Env | None, Activation | None]]:
        """For each frame of a context thread (outermost first): the fact
        before its pc and the walk of its function (None, None for a frame
        no path reaches)."""
        routine = start.routine
        self._per_thread = routine != self.program.entry
        if not start.full_stack:
            # no unique chain: the innermost frame's entry fact joins every
            # call site reaching it from the routine (or knows nothing)
            func, pc = start.frames[-1]
            entry = self._entry_by_call_sites(routine, func)
            act = self.walk(func, entry, func, routine == self.program.entry, 0, (func,))
            return [(act.env_in[pc], act)]
        out: list = []
        env = self.thread_entry(routine)
        for k, (func, pc) in enumerate(start.frames):
            act = self.walk(func, env, func, routine == self.program.entry, 0, tuple(f for f, _ in start.frames[:k + 1]))
            here = act.env_in[pc]
            out.append((here, act))
            if here is None:
                return out + [(None, None)] * (len(start.frames) - k - 1)
            if k + 1 < len(start.frames):
                call = act.func.body[pc]
                callee = start.frames[k + 1][0]
                env = self._bind_call(here, func, call, callee)
        return out

    def _entry_by_call_sites(self, routine: str, func: str) -> Env:
        if routine and func == routine:
            return self.thread_entry(routine)
        unknown = Env({}, {}, frozenset(), TOP, True)
        if not routine:
            return self.concurrent_view(self._any_create_env()) if self.observed.creates else unknown
        envs = []
        for g, s in self.facts.calls.call_sites_of(func):
            if g == func:
                return unknown
            if g not in self.facts.calls.reachable(routine):
                continue
            gentry = self._entry_by_call_sites(routine, g) if g != routine else self.thread_entry(routine)
            act = self.walk(g, gentry, g, routine == self.program.entry, 0, (g,))
            if act.env_in[s] is not None:
                envs.append(self._bind_call(act.env_in[s], g, act.func.body[s], func))
        joined = _join_all(envs, self, (func, -1), frozenset())
        return joined if joined is not None else unknown

    def _any_create_env(self) -> Env:
        return _join_all(list(self.observed.creates.values()), self, ("entry", "*"), frozenset())

    def concurrent_view(self, env: Env) -> Env:
        """``env`` once other threads may run: only conflict-free and
        thread-local cells kept."""
        cells = {k: v for k, v in env.cells.items() if self._tracked(k[0], True)}
        clean = frozenset(b for b in env.clean if self._tracked(b, True))
        return Env(env.regs, cells, clean, env.locks, True, env.facts)

    def _bind_call(self, env: Env, func: str, call, callee: str) -> Env:
        f = self.program.function(callee)
        regs = {}
        for k, p in enumerate(f.params):
            if k < len(call.args):
                regs[p.name] = self._converted(self.term(env, func, call.args[k], _frame_of(func)), p.type)
        return Env(regs, dict(env.cells), env.clean, env.locks, env.concurrent, env.facts)

    # ------------------------------------------------------------------
    # one function

    def walk(self, func: str, entry: Env, frame: str, once: bool, depth: int, active: tuple,
             observe: bool = False) -> Activation:
        """The fixpoint of ``func``'s body from ``entry`` (see the module
        docstring); ``once``: this activation runs at most once before the
        context (its allocations may be materialised)."""
        f = self.program.function(func)
        n = len(f.body)
        act = Activation(frame, f, [None] * n, None)
        if n == 0:
            act.exit = entry
            return act
        succ = [f.successors(pc) for pc in range(n)]
        preds: list[list[int]] = [[] for _ in range(n)]
        for pc in range(n):
            for s in succ[pc]:
                preds[s].append(pc)
        cyclic = self._cyclic_of(f)
        out: list[Env | None] = [None] * n
        taken: list = [()] * n  # the successors each pc's fact flows to
        act.env_in[0] = entry
        visits = [0] * n
        work = {0}
        rets: list[tuple[Env, object]] = []
        while work:
            pc = min(work)
            work.discard(pc)
            visits[pc] += 1
            env = act.env_in[pc]
            res = self._transfer(act, pc, env, once and pc not in cyclic, depth, active, rets, False)
            flows = self._flows(act, pc, env, succ[pc])
            if res is not None and res.same(out[pc]) and flows == taken[pc]:
                continue
            out[pc] = res
            taken[pc] = flows
            for s in succ[pc]:
                ins = [self._along(act, p, s, out[p]) for p in preds[s] if out[p] is not None and s in taken[p]]
                if s == 0:
                    ins = [entry] + ins
                if not ins:
                    continue
                new = ins[0] if len(ins) == 1 else _join_all(ins, self, (frame, s), self._scc_members(f, s))
                if visits[s] > MAX_PASSES:
                    new = _forget(new, self, (frame, s))
                if not new.same(act.env_in[s]):
                    act.env_in[s] = new
                    work.add(s)
        # the final pass: returns (and, for main, observations) from the fixpoint
        rets.clear()
        for pc in range(n):
            if act.env_in[pc] is not None:
                self._transfer(act, pc, act.env_in[pc], once and pc not in cyclic, depth, active, rets,
                               observe)
        if rets:
            act.exit = _join_all([e for e, _ in rets], self, (frame, "exit"), frozenset())
            values = [v for _, v in rets if v is not None]
            if values and all(v == values[0] for v in values) and len(values) == len(rets):
                act.ret = values[0]
            elif values and f.type.ret is not None and ir.is_scalar(f.type.ret):
                act.ret = self.sym(f"{f.name}()", f.type.ret, (frame, -2))
        return act

    def _flows(self, act: Activation, pc: int, env: Env, succ: tuple) -> tuple:
        """The successors a pc's fact flows to: a branch whose condition is a
        constant under the fact, or that the fact's conditions decide, goes
        one way only (its other side cannot run)."""
        i = act.func.body[pc]
        if type(i) is Branch and i.then != i.other:
            c = self.term(env, act.func.name, i.cond, act.frame)
            if isinstance(c, Const):
                return (i.then,) if c.value else (i.other,)
            if env.facts and self._usable(c):
                known = self.decider.decide(env.facts, c)
                if known is not None:
                    return (i.then,) if known else (i.other,)
        return succ

    def _along(self, act: Activation, pc: int, s: int, env: Env) -> Env:
        """The fact after ``pc`` on its way to ``s``: past a branch, with the
        side it took among its conditions."""
        i = act.func.body[pc]
        if type(i) is not Branch or i.then == i.other or not self.rd:
            return env
        c = self.term(env, act.func.name, i.cond, act.frame)
        if isinstance(c, Const) or not self._usable(c):
            return env
        return env.knowing(c, s == i.then)

    def _usable(self, c) -> bool:
        if self._once is None:
            self._once = settled_origins(self.program)
        return assumed.usable(c, self._once)

    def _cyclic_of(self, f: ir.Function) -> frozenset[int]:
        c = self._cyclic.get(f.name)
        if c is None:
            c = self._cyclic[f.name] = cyclic_pcs(f)
        return c

    def _scc_members(self, f: ir.Function, pc: int) -> frozenset[int]:
        """The pcs on a cycle through ``pc`` (empty when none)."""
        ids = self._sccs.get(f.name)
        if ids is None:
            ids = self._sccs[f.name] = scc_ids(f)
        k = ids.get(pc)
        if k is None:
            return frozenset()
        return frozenset(p for p, c in ids.items() if c == k)

    # ------------------------------------------------------------------
    # transfer functions

    def sym(self, label: str, ctype, origin) -> Sym:
        frame, pc = origin
        return Sym(f"{label}@{frame}:{pc}" if pc != -1 else f"{label}@{frame}", ctype, origin, self._per_thread)

    def reg(self, env: Env, frame: str, r: Reg):
        v = env.regs.get(r.name)
        if v is None:
            v = self.sym(r.name, r.type, (frame, -1))
        return v

    def term(self, env: Env, func: str, e, frame: str):
        """The term of IR expression ``e`` in fact ``env`` of ``frame``."""
        def leaf(x):
            if isinstance(x, Reg):
                return self.reg(env, frame, x)
            if isinstance(x, Addr) and x.kind is ObjKind.STACK:
                return ObjRef(stack_key(frame, x.name), x.type)
            return None

        return substitute(e, leaf)

    def _converted(self, t, ty):
        src = getattr(t, "type", None)
        if src == ty or not ir.is_scalar(ty) or src is None:
            return t
        return fold(ir.Cast(t, ty))

    def _transfer(self, act: Activation, pc: int, env: Env, once: bool, depth: int, active: tuple, rets: list,
                  observe: bool) -> Env | None:
        frame, f = act.frame, act.func
        i = f.body[pc]
        t = type(i)
        if t in (Jump, Branch):
            return env
        if t is Assign:
            out = env.copy()
            out.regs[i.dst.name] = self._converted(self.term(env, f.name, i.expr, frame), i.dst.type)
            return out
        if t is Load:
            out = env.copy()
            out.regs[i.dst.name] = self.load(out, frame, pc, self.term(env, f.name, i.addr, frame), i.type, i.dst)
            return out
        if t is Store:
            out = env.copy()
            addr = self.term(env, f.name, i.addr, frame)
            self.store(out, f.name, pc, addr, type_size(i.type), self.term(env, f.name, i.value, frame))
            return out
        if t is Return:
            v = self.term(env, f.name, i.value, frame) if i.value is not None else None
            rets.append((env, v))
            return None
        if t is Call:
            return self._call(act, pc, env, i, once, depth, active, observe)
        if t is Intrinsic:
            return self._intrinsic(act, pc, env, i, once, observe)
        return env

    def load(self, env: Env, frame: str, pc: int, addr, ctype, dst: Reg):
        n = type_size(ctype)
        parts = address_parts(addr)
        if parts is not None and n and self.rd:
            base = base_key(parts[0])
            if base is not None and self._tracked(base, env.concurrent):
                key = (base, parts[1], n)
                v = env.cells.get(key)
                if v is None and base in env.clean and not _overlapping(env.cells, base, parts[1], n):
                    v = self._static_value(base, parts[1], n, ctype)
                if v is None:
                    v = self.sym(dst.name if not dst.name.startswith("%") else "load", ctype, (frame, pc))
                    if base[0] == "g" and parts[1] == 0:
                        v = replace(v, read=base[1])
                    if not _overlapping(env.cells, base, parts[1], n):
                        env.cells[key] = v
                elif getattr(v, "type", ctype) != ctype:
                    v = self._converted(v, ctype) if ir.is_scalar(ctype) else v
                return v
        v = self.sym(dst.name if not dst.name.startswith("%") else "load", ctype, (frame, pc))
        if parts is not None and parts[1] == 0 and isinstance(parts[0], Addr) and parts[0].kind is ObjKind.GLOBAL:
            v = replace(v, read=parts[0].name)
        return v

    def store(self, env: Env, func: str, pc: int, addr, n: int, value) -> None:
        parts = address_parts(addr)
        if parts is not None and n:
            base = base_key(parts[0])
            if base is not None:
                _kill_range(env, base, parts[1], n)
                if self._tracked(base, env.concurrent) and self.rd:
                    env.cells[(base, parts[1], n)] = value
                else:
                    env.clean = env.clean - {base}
                return
        self._kill_targets(env, func, pc)

    def _kill_targets(self, env: Env, func: str, pc: int, role=access.Role.WRITE) -> None:
        """Forget every cell an instruction's ``role`` operands may touch."""
        instr = self.program.function(func).body[pc]
        ops = access.operands(instr, self.ptr_bytes)
        targets = self.pts.operand_ids(func, pc)
        objs: set[int] = set()
        for op, locs in zip(ops, targets):
            if op.role is not role:
                continue
            if not locs:
                _kill_all(env)
                return
            # UNKNOWN memory is memory the program does not name: never one of our cells
            objs.update(o for o, _ in locs if self.pts.objects[o].kind is not ObjectKind.UNKNOWN)
        if not objs:
            return
        for key in list(env.cells):
            if self._object_of(key[0]) in objs:
                del env.cells[key]
        env.clean = frozenset(b for b in env.clean if self._object_of(b) not in objs)

    def _call(self, act: Activation, pc: int, env: Env, i: Call, once: bool, depth: int, active: tuple,
              observe: bool) -> Env | None:
        frame, f = act.frame, act.func
        callees = self.facts.calls.callees_at(f.name, pc)
        unknown = (f.name, pc) in self.facts.calls.unknown_calls or not callees
        results = []
        for callee in callees:
            g = self.program.function(callee)
            if g is None or callee in active or depth >= MAX_DEPTH:
                unknown = True
                continue
            entry = self._bind_call(env, f.name, i, callee)
            entry.locks = LockState()
            sub = f"{frame}>{pc}:{callee}"
            res = self.walk(callee, entry, sub, once, depth + 1, active + (callee,), observe)
            if res.exit is None:
                continue
            out = Env(dict(env.regs), {k: v for k, v in res.exit.cells.items() if not _in_frame(k[0], sub)},
                      frozenset(b for b in res.exit.clean if not _in_frame(b, sub)),
                      env.locks.after_call(res.exit.locks), res.exit.concurrent, env.facts)
            if i.dst is not None:
                out.regs[i.dst.name] = self._converted(res.ret, i.dst.type) if res.ret is not None else \
                    self.sym("call", i.dst.type, (frame, pc))
            results.append(out)
        if unknown:
            out = env.copy()
            _kill_all(out, keep_frame=frame)
            out.locks = env.locks.after_call(TOP)
            if i.dst is not None:
                out.regs[i.dst.name] = self.sym("call", i.dst.type, (frame, pc))
            results.append(out)
        if not results:
            return None
        if len(results) == 1:
            return results[0]
        return _join_all(results, self, (frame, f"{pc}c"), frozenset())

    def _intrinsic(self, act: Activation, pc: int, env: Env, i: Intrinsic, once: bool, observe: bool) -> Env | None:
        frame, f = act.frame, act.func
        op = i.op
        if op in (Op.ABORT, Op.EXIT, Op.THREAD_EXIT):
            return None
        out = env.copy()
        arg = [self.term(env, f.name, a, frame) for a in i.args]

        def result(v=None, label: str = ""):
            if i.dst is not None:
                out.regs[i.dst.name] = v if v is not None else self.sym(label or i.name or op.value, i.dst.type,
                                                                      (frame, pc))

        if op in (Op.MUTEX_LOCK, Op.MUTEX_TRYLOCK):
            # a trylock, or a timed lock (a deadline argument), may not take it
            certain = op is Op.MUTEX_LOCK and not ir.has_deadline(i)
            out.locks = env.locks.lock(lock_term(arg[0]), certain)
            result(Const(0, i.dst.type) if certain and i.dst is not None else None, "trylock")
        elif op in (Op.RWLOCK_WRLOCK, Op.RWLOCK_TRYWRLOCK):
            # a write lock excludes everyone, as a mutex does; read locks are
            # shared and stay out of the locksets (they protect nothing
            # from another reader)
            out.locks = env.locks.lock(lock_term(arg[0]), op is Op.RWLOCK_WRLOCK and not ir.has_deadline(i))
            result(label="wrlock")
        elif op is Op.RWLOCK_UNLOCK:
            out.locks = env.locks.unlock(lock_term(arg[0]))
            result(Const(0, i.dst.type) if i.dst is not None else None)
        elif op is Op.MUTEX_UNLOCK:
            out.locks = env.locks.unlock(lock_term(arg[0]))
            result(Const(0, i.dst.type) if i.dst is not None else None)
        elif op is Op.THREAD_CREATE:
            if observe:
                prev = self.observed.creates.get((f.name, pc))
                self.observed.creates[(f.name, pc)] = env if prev is None else \
                    _join_all([prev, env], self, (frame, pc), frozenset())
                self.observed.create_frames[(f.name, pc)] = frame
            self._kill_targets(out, f.name, pc)
            if i.args:
                handle = address_parts(arg[0])
                if handle is not None and base_key(handle[0]) is not None and self.rd:
                    base = base_key(handle[0])
                    if self._tracked(base, True):
                        out.cells[(base, handle[1], self.ptr_bytes)] = Sym(
                            thread_symbol(frame, pc), IntType(8 * self.ptr_bytes, False), (frame, pc), False)
            out = self.concurrent_view(out)
            result(Const(0, i.dst.type) if i.dst is not None else None)
        elif op is Op.BARRIER_INIT:
            if observe and arg:
                self.observed.barrier_inits.append((arg[0], arg[2] if len(arg) > 2 else arg[-1]))
            result(Const(0, i.dst.type) if i.dst is not None else None)
        elif op in (Op.MALLOC, Op.CALLOC, Op.ALLOCA):
            if once and not env.concurrent and op is not Op.ALLOCA and i.dst is not None and self.rd:
                key = heap_key(frame, pc)
                size = arg[0] if op is Op.MALLOC else fold(ir.Binary("*", self._converted(arg[0], arg[1].type),
                                                                     arg[1], arg[1].type))
                self.observed.materialised[key] = (size, op is Op.CALLOC, i.span, f"heap@{i.span.line}")
                result(ObjRef(key, i.dst.type))
            else:
                result(label="malloc")
        elif op in (Op.MEMSET, Op.MEMCPY, Op.MAKE_SYMBOLIC, Op.THREAD_JOIN, Op.SEM_GETVALUE):
            self._kill_targets(out, f.name, pc)
            result(arg[0] if op in (Op.MEMSET, Op.MEMCPY) else (Const(0, i.dst.type) if i.dst is not None else None))
        elif op is Op.FREE:
            result()
        elif op is Op.ASSUME and self.rd and arg and not isinstance(arg[0], Const) and self._usable(arg[0]):
            out = out.knowing(arg[0], True)
            result(Const(0, i.dst.type) if i.dst is not None else None)
        elif op in (Op.ASSERT, Op.ASSUME, Op.ATOMIC_BEGIN, Op.ATOMIC_END, Op.MUTEX_INIT, Op.MUTEX_DESTROY,
                    Op.COND_INIT, Op.COND_DESTROY, Op.COND_SIGNAL, Op.COND_BROADCAST, Op.BARRIER_DESTROY,
                    Op.COND_WAIT) and not ir.has_deadline(i):  # a timed wait may time out
            result(Const(0, i.dst.type) if i.dst is not None else None)
        elif op is Op.THREAD_SELF:
            result(label="self")
        elif op is Op.EXTERNAL and i.name in _ABS and len(arg) == 1 and i.dst is not None \
                and i.args[0].type == i.dst.type:
            # |x| as the engine has it (abs of the least value is an error
            # there, so no run reaches past it with the wrapped value)
            x, t = arg[0], i.dst.type
            negative = fold(ir.Binary("<", x, Const(0, t), IntType(32, True)))
            result(fold(ir.Ite(negative, fold(ir.Unary("-", x, t)), x, t)))
        else:
            result()
        return out

    # ------------------------------------------------------------------
    # memory bookkeeping

    def _object_of(self, base) -> int | None:
        """The points-to object index of a cell base."""
        kind, name = base
        if kind == "g":
            return self._objects.get(("g", name))
        if name.startswith("stack:"):
            frame, var = name[len("stack:"):].rsplit(":", 1)
            return self._objects.get(("s", func_of_frame(frame), var))
        if name.startswith("heap:"):
            frame, pc = name[len("heap:"):].rsplit(":", 1)
            return self._objects.get(("h", func_of_frame(frame), int(pc)))
        return None

    def _tracked(self, base, concurrent: bool) -> bool:
        if not concurrent:
            return True
        o = self._object_of(base)
        if o is None:
            return False
        return o in self.conflict_free or o in self.quiet.objects or o not in self.facts.shared \
            or (self.walking is not None and self.quiet.owned.get(o) == self.walking)

    def owner(self, base) -> int | None:
        """The given thread (by index) whose own earlier code alone may have
        written ``base``'s object, if one is."""
        o = self._object_of(base)
        return None if o is None else self.quiet.owned.get(o)

    def _static_value(self, base, off: int, n: int, ctype):
        if base[0] != "g":
            return None
        g = self.program.global_var(base[1])
        if g is None:
            return None
        for iv in g.init:
            s = type_size(iv.type)
            if iv.offset == off and s == n:
                v = iv.value
                if isinstance(v, Const) and ir.is_scalar(ctype):
                    return Const(v.value, ctype)
                return v
            if iv.offset < off + n and off < iv.offset + s:
                return None
        if ir.is_scalar(ctype):
            return Const(0, ctype)
        return None


# --------------------------------------------------------------------------
# helpers


def param_symbol(routine: str, param: str) -> str:
    return f"{param}@{routine}"


def thread_symbol(frame: str, pc: int) -> str:
    """The symbol standing for the id a ``pthread_create`` stored in its handle."""
    return f"thread@{frame}:{pc}"


def stack_key(frame: str, name: str) -> str:
    return f"stack:{frame}:{name}"


def heap_key(frame: str, pc: int) -> str:
    return f"heap:{frame}:{pc}"


def _frame_of(func: str) -> str:
    return func


def func_of_frame(frame: str) -> str:
    """``main>3:init`` is a call of init from main's pc 3: its function is init."""
    last = frame.rsplit(">", 1)[-1]
    return last.split(":", 1)[1] if ":" in last else last


def _in_frame(base, frame: str) -> bool:
    return base[0] == "o" and base[1].startswith(f"stack:{frame}:")


def base_key(leaf):
    if isinstance(leaf, Addr):
        if leaf.kind in (ObjKind.GLOBAL, ObjKind.STRING):
            return ("g", leaf.name)
        return None
    if isinstance(leaf, ObjRef):
        return ("o", leaf.key)
    return None


def lock_term(t):
    return fold(ir.Cast(t, PtrType(ir.VoidType(), getattr(t.type, "bits", 64)))) if isinstance(
        getattr(t, "type", None), PtrType) else t


def _overlapping(cells: dict, base, off: int, n: int) -> bool:
    for (b, o, s) in cells:
        if b == base and o < off + n and off < o + s and (o, s) != (off, n):
            return True
    return False


def _kill_range(env: Env, base, off: int, n: int) -> None:
    for key in [k for k in env.cells if k[0] == base and k[1] < off + n and off < k[1] + k[2]]:
        del env.cells[key]


def _kill_all(env: Env, keep_frame: str | None = None) -> None:
    env.cells = {k: v for k, v in env.cells.items() if keep_frame is not None and _in_frame(k[0], keep_frame)}
    env.clean = frozenset()


def object_index(pts) -> dict:
    out = {}
    for k, o in enumerate(pts.objects):
        if o.kind in (ObjectKind.GLOBAL, ObjectKind.STRING):
            out[("g", o.name)] = k
        elif o.kind is ObjectKind.STACK:
            out[("s", o.func, o.name)] = k
        elif o.kind in (ObjectKind.HEAP, ObjectKind.ALLOCA):
            out[("h", o.func, o.pc)] = k
    return out


def scc_ids(f: ir.Function) -> dict[int, int]:
    """Component number of every pc on a cycle: the smallest pc of its
    strongly connected component of the control flow graph."""
    cyc = cyclic_pcs(f)
    comp: dict[int, int] = {}
    for members in components(sorted(cyc), lambda pc: [s for s in f.successors(pc) if s in cyc]):
        first = min(members)
        comp.update((pc, first) for pc in members)
    return comp


def stale_term(t, frame: str, members: frozenset[int]) -> bool:
    """Whether term ``t`` mentions a symbol introduced on a cycle through the
    join point (in ``frame`` at one of ``members``, or inside a call made there)."""
    if not members:
        return False
    for x in leaves(t):
        if isinstance(x, Sym) and x.origin is not None:
            of, opc = x.origin
            if of == frame and opc in members:
                return True
            if of.startswith(frame + ">"):
                call_pc = of[len(frame) + 1:].split(":", 1)[0]
                if call_pc.isdigit() and int(call_pc) in members:
                    return True
    return False


def _join_all(envs: list, walker: Walker, at: tuple, members: frozenset[int]) -> Env | None:
    """The join of facts at ``at = (frame, pc)``: equal definitions are kept,
    different (or stale) register values become join symbols, different
    cells are forgotten, locksets are joined."""
    envs = [e for e in envs if e is not None]
    if not envs:
        return None
    frame, pc = at
    first = envs[0]
    regs = {}
    names = set()
    for e in envs:
        names.update(e.regs)
    for name in names:
        vals = [e.regs.get(name) for e in envs]
        v0 = vals[0]
        if v0 is not None and all(v == v0 for v in vals) and not stale_term(v0, frame, members):
            regs[name] = v0
            continue
        ty = next((getattr(v, "type", None) for v in vals if v is not None), None)
        if ty is None:
            continue
        regs[name] = Sym(f"{name}@{frame}:{pc}", ty, (frame, pc), walker._per_thread)
    cells = {}
    clean = frozenset.intersection(*[e.clean for e in envs])
    keys = set()
    for e in envs:
        keys.update(e.cells)
    for key in keys:
        vals = []
        for e in envs:
            v = e.cells.get(key)
            if v is None and key[0] in e.clean and not _overlapping(e.cells, key[0], key[1], key[2]):
                v = walker._static_value(key[0], key[1], key[2], IntType(8 * key[2], True))
            vals.append(v)
        v0 = vals[0]
        if v0 is not None and all(_same_value(v, v0) for v in vals) and not stale_term(v0, frame, members):
            cells[key] = v0
    # a cell made explicit on one side only is no longer "static" on the others
    clean = frozenset(b for b in clean if not any(k[0] == b and k not in cells for k in keys))
    locks = first.locks
    for e in envs[1:]:
        locks = locks.join(e.locks)
    if members:
        locks = locks.map_terms(lambda t: None if stale_term(t, frame, members) else t)
    facts = frozenset.intersection(*[e.facts for e in envs])
    return Env(regs, cells, clean, locks, any(e.concurrent for e in envs), facts)


def _same_value(a, b) -> bool:
    if a is None or b is None:
        return False
    if isinstance(a, Const) and isinstance(b, Const):
        return a.value == b.value
    return a == b


def _forget(env: Env, walker: Walker, at: tuple) -> Env:
    """Give up precision at a join that keeps changing."""
    frame, pc = at
    regs = {name: Sym(f"{name}@{frame}:{pc}", v.type, (frame, pc), walker._per_thread)
            for name, v in env.regs.items() if hasattr(v, "type")}
    return Env(regs, {}, frozenset(), TOP, env.concurrent, env.facts)


__all__ = ["Env", "Walker", "Activation", "Observed", "param_symbol", "stack_key", "heap_key", "ANY"]
