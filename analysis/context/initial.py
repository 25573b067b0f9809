"""The initial state of a check from a program context.

:func:`plan` runs the static part once per program and context (cached):
the threads and their call stacks (:mod:`.threads`), the must-reaching
definitions and locksets along each thread's path (:mod:`.reaching`,
:mod:`.locksets`), barrier counts and matching (:mod:`.barriers`).
:class:`ContextStart` turns the plan into an engine
:class:`~distaff.analysis.symex.state.State` in the engine's own z3 context, and
gives the engine its :class:`ContextHooks`: the symbolic heap
(:mod:`.heap`) and the synchronization invariants (:mod:`.invariants`) it
consults while running.

What each ingredient of :class:`~distaff.analysis.context.Context` contributes:

* ``reaching_defs``: registers, stack objects, conflict-free globals and
  heap blocks allocated once before the context get the terms of their
  must-reaching definitions (symbols of the terms become fresh symbols,
  one per symbol and thread instance, so relations between values survive);
  each thread's start-routine parameter is the argument of a
  ``pthread_create`` that may have started it (instances of one routine
  created in a loop get different values of its induction variable);
  handles written by those creations name the threads of the context.
  Without it, all of this is fresh symbols (registers read before written,
  memory never written).
* ``sync_invariants``: the lock invariant from the locksets, barrier
  expected counts from ``Bcnts`` and induction variables equated by
  barrier matching. Without it, any lock may be held by any thread of the
  context or be free, and barrier counts are fresh symbols.

In every mode: threads positioned at a ``pthread_cond_wait`` or
``pthread_barrier_wait`` start blocked in it (initial waiters); known call stacks are rebuilt; symbolic pointers
are resolved through points-to (the paper keeps its points-to restriction
in all its configurations too); a thread whose outermost frame returns
ends, and only ``main``'s own return ends the process.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from distaff.analysis import ir
from distaff.analysis.context import barriers, frames, stored, terms
from distaff.analysis.context.conflicts import quiet_objects
from distaff.analysis.context.heap import SymbolicHeap
from distaff.analysis.context.invariants import LockFact, RunContext, barrier_entry, choose, settle_lock, settle_rwlock
from distaff.analysis.context.locksets import ANY
from distaff.analysis.context.stored import held_values
from distaff.analysis.context.reaching import (
    Walker, func_of_frame, lock_term, object_index, param_symbol, stale_term, thread_symbol,
)
from distaff.analysis.context.terms import ObjRef, Sym, canon_type
from distaff.analysis.context.threads import ThreadStart, create_sites, cyclic_pcs, thread_starts
from distaff.analysis.ir import Intrinsic, IntType, Op, PtrType, bits_of, type_size
from distaff.analysis.memo import ProgramMemo
from distaff.analysis.modular.prover import proof_of
from distaff.analysis.static.facts import Facts, analyze
from distaff.analysis.static.pointsto import ObjectKind
from distaff.analysis.symex import sync
from distaff.analysis.symex.pivots import Option
from distaff.analysis.symex.state import BLOCKED, MAY_HAVE_ENDED, Symbol
from distaff.analysis.symex.trace import lvalue
from distaff.analysis.symex.unmodelled import CONTEXT
from distaff.analysis.symex.values import mask

_PLANS = ProgramMemo(keep=16)  # per context: its threads' plan
MAX_BOUNDED_ELEMENTS = 256  # a larger global array keeps its elements unknown in a context


# --------------------------------------------------------------------------
# the static part


@dataclass
class ThreadPlan:
    """One thread of the context: where it starts, and for each frame the
    must-reaching fact before its pc and the walk of its function."""

    start: ThreadStart
    frames: list  # [(Env | None, Activation | None)]
    waits: Op | None = None  # COND_WAIT / BARRIER_WAIT: it starts blocked there
    position: barriers.LoopPosition | None = None


@dataclass
class Plan:
    program: ir.Program
    facts: Facts
    walker: Walker
    threads: list
    counts: dict = field(default_factory=dict)
    matches: list = field(default_factory=list)
    main_act: object = None
    held: dict = field(default_factory=dict)  # global -> what it holds once threads run (:class:`.stored.Held`)
    proof: object = None  # the thread-modular prover's :class:`~distaff.analysis.modular.prover.Proof`, when used


def plan(program: ir.Program, context, facts: Facts | None = None) -> Plan:
    """The static analyses of ``context`` (cached per program and context)."""
    key = (tuple((t.func, t.pc) for t in context.threads),
           bool(getattr(context, "reaching_defs", False)), bool(getattr(context, "sync_invariants", False)),
           bool(getattr(context, "thread_invariants", False)))
    hit = _PLANS.get(program, key)
    if hit is not None:
        return hit
    facts = facts or analyze(program)
    rd = bool(getattr(context, "reaching_defs", False))
    walker = Walker(program, facts, reaching_defs=rd)
    starts = thread_starts(program, facts, [(t.func, t.pc) for t in context.threads])
    if rd:
        walker.quiet = quiet_objects(program, facts, starts, walker.concurrent_main)
    main_act = walker.walk_main()
    threads = []
    given = 0
    for s in starts:
        if s.given:
            walker.walking = given  # the cells it owns are its own must-reaching definitions
            frames = walker.walk_thread(s)
            walker.walking = None
            given += 1
        else:
            frames = [(walker.thread_entry(s.routine), None)]
        tp = ThreadPlan(s, frames)
        if s.given:
            i = program.function(s.func).body[s.pc] if s.pc < len(program.function(s.func).body) else None
            if isinstance(i, Intrinsic) and i.op in (Op.COND_WAIT, Op.BARRIER_WAIT):
                tp.waits = i.op
            act = frames[-1][1]
            if act is not None and frames[-1][0] is not None:
                tp.position = barriers.loop_position(walker, s, act)
        threads.append(tp)
    held = held_values(program, facts, walker, _positions(starts)) if rd else {}
    p = Plan(program, facts, walker, threads, main_act=main_act, held=held,
             proof=proof_of(program)[0] if getattr(context, "thread_invariants", False) else None)
    p.counts = barriers.expected_counts(walker.observed.barrier_inits)
    p.matches = barriers.matches(program, walker, starts, [t.position for t in threads], p.counts)
    return _PLANS.put(program, p, key)


# --------------------------------------------------------------------------
# the engine's side


class ContextHooks:
    """What the engine asks a context run (``Engine.context_hooks``); its
    symbolic heap is made with the initial state (:class:`ContextStart`)."""

    def __init__(self):
        self.heap: SymbolicHeap | None = None

    def __bool__(self) -> bool:
        """False until the initial state is built: the build itself runs as
        a plain run (``if E.context_hooks:`` is how the engine asks)."""
        return self.heap is not None

    def resolve_object(self, E, st, ptr, oid_term) -> int:
        return self.heap.resolve_object(E, st, ptr, oid_term)

    def sync_address(self, E, st, oid, off, what) -> int:
        return self.heap.sync_address(E, st, oid, off, what)

    def thread_handle(self, E, st, h, bits: int) -> int:
        """The thread a symbolic handle names: one of the run's threads, or
        none of them (then the join is of an invalid thread), a fork."""

        V = E.values

        def options():
            opts = [Option(V.eq(h, t.tid, bits), t.tid) for t in st.threads]
            opts.append(Option(V.and_(*[V.ne(h, t.tid, bits) for t in st.threads]), len(st.threads)))
            return opts

        return choose(E, st, options, exhaustive=True).payload

    def resolve_function(self, E, st, fp, oid_term) -> int:
        return self.heap.resolve_function(E, st, fp, oid_term)

    def after_store(self, E, st, oid, off, n, value) -> None:
        if st.ctx is not None and st.ctx.primaries:
            self.heap.after_store(E, st, oid, off, n, value)

    def settle_lock(self, E, st, a) -> None:
        settle_lock(E, st, a)

    def settle_rwlock(self, E, st, a) -> None:
        settle_rwlock(st, a)

    def lock_initialised(self, st, a) -> None:
        if st.ctx is not None:
            st.ctx = replace(st.ctx, settled=st.ctx.settled | {a})

    def barrier_entry(self, E, st, a):
        return barrier_entry(E, st, a)


class ContextStart:
    """How runs from ``context`` begin: the engine is made with ``hooks``
    (its ``context_hooks``), and calling this with the engine gives the
    initial state (see the module docstring), completing the hooks."""

    def __init__(self, program: ir.Program, context):
        self.program, self.context = program, context
        self.hooks = ContextHooks()

    def __call__(self, E):
        return _Builder(E, plan(self.program, self.context), self.context, self.hooks).build()


class _Builder:
    def __init__(self, E, p: Plan, context, hooks: ContextHooks):
        self.E = E
        self.hooks = hooks
        self.p = p
        self.program = p.program
        self.rd = bool(getattr(context, "reaching_defs", False))
        self.si = bool(getattr(context, "sync_invariants", False))
        self.values, self.layout, self.pb = E.values, E.layout, E.ptr_bits
        self.syms: dict[str, object] = {}
        self.materialised: dict[str, int] = {}
        self.tids: list[int] = []
        self.st = None
        self.constraints: list = []
        self.args: dict = {}  # (thread index, parameter symbol name) -> the instance's argument
        self.handle_ids: dict = {}  # handle symbol name -> thread id
        self.arrived: dict = {}
        self.global_bounds = dict(p.proof.globals) if p.proof is not None else {}
        self.told: set = set()  # globals whose value the reaching definitions give
        self.held_syms: dict = {}  # global -> the symbol :mod:`.stored` constrained for it
        self.bounded = 0

    # ------------------------------------------------------------------

    def build(self):
        E = self.E
        st = self.st = E.base_state(fresh_globals=True)
        st.ctx = RunContext()
        for k, tp in enumerate(self.p.threads):
            self.tids.append(self.spawn(k, tp))
        if self.rd:
            self._handles()  # first: every register and cell holding a handle names its thread
            self._thread_args()
            self._registers_and_stacks()
            self._globals()
            self._materialised_cells()
        if self.p.proof is not None:
            self._thread_invariants()
        self._waiters()
        if self.si:
            self._locks()
            self._barriers()
            self._matches()
        else:
            self._unknown_sync()
        for c in self.constraints:
            if c is False:
                st.ended = True  # the context cannot happen: nothing runs from it
                break
            if c is not True:
                E.constrain(st, c)
        st.ctx = replace(st.ctx, premises=st.pc)
        self.hooks.heap = self._heap()
        return st

    def spawn(self, k: int, tp: ThreadPlan) -> int:
        E, st = self.E, self.st
        s = tp.start
        outer_func, _ = s.frames[0]
        f = self.program.function(outer_func)
        ends = s.full_stack and s.routine == self.program.entry
        tid = E.spawn(st, f, [], outer_func if not s.full_stack else s.routine, ends_process=ends)
        t = st.wthread(tid)
        for j, (func, pc) in enumerate(s.frames):
            if j == 0:
                frame = t.frames[0]
            else:
                call = self.program.function(s.frames[j - 1][0]).body[s.frames[j - 1][1]]
                frame = E.new_frame(st, self.program.function(func), [], call.dst if isinstance(call, ir.Call) else None)
                t.frames.append(frame)
            frame.pc = pc + 1 if j + 1 < len(s.frames) else pc
        if not s.given and s.routine and _may_not_finish(self.program, self.p.facts, s.routine):
            t.pending = MAY_HAVE_ENDED  # at its entry, or already ended: the context cannot tell
        return tid

    # ------------------------------------------------------------------
    # values of terms

    def symbol(self, name: str, ctype, span, unknown: bool = True) -> object:
        """The context's symbol ``name``; ``unknown``: it stands for a value
        the context does not know (an outcome that depends on it is only
        possible), not for a choice among known ones."""
        v = self.syms.get(name)
        if v is None:
            bits = ctype.bits if isinstance(ctype, ir.SCALAR_TYPES) else self.pb
            signed = isinstance(ctype, IntType) and ctype.signed
            v = self.values.fresh(name, bits)
            self.st.add_symbol(Symbol(name, v, bits, signed, span or ir.NO_SPAN, True,
                                      CONTEXT + name if unknown else ""))
            fixed = self.E.fixed_inputs
            if fixed is not None and name in fixed:
                self.constraints.append(v == self.values.const(fixed[name] & mask(bits), bits))
            self.syms[name] = v
        return v

    def _span_of(self, sym: Sym):
        if sym.origin is None:
            return None
        frame, pc = sym.origin

        f = self.program.function(func_of_frame(frame))
        if f is None:
            return None
        return f.body[pc].span if isinstance(pc, int) and 0 <= pc < len(f.body) else f.span

    def sym_name(self, sym: Sym, k: int) -> str:
        return f"{sym.name}#{k}" if sym.per_thread else sym.name

    def value(self, t, k: int):
        """The engine value of term ``t`` in thread ``k`` (None: not expressible)."""
        try:
            return terms.evaluate(t, self.values, self.layout, self.pb, lambda x: self._leaf(x, k))
        except _Unknown:
            return None

    def _leaf(self, x, k: int):
        if isinstance(x, ir.Addr):
            if x.kind is ir.ObjKind.STACK:
                raise _Unknown()
            return self.E.address_of(self.st, None, x)
        if isinstance(x, Sym):
            name = self.sym_name(x, k)
            if name not in self.syms:
                bound = self._bound_symbol(x, k)
                if bound is not None:
                    self.syms[name] = bound
                else:
                    read = self._loaded_global(x)
                    b = self.global_bounds.get(x.read) if x.read else None
                    if b is not None and canon_type(b.type) != x.type:
                        b = None
                    if read is not None or b is not None:
                        v = self.symbol(name, x.type, self._span_of(x))
                        if read is not None:
                            self._held(v, read)
                        if b is not None:
                            self._within(v, b)
                        return v
            return self.symbol(name, x.type, self._span_of(x))
        if isinstance(x, ObjRef):
            oid = self._object(x.key, k)
            if oid is None:
                raise _Unknown()
            return self.layout.make(oid)
        raise _Unknown()

    def _bound_symbol(self, x: Sym, k: int):
        """Symbols with a value of their own: thread parameters (the
        instance's argument) and thread handles (the context thread's id)."""
        tp = self.p.threads[k]
        if x.per_thread and tp.start.routine and x.origin == (tp.start.routine, -1):
            return self.args.get((k, x.name))
        if x.name in self.handle_ids:
            return self.handle_ids[x.name]
        return None

    def _object(self, key: str, k: int) -> int | None:
        st = self.st
        if key.startswith("stack:"):
            frame, name = key[len("stack:"):].rsplit(":", 1)
            t = st.threads[self.tids[k]] if k < len(self.tids) else None
            if t is not None:
                for fr in t.frames:
                    if fr.func.name == frame and name in fr.stack_objs:
                        return fr.stack_objs[name]
            for t in st.threads:  # main's frame, in another thread of the context
                if t.frames and t.frames[0].func.name == frame == self.program.entry and name in t.frames[0].stack_objs:
                    return t.frames[0].stack_objs[name]
            if frame == self.program.entry:
                return self._materialise(key)
            return None
        if key.startswith("heap:"):
            return self._materialise(key)
        return None

    def _materialise(self, key: str) -> int | None:
        oid = self.materialised.get(key)
        if oid is not None:
            return oid
        E, st = self.E, self.st
        if key.startswith("heap:"):
            info = self.p.walker.observed.materialised.get(key)
            if info is None:
                return None
            size_t, zeroed, span, label = info
            size = self.value(size_t, 0)
            if size is None:
                size = (1 << self.layout.off_bits) - 1
            else:
                size = self.values.convert(size, bits_of(size_t.type, self.pb), self.pb, False)
            oid = E.allocate(st, label, "heap", size, None, span, zeroed=zeroed)
        else:
            name = key.rsplit(":", 1)[1]
            sv = next((v for v in self.program.function(self.program.entry).stack if v.name == name), None)
            if sv is None:
                return None
            oid = E.allocate(st, name, "stack", type_size(sv.type), sv.type, sv.span, zeroed=False)
        self.materialised[key] = oid
        return oid

    # ------------------------------------------------------------------
    # reaching definitions

    def _thread_args(self) -> None:
        """Each thread's routine parameter: the argument of a creation that may
        have started it (a selector symbol per instance when several may)."""
        walker, V = self.p.walker, self.values
        by_routine: dict[str, list[int]] = {}
        for k, tp in enumerate(self.p.threads):
            s = tp.start
            if s.routine and s.routine != self.program.entry:
                by_routine.setdefault(s.routine, []).append(k)
        for routine, ks in by_routine.items():
            f = self.program.function(routine)
            if not f.params:
                continue
            sites = [c for c in create_sites(self.program, self.p.facts, routine)
                     if (c.func, c.pc) in walker.observed.creates]
            if not sites:
                continue
            param = f.params[0]
            per_inst = []
            for k in ks:
                vals, ivs = [], []
                for site in sites:
                    frame = walker.observed.create_frames[(site.func, site.pc)]
                    env = walker.observed.creates[(site.func, site.pc)]
                    t = walker.term(env, site.func, site.arg, frame) if site.arg is not None else None
                    if t is not None and site.in_loop:
                        t = _per_instance(t, frame, walker._scc_members(self.program.function(site.func), site.pc))
                    v = self.value(walker._converted(t, param.type), k) if t is not None else None
                    vals.append(v)
                    ivs.append(self._creation_iv(site, frame, k))
                if any(v is None for v in vals):
                    continue
                if len(sites) == 1:
                    chosen, sel = vals[0], None
                else:
                    sel = self.symbol(f"site@{routine}#{k}", IntType(32, False), f.span, unknown=False)
                    self.constraints.append(V.lt(sel, len(sites), 32, False))
                    chosen = vals[-1]
                    for j in range(len(sites) - 2, -1, -1):
                        chosen = V.ite(V.eq(sel, j, 32), vals[j], chosen, bits_of(param.type, self.pb))
                self.args[(k, param_symbol(routine, param.name))] = chosen
                per_inst.append((k, sel, ivs))
            if len(sites) > 1 and len(per_inst) == len(sites) == len(ks) and not any(c.in_loop for c in sites):
                self._site_handles(sites, per_inst)
            # distinct instances: different creations (a site outside loops runs
            # once; one in a loop runs once per value of its induction variable)
            for a in range(len(per_inst)):
                for b in range(a + 1, len(per_inst)):
                    ka, sa, iva = per_inst[a]
                    kb, sb, ivb = per_inst[b]
                    for j, site in enumerate(sites):
                        same = True if sa is None else V.and_(V.eq(sa, j, 32), V.eq(sb, j, 32))
                        if not site.in_loop:
                            apart = False
                        elif iva[j] is not None and ivb[j] is not None:
                            apart = V.ne(iva[j][0], ivb[j][0], iva[j][1])
                        else:
                            continue
                        self.constraints.append(V.or_(V.not_(same), apart))

    def _site_handles(self, sites: list, per_inst: list) -> None:
        """Each creation ran once and started one of the context's instances
        (as many as there are creations, each with its own ``site``
        selector): the handle a creation wrote names the instance that
        selected it."""
        bits = self.program.data_model.pointer_bits
        for j, site in enumerate(sites):
            frame = self.p.walker.observed.create_frames[(site.func, site.pc)]
            (*rest, (last, _, _)) = per_inst
            handle = self.tids[last]
            for k, sel, _ in reversed(rest):
                handle = self.values.ite(self.values.eq(sel, j, 32), self.tids[k], handle, bits)
            self.handle_ids[thread_symbol(frame, site.pc)] = handle

    def _creation_iv(self, site, frame: str, k: int):
        """The value, in instance ``k``, of the induction variable of the loop a
        creation sits in, with its width; constrained to the loop's range."""
        act = self.p.main_act if site.func == self.program.entry else None
        if act is None or act.env_in[site.pc] is None:
            return None
        walker = self.p.walker
        f = self.program.function(site.func)
        body = walker._scc_members(f, site.pc)
        if not body:
            return None
        iv = barriers._induction(walker, act, _head(f, body), body)
        if iv is None:
            return None
        sym, init, step = iv
        inst = _per_instance(sym, frame, body)
        v = self.value(inst, k)
        if v is None:
            return None
        bits = bits_of(sym.type, self.pb)
        trip = barriers._trip_count(walker, act, _head(f, body), body)
        init_v = self.value(init, k)
        if trip is not None and init_v is not None and step == 1:
            bound = self.value(terms.fold(ir.Binary("+", init, trip, sym.type)), k)
            signed = isinstance(sym.type, IntType) and sym.type.signed
            if bound is not None:
                self.constraints.append(self.values.and_(self.values.le(init_v, v, bits, signed),
                                                    self.values.lt(v, bound, bits, signed)))
        return v, bits

    def _registers_and_stacks(self) -> None:
        for k, tp in enumerate(self.p.threads):
            if not tp.start.given:
                self._entry_params(k, tp)
                continue
            self._creation_guards(k, tp)
            t = self.st.wthread(self.tids[k])
            for j, (env, act) in enumerate(tp.frames):
                if env is None:
                    continue
                frame = t.frames[j]
                fname = tp.start.frames[j][0] if tp.start.full_stack or j == len(tp.frames) - 1 else None
                if fname is None:
                    continue
                fpc = tp.start.frames[j][1]
                live = frames.live_registers(frame.func)[frame.pc] if frame.pc < len(frame.func.body) else frozenset()
                if act is not None:
                    self._guards(k, act, fpc)
                    self._loop_ranges(k, act, fpc)
                for name, term in env.regs.items():
                    if name not in live:
                        continue  # dead here: nothing to say
                    if isinstance(term, Sym) and term.origin == (fname, -1) and self._bound_symbol(term, k) is None:
                        continue  # the value on entry, never defined: fresh as without a context
                    v = self.value(term, k)
                    if v is not None:
                        frame.regs[name] = v
                for (base, off, n), term in env.cells.items():
                    if base[0] == "o" and base[1].startswith(f"stack:{fname}:"):
                        oid = frame.stack_objs.get(base[1].rsplit(":", 1)[1])
                        v = self.value(term, k)
                        if oid is not None and v is not None:
                            self.st.memory.store(oid, off, n, v, self.values, self.layout)

    def _guards(self, k: int, act, pc: int, settled: frozenset | None = None) -> None:
        """Branch outcomes and assumptions that hold at the frame's pc
        (:func:`frames.guards`); with ``settled``, only those whose terms
        are over symbols ``main`` makes once (:func:`stored.settled`)."""
        walker = self.p.walker

        def cond_at(p, expr):
            env = act.env_in[p]
            return walker.term(env, act.func.name, expr, act.frame) if env is not None else None

        for cond, outcome, b in frames.guards(act.func, pc, cond_at):
            t = cond_at(pc, cond)
            if settled is not None and not stored.settled(t, settled):
                continue
            try:
                c = terms.condition(t, self.values, self.layout, self.pb, lambda x: self._leaf(x, k))
            except _Unknown:
                continue
            self.constraints.append(c if outcome else self.values.not_(c))

    def _creation_guards(self, k: int, tp: ThreadPlan) -> None:
        """A thread of the context was started by a creation of its routine:
        when that is a single one in ``main``, what held there over values
        ``main`` computes once (an assumption on an input checked before
        starting the thread) holds in the context too."""
        routine, act = tp.start.routine, self.p.main_act
        if not routine or routine == self.program.entry or act is None:
            return
        sites = create_sites(self.program, self.p.facts, routine)
        if len(sites) == 1 and sites[0].func == self.program.entry:
            self._guards(k, act, sites[0].pc, stored.settled_origins(self.program))

    def _loop_ranges(self, k: int, act, pc: int) -> None:
        """A signed induction variable of a loop around ``pc`` stays on its side
        of its start (it moved by whole steps, and signed overflow is an error
        a whole-program run reports): start <= i for a step up."""
        walker, V = self.p.walker, self.values
        f = act.func
        members = walker._scc_members(f, pc)
        if not members:
            return
        for v, init, step in barriers.inductions(walker, act, _head(f, members), members):
            if not (isinstance(v.type, IntType) and v.type.signed) or step == 0:
                continue
            here = self.value(v, k)
            start = self.value(init, k)
            if here is None or start is None:
                continue
            bits = v.type.bits
            self.constraints.append(V.le(start, here, bits, True) if step > 0 else V.le(here, start, bits, True))

    def _entry_params(self, k: int, tp: ThreadPlan) -> None:
        t = self.st.wthread(self.tids[k])
        f = t.frames[0].func
        for p in f.params[:1]:
            v = self.args.get((k, param_symbol(tp.start.routine, p.name)))
            if v is not None:
                t.frames[0].regs[p.name] = v

    def _cursor_envs(self) -> list:
        return [e for e in self._given_envs() if e is not None] or \
            [tp.frames[0][0] for tp in self.p.threads if tp.frames[0][0] is not None]

    def _given_envs(self) -> list:
        """Each given thread's fact at its position (None when no path reaches it)."""
        return [tp.frames[-1][0] for tp in self.p.threads if tp.start.given]

    def _shared_cells(self, prefix: str) -> dict:
        """Cells of objects outside any frame that every thread's fact agrees
        on, and those of objects a given thread owns, as its fact has them."""
        envs = self._cursor_envs()
        if not envs:
            return {}

        def wanted(base) -> bool:
            return (base[0] == "g") if prefix == "g" else (base == ("o", prefix))

        W = self.p.walker
        out = {}
        for key, term in envs[0].cells.items():
            if wanted(key[0]) and W.owner(key[0]) is None and all(e.cells.get(key) == term for e in envs[1:]):
                out[key] = term
        for k, env in enumerate(self._given_envs()):
            for key, term in (env.cells.items() if env is not None else ()):
                if wanted(key[0]) and W.owner(key[0]) == k:
                    out[key] = term
        return out

    def _globals(self) -> None:
        envs = self._cursor_envs()
        if not envs:
            return
        W = self.p.walker
        clean = frozenset(b for b in frozenset.intersection(*[e.clean for e in envs]) if W.owner(b) is None)
        for k, env in enumerate(self._given_envs()):
            if env is not None:
                clean |= {b for b in env.clean if W.owner(b) == k}
        st, E = self.st, self.E
        for base in clean:
            if base[0] != "g":
                continue
            g = self.program.global_var(base[1])
            oid = E.global_oids.get(base[1])
            if g is None or oid is None:
                continue
            obj = st.memory.writable(oid)
            obj.zeroed = True
            obj.cells = {}
            obj.array = None
            for iv in g.init:
                n = type_size(iv.type)
                if n:
                    st.memory.store(oid, iv.offset, n, E.constant(st, iv.value), self.values, self.layout)
        told = set(clean)
        for (base, off, n), term in self._shared_cells("g").items():
            if base[0] != "g":
                continue
            oid = E.global_oids.get(base[1])
            v = self.value(term, 0)
            if oid is not None and v is not None:
                st.memory.store(oid, off, n, v, self.values, self.layout)
                told.add(base)
        self.told = {b[1] for b in told}
        for name, held in sorted(self.p.held.items() if self._late() else ()):
            oid = E.global_oids.get(name)
            if ("g", name) in told or oid is None:
                continue
            g = self.program.global_var(name)
            if len(held.terms) == 1 and not held.moved:
                v = self.value(held.terms[0], 0)
                if v is None:
                    continue
                self.told.add(name)
            else:
                v = self.held_syms[name] = self.symbol(name, g.type, g.span)
                self._held(v, name)
            st.memory.store(oid, 0, type_size(g.type), v, self.values, self.layout)

    def _thread_invariants(self) -> None:
        """Bound what the context does not know by the thread-modular
        prover's invariants, which every run from ``main`` keeps whatever
        the number of threads (:class:`~distaff.analysis.modular.prover.Proof`):
        the elements of the integer globals the reaching definitions do not
        give, and what each thread's frames hold (registers, private stack
        objects, globals it knows exactly there; a frame below the
        innermost by the state at its call)."""
        E, st = self.E, self.st
        for name, b in self.global_bounds.items():
            oid = E.global_oids.get(name)
            if oid is None or name in self.told:
                continue
            if name in self.held_syms:
                self._within(self.held_syms[name], b)
                continue
            n, size = type_size(b.type), type_size(self.program.global_var(name).type)
            if not n or not isinstance(size, int) or size // n > MAX_BOUNDED_ELEMENTS:
                continue
            for off in range(0, size, n):
                where = lvalue(st, self.layout, self.layout.make(oid, off), b.type)
                v = self._bounded(where, b, self.program.global_var(name).span)
                st.memory.store(oid, off, n, v, self.values, self.layout)
        for k in range(len(self.p.threads)):
            t = st.wthread(self.tids[k])
            for j, frame in enumerate(t.frames):
                pc = frame.pc if j == len(t.frames) - 1 else frame.pc - 1
                for what, b in self.p.proof.frames.get((frame.func.name, pc), ()):
                    self._frame_bound(k, frame, pc, what, b)
        E.counters["context_invariants"] = self.bounded

    def _frame_bound(self, k: int, frame, pc: int, what, b) -> None:
        """Bound what thread ``k``'s ``frame`` (at ``pc``) holds in ``what``
        (a register, or ``("stack" | "global", object, offset)``): its value
        when it has one, else a value within ``b`` put there."""
        E, st, f = self.E, self.st, frame.func
        if isinstance(what, str):
            if frame.pc >= len(f.body) or what not in frames.live_registers(f)[frame.pc]:
                return
            v = frame.regs.get(what)
            if v is None:
                frame.regs[what] = self._bounded(f"{what}@{f.name}:{pc}#{k}", b)
                return
        else:
            kind, obj, off = what
            oid, n = (frame.stack_objs if kind == "stack" else E.global_oids).get(obj), type_size(b.type)
            if oid is None:
                return
            v = st.memory.peek(oid, off, n)
            if v is None:
                where = lvalue(st, self.layout, self.layout.make(oid, off), b.type)
                v = self._bounded(f"{where}@{f.name}:{pc}#{k}" if kind == "stack" else where, b)
                st.memory.store(oid, off, n, v, self.values, self.layout)
                return
        if not isinstance(v, int):
            self._within(v, b)

    def _bounded(self, name: str, b, span=None):
        """A value the context knows only by bound ``b``: the one value it
        allows, else symbol ``name`` within it."""
        if b.lo is not None and b.lo == b.hi:
            self.bounded += 1
            return b.lo & mask(b.type.bits)
        v = self.symbol(name, b.type, span)
        self._within(v, b)
        return v

    def _within(self, v, b) -> None:
        """Constrain ``v`` to bound ``b`` (:class:`~distaff.analysis.modular.prover.Bound`)."""
        V, bits, signed = self.values, b.type.bits, b.type.signed
        parts = []
        if b.lo is not None:
            parts.append(V.le(b.lo & mask(bits), v, bits, signed))
        if b.hi is not None:
            parts.append(V.le(v, b.hi & mask(bits), bits, signed))
        self.constraints.append(V.and_(*parts))
        self.bounded += 1

    def _late(self) -> bool:
        """Whether a thread has been created at this context (what
        :mod:`.stored` says holds only from the first creation on)."""
        return any(self._after_creation(tp.start.routine, tp.start.frames[0][1] if tp.start.full_stack else None)
                   for tp in self.p.threads if tp.start.given and tp.start.routine)

    def _after_creation(self, root: str, main_pc: int | None) -> bool:
        """Whether code reached from ``root`` (a thread routine, or ``main``
        at its own ``main_pc``; None: not known) runs only once a thread has
        been created: a thread exists only once created; main, from the pcs
        a creation reaches."""
        if root == self.program.entry:
            return main_pc is not None and main_pc in self.p.walker.concurrent_main
        return root in self.program.thread_routines()

    def _held(self, v, name: str) -> None:
        """``v`` is a value global ``name`` had after the first thread
        creation: constrain it as :mod:`.stored` says (nothing when a term of
        its values has no value here)."""
        held, V = self.p.held[name], self.values
        bits = self.program.global_var(name).type.bits
        vals = [self.value(t, 0) for t in held.terms]
        if None in vals or not vals:
            return
        if not held.moved:
            self.constraints.append(V.or_(*(V.eq(v, x, bits) for x in vals)))
            return
        wide = 2 * bits  # the difference of two values of the type, exactly
        options = []
        for x in vals:
            d = V.sub(V.sext(v, bits, wide), V.sext(x, bits, wide), wide)
            parts = []
            if held.low is not None:
                parts.append(V.le(held.low & mask(wide), d, wide, True))
            if held.high is not None:
                parts.append(V.le(d, held.high & mask(wide), wide, True))
            if held.step:
                parts.append(V.eq(V.rem(d, held.step, wide, True), 0, wide))
            options.append(V.and_(*parts))
        self.constraints.append(V.or_(*options))

    def _loaded_global(self, sym: Sym) -> str | None:
        """The global whose value symbol ``sym`` is, read by a load that runs
        only after the first creation, when :mod:`.stored` knows it."""
        if not sym.read or sym.read not in self.p.held or not isinstance(sym.origin[1], int):
            return None
        # the walk's frame names its root and, from main, main's pc on the way ("main>3:f")
        root, _, rest = sym.origin[0].partition(">")
        late = self._after_creation(root, int(rest.split(":", 1)[0]) if rest else sym.origin[1])
        g = self.program.global_var(sym.read)
        return sym.read if late and sym.type == canon_type(g.type) else None

    def _materialised_cells(self) -> None:
        done = set()
        while True:
            todo = [k for k in self.materialised if k not in done]
            if not todo:
                return
            for key in todo:
                done.add(key)
                oid = self.materialised[key]
                for (base, off, n), term in self._shared_cells(key).items():
                    if base == ("o", key):
                        v = self.value(term, 0)
                        if v is not None:
                            self.st.memory.store(oid, off, n, v, self.values, self.layout)

    def _handles(self) -> None:
        """Thread handles written by creations name the context's thread of
        that routine, when there is exactly one."""
        by_routine: dict[str, list[int]] = {}
        for k, tp in enumerate(self.p.threads):
            if tp.start.routine and tp.start.routine != self.program.entry:
                by_routine.setdefault(tp.start.routine, []).append(self.tids[k])
        for (func, pc), frame in self.p.walker.observed.create_frames.items():
            routines = self.p.facts.calls.routines_at(func, pc)
            if len(routines) == 1 and len(by_routine.get(routines[0], ())) == 1 and \
                    not any(c.in_loop for c in create_sites(self.program, self.p.facts, routines[0])):
                self.handle_ids[thread_symbol(frame, pc)] = by_routine[routines[0]][0]

    # ------------------------------------------------------------------
    # synchronization

    def _waiters(self) -> None:
        """Threads positioned at a condition or barrier wait start blocked in it."""

        E, st = self.E, self.st
        arrived: dict[int, int] = {}
        for k, tp in enumerate(self.p.threads):
            if tp.waits is None:
                continue
            tid = self.tids[k]
            i = self.program.function(tp.start.func).body[tp.start.pc]
            q = E.peek(st, tid, i.args[0])
            if q is None:
                continue
            if tp.waits is Op.COND_WAIT:
                m = E.peek(st, tid, i.args[1])
                if m is None:
                    continue
                sync.block(st, tid, q, f"a signal on {sync._name(E, st, q)}")
                t = st.wthread(tid)
                t.phase, t.phase_arg = "cond", m
            else:
                f = st.wframe(tid)
                if i.dst is not None:
                    f.regs[i.dst.name] = 0
                f.pc += 1
                sync.block(st, tid, q, f"barrier {sync._name(E, st, q)}")
                arrived[q] = arrived.get(q, 0) + 1
        self.arrived = arrived

    def _lock_value(self, t, k: int, tp: ThreadPlan):
        """The engine value of lock term ``t`` of thread ``k``: the term itself
        with reaching definitions; without them, the register (plus a
        constant) of one of its frames that holds it, or a constant address."""
        if t is ANY:
            return None
        if self.rd:
            return self.value(t, k)
        if terms.is_constant(t) and not any(isinstance(x, ObjRef) for x in terms.leaves(t)):
            return self.value(t, k)
        thread = self.st.threads[self.tids[k]]
        for j, (env, _) in enumerate(tp.frames):
            if env is None or j >= len(thread.frames):
                continue
            frame = thread.frames[j]
            for name, rt in env.regs.items():
                delta = _offset_from(t, rt)
                if delta is None:
                    continue
                reg = next((r for r in _regs(frame.func) if r.name == name), None)
                if reg is None:
                    continue
                v = self.E.reg(self.st, self.tids[k], reg) if j == len(thread.frames) - 1 else frame.regs.get(name)
                if v is None:
                    continue
                return self.layout.add(v, delta, self.values) if delta else v
        return None

    def _locks(self) -> None:
        facts = []
        for k, tp in enumerate(self.p.threads):
            env = tp.frames[-1][0] if tp.start.given else None
            if env is None:
                continue
            tid = self.tids[k]
            held_may, held_must = set(env.locks.held_may), set(env.locks.held_must)
            if tp.waits is Op.COND_WAIT and self.st.threads[tid].status == BLOCKED:
                i = self.program.function(tp.start.func).body[tp.start.pc]
                act = tp.frames[-1][1]
                m = self.p.walker.term(env, tp.start.func, i.args[1], act.frame if act else tp.start.func)
                m = _lock_key(m)
                held_may.discard(m)
                held_must.discard(m)
            for t in held_may:
                v = self._lock_value(t, k, tp)
                must = t in held_must and v is not None
                if v is None:
                    facts.append(LockFact(None, tid, False))
                elif must and isinstance(v, int) and v not in self.st.locks:
                    self.st.locks[v] = tid
                else:
                    facts.append(LockFact(v, tid, must))
        self.st.ctx = replace(self.st.ctx, lock_facts=tuple(facts))

    def _unknown_sync(self) -> None:
        facts = tuple(LockFact(None, self.tids[k], False) for k, tp in enumerate(self.p.threads) if tp.start.given)
        counts = []
        for addr_t in self.p.counts:
            a = self._lock_value(addr_t, 0, self.p.threads[0]) if self.p.threads else None
            if isinstance(a, int):
                counts.append(a)
        st = self.st
        for a in counts:
            n = self.symbol(f"count@{sync_name(self.E, st, a)}", IntType(32, False), None)
            st.barriers[a] = (n, self.arrived.get(a, 0))
        for a, k in self.arrived.items():
            if a not in st.barriers:
                n = self.symbol(f"count@{sync_name(self.E, st, a)}", IntType(32, False), None)
                st.barriers[a] = (n, k)
        st.ctx = replace(st.ctx, lock_facts=facts, unknown_barriers=True)

    def _barriers(self) -> None:
        st, V = self.st, self.values
        known = []
        for addr_t, count_ts in self.p.counts.items():
            a = self.value(addr_t, 0) if self.rd else self._lock_value(addr_t, 0, self.p.threads[0])
            if not isinstance(a, int):
                continue
            vals = [self.value(c, 0) if self.rd or terms.is_constant(c) else None for c in count_ts]
            arrived = self.arrived.get(a, 0)
            if any(v is None for v in vals) or not vals:
                n = self.symbol(f"count@{sync_name(self.E, st, a)}", IntType(32, False), None)
            elif len(vals) == 1:
                n = V.convert(vals[0], bits_of(count_ts[0].type, self.pb), 32, False)
            else:
                n = self.symbol(f"count@{sync_name(self.E, st, a)}", IntType(32, False), None)
                self.constraints.append(V.or_(*[V.eq(n, V.convert(v, bits_of(c.type, self.pb), 32, False), 32)
                                               for v, c in zip(vals, count_ts)]))
            self.constraints.append(V.lt(arrived, n, 32, False))
            st.barriers[a] = (n, arrived)
            known.append((a, n))
        for a, k in self.arrived.items():
            if a not in st.barriers:
                n = self.symbol(f"count@{sync_name(self.E, st, a)}", IntType(32, False), None)
                self.constraints.append(V.lt(k, n, 32, False))
                st.barriers[a] = (n, k)
        st.ctx = replace(st.ctx, barrier_counts=tuple(known), unknown_barriers=not self.rd)

    def _matches(self) -> None:
        V = self.values
        for ka, sa, kb, sb in self.p.matches:
            va = self._induction_value(sa, ka)
            vb = self._induction_value(sb, kb)
            if va is not None and vb is not None:
                self.constraints.append(V.eq(va, vb, bits_of(sa.type, self.pb)))

    def _induction_value(self, sym: Sym, k: int):
        if self.rd:
            return self.value(sym, k)
        return self._lock_value(sym, k, self.p.threads[k])

    # ------------------------------------------------------------------

    def _heap(self) -> SymbolicHeap:
        pts = self.p.facts.points_to
        objects: dict[int, list[int]] = {}
        complete = set()

        index = object_index(pts)
        for g in self.program.globals:
            k = index.get(("g", g.name))
            if k is not None and g.name in self.E.global_oids:
                objects.setdefault(k, []).append(self.E.global_oids[g.name])
                complete.add(k)
        for key, oid in self.materialised.items():
            if key.startswith("heap:"):
                frame, pc = key[len("heap:"):].rsplit(":", 1)

                k = index.get(("h", func_of_frame(frame), int(pc)))
                if k is not None:
                    objects.setdefault(k, []).append(oid)
                    if not any(t.start.given and t.start.routine == self.program.entry for t in self.p.threads):
                        complete.add(k)
            else:
                k = index.get(("s", self.program.entry, key.rsplit(":", 1)[1]))
                if k is not None:
                    objects.setdefault(k, []).append(oid)
        stacks_known = all(tp.start.full_stack for tp in self.p.threads)
        for k, o in enumerate(pts.objects):
            if o.kind is ObjectKind.STACK and (stacks_known or o.func == self.program.entry):
                complete.add(k)
        return SymbolicHeap(self.program, self.p.facts, objects, frozenset(complete))


class _Unknown(Exception):
    pass


def _positions(starts: list[ThreadStart]) -> list[tuple[str, int]]:
    """``(routine, pc)`` of the given threads whose outermost frame is their
    routine's: the pc in it (a call in progress when there are more frames)."""
    return [(s.routine, s.frames[0][1]) for s in starts if s.given and s.routine and s.full_stack]


_STALLS = frozenset({Op.MUTEX_LOCK, Op.COND_WAIT, Op.BARRIER_WAIT, Op.SEM_WAIT, Op.THREAD_JOIN, Op.RWLOCK_RDLOCK,
                     Op.RWLOCK_WRLOCK, Op.ONCE, Op.ASSUME})


def _may_not_finish(program: ir.Program, facts: Facts, routine: str) -> bool:
    """Whether a thread of ``routine`` started again from its entry might
    never reach its end although an earlier run did: it may block, wait
    on an assumption or loop. Such a thread, when the context does not place
    it, may also have ended before the context (restarting it alone could
    leave a joiner waiting for good and lose what lies past the join); one
    that always gets through stands for its ended run by running again."""
    for name in facts.calls.reachable(routine):
        f = program.function(name)
        if f is None:
            continue
        if cyclic_pcs(f) or any(isinstance(i, Intrinsic) and i.op in _STALLS for i in f.body):
            return True
    return False


def sync_name(E, st, a: int) -> str:
    return lvalue(st, E.layout, a)


def _head(f: ir.Function, body) -> int:
    heads = [p for p in body if any(p in f.successors(q) for q in range(len(f.body)) if q not in body)]
    return min(heads) if heads else min(body)


def _per_instance(t, frame: str, members):
    """``t`` with the symbols introduced in the creation loop made per-thread
    (each instance was created in its own iteration)."""

    def sub(x):
        if isinstance(x, Sym) and not x.per_thread and stale_term(x, frame, frozenset(members)):
            return Sym(x.name, x.type, x.origin, True)
        return None

    return terms.substitute(t, sub)


def _lock_key(t):
    return lock_term(t)


def _offset_from(t, base) -> int | None:
    """``k`` when ``t`` is ``base`` plus the constant ``k`` bytes, else None."""
    if t == base:
        return 0
    if isinstance(t, ir.PtrAdd) and isinstance(t.offset, ir.Const) and t.ptr == base:
        return t.offset.value
    if isinstance(base, Sym) and isinstance(t, Sym):
        return 0 if t.name == base.name else None
    return None


def _regs(f: ir.Function) -> list:
    out, seen = [], set()
    for r in f.params:
        out.append(r)
        seen.add(r.name)
    for i in f.body:
        d = getattr(i, "dst", None)
        if d is not None and d.name not in seen:
            seen.add(d.name)
            out.append(d)
    return out


__all__ = ["ContextStart", "plan", "ContextHooks", "Plan"]
