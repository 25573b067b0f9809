"""Symbolic execution of the IR: one run forward, from pivot to pivot.

:class:`Engine` gives the semantics of every instruction on a
:class:`~distaff.analysis.symex.state.State` and runs threads between scheduling
points; the explorer (:mod:`distaff.analysis.explore.explorer`) decides which
continuation to take at each pivot. The engine's contract with the explorer:

* :meth:`Engine.initial_state` -- the program's start (``main`` with its
  parameters as symbols) or a program context;
* :meth:`Engine.advance` runs the state in place until a pivot (returned as a
  :class:`~distaff.analysis.symex.pivots.Pivot`; the state is then a snapshot to clone
  from) or a leaf (:class:`~distaff.analysis.symex.pivots.Leaf`);
* :meth:`Engine.resume` applies one option of a pivot to a clone of the
  snapshot.

Scheduling (the README, "What the model covers"): a *scheduling step* (a block) runs one
thread through its next global (gamma) instruction and the local instructions
after it, stopping before its following global instruction, or when it
blocks or ends. Context switches therefore happen only before global
instructions. An interleaving pivot offers every enabled thread (only the
owner while an atomic region is open). Exiting the process (``main``
returning, ``exit``, ``abort``) counts as global, so other threads may run
before it; so does a failure that ends the process from local code (another
assertion failing, a run-time error) when it comes after the block's global
operation: it is kept pending and performed as the thread's next step (the
failing assertion's step enters the trace then, not before). Each
step produces one :class:`~distaff.analysis.symex.state.Event` (reported to
``observer``) for partial order reduction.

Semantics of values and memory: C integers are bit-vectors of their
width; signed ``+ - *``, unary ``-``, ``/`` and ``%`` (``INT_MIN / -1``)
overflow, shift counts outside ``[0, width)``, division by zero, null and
invalid pointer dereference, out-of-bounds access, use after free (and of a
dead stack object), double or invalid free, writes to string literals and
unlocking a mutex not held are run-time errors: when the path condition allows
one, the run forks into the error (a leaf reported as a finding) and the safe
side (continuing with the negated condition). A pointer whose object is
symbolic forks once per feasible object (at most 16, else the check is
inconclusive). Registers read before any write, and memory of stack objects
and ``malloc`` never written, are fresh symbols. ``main``'s ``argc`` and
``argv`` are a bounded symbolic command line (``command_line``: at most
that many arguments of at most that many bytes, or any command line a
program that reads it only as numbers can tell apart;
:mod:`distaff.analysis.symex.arguments`). External functions
(no body) return fresh symbols (a ``_Bool`` one 0 or 1) and make the objects
their pointer arguments point to unknown (a few read-only library functions
excepted); body-less synchronization or atomic functions (rwlocks,
semaphores, ``__sync_*``, ``__atomic_*``, ...) are not modelled: the check
stops undecided (unsupported) rather than drop their effect.

Checks: the *target* assertion (``target``, an ``AssertionSite.id``) fails
when its negation is feasible (leaf VIOLATION); when another assertion's
negation is feasible the run stops there (leaf STOPPED, a full run: that
assertion has its own sub-check) and continues on the side where it holds,
so for the target every other assertion acts as ``assume(cond)``. ``abort()`` and
``exit()`` end the run without error (SV-COMP). Back edges taken per frame
and target, and activations of one function per thread, are bounded by
``unwind``. A thread exceeding it stops there for good (status ``CUT``,
:meth:`Engine.cut_thread`) and the other threads go on: every run is still a
prefix of a real execution, in which that thread is delayed indefinitely. A
run in which some thread was cut ends at a leaf CUT where it would have ended
normally or deadlocked (a lock held or a join waited on by a cut thread is no
deadlock); a violation or another assertion's failure stays what it is. A
thread cut inside an atomic region cuts the whole run (nobody else may run
there), as does the ``thread_cuts`` optimisation switched off.

pthreads (see :mod:`distaff.analysis.symex.sync`): one global FIFO wait queue as in
the arbitrary-context paper §4.2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from distaff.analysis import ir
from distaff.analysis.evaluate import Evaluator
from distaff.analysis.ir import (
    FUNCTION_OBJECT, STACK_OBJECT, Addr, Assign, Branch, Call, Cast, Const, Intrinsic, IntType, Jump, Kind, Load, Op,
    PtrAdd, PtrType, Reg, Return, Store, bits_of, is_scalar, is_signed, type_size,
)
from distaff.analysis.liveness import live_registers
from distaff.analysis.options import DEFAULT_SYM_ARG_LEN, DEFAULT_SYM_ARGS
from distaff.analysis.symex import awaits as _awaits
from distaff.analysis.symex import twins as _twins
from distaff.analysis.symex import rmw as _rmw
from distaff.analysis.symex import arguments, c11, intrinsics, libc, sync
from distaff.analysis.symex.weak import Graph
from distaff.analysis.symex.memory import MemObject, PointerLayout
from distaff.analysis.symex.pivots import (
    BRANCH_PIVOT, INTERLEAVE_PIVOT, Budget, EngineLimit, Leaf, LeafKind, LeafReached, Option, Pivot, PivotReached,
    ThreadCut,
)
from distaff.analysis.symex.state import (
    BLOCKED, CUT, ENABLED, ENDED, MAY_HAVE_ENDED, Access, Effect, Event, Frame, PathCond, PlacedAccess, State, Symbol,
    Thread,
)
from distaff.analysis.symex.trace import lvalue
from distaff.analysis.symex.unmodelled import CONTEXT, unsupported_everywhere
from distaff.analysis.symex.values import Val, Values, mask

VALUE_LIMIT = 16  # most values a symbolic pointer or size may take before the check gives up

VISIBLE_OPS = ir.SYNC_OPS | {Op.EXIT, Op.ABORT}
# free loop iterations (Engine.back_edge) one run may take before it is cut
FREE_ITERATIONS = 20_000
COUNTED: Final = -1  # the mark of a loop whose rounds its own registers count (Engine._counted)
DEFERRED_LEAVES = frozenset({LeafKind.ERROR, LeafKind.STOPPED})


class ThreadEvaluator(Evaluator):
    """Expressions as thread ``tid`` of ``st`` evaluates them: its registers,
    its stack and thread-local objects, and a fork at every run-time check
    (the error side ends the run). With ``tid`` None, the initialisers of
    static storage, before any thread runs."""

    __slots__ = ("engine", "st", "tid")

    def __init__(self, engine: "Engine", st: State, tid: int | None):  # one per expression: kept cheap
        self.values, self.layout, self.ptr_bits = engine.values, engine.layout, engine.ptr_bits
        self.engine, self.st, self.tid = engine, st, tid

    def reg(self, e: Reg) -> Val:
        if self.tid is None:  # an initialiser of static storage
            raise EngineLimit(f"initialiser not constant: register {e.name}")
        return self.engine.reg(self.st, self.tid, e)

    def addr(self, e: Addr) -> Val:
        return self.engine.address_of(self.st, self.tid, e)

    def check(self, message: str, ok) -> None:
        self.engine.require(self.st, ok, message)

    def unsupported(self, what: str) -> Exception:
        return EngineLimit(what)


class Engine:
    """See the module docstring. ``observer(event, state)`` is called with each
    finished scheduling step; ``record_effects`` makes every instruction leave an
    :class:`~distaff.analysis.symex.state.Effect` (for weakest preconditions);
    ``pivot_on_single`` makes a scheduling point with one enabled thread a pivot
    too. ``replay`` (a pair of iterators: schedule, choices) makes every
    decision follow a recorded trace instead of the solver, and
    ``fixed_inputs`` (symbol name -> value) fixes the inputs as they are made.
    ``placed_accesses`` records with each access where it was made
    (:class:`~distaff.analysis.symex.state.PlacedAccess`, for the race detector).
    ``silent_stores`` notes a store of the value the memory holds already
    (byte for byte the same constant or term) as a read of it: nothing
    another thread can see changes.
    ``free_waits``: condition waits return at the schedule's choice (see
    :mod:`distaff.analysis.symex.sync`; with spurious wake-ups and awaits;
    the explorer asks for it only for an assertion). ``twin_sites``: the create sites whose threads may be twins, explored up
    to their permutation (:mod:`distaff.analysis.symex.twins`).
    ``ghost_rounds``: a round of a loop that changed nothing, though a value
    it read changed meanwhile (a compare-and-swap that failed), marks its
    last event (``Event.ghost_from``) for DPOR to leave the round out;
    with ``park_futile`` the thread is parked there instead, for the rest of
    the run (:func:`distaff.analysis.symex.awaits.park`).
    ``guard_waits``: a condition wait that returns straight to the head of
    its loop awaits a change of what the loop's guard read from its first
    call, not from its second (:func:`distaff.analysis.symex.awaits.judge_guard`).
    ``commuting_rmws``: an event made of an atomic region that adds to one
    location and uses nothing it read (:mod:`distaff.analysis.symex.rmw`)
    says so (``Event.update``): DPOR lets two of them commute.
    ``context_hooks`` are a program context's answers for what its runs do
    not know (:class:`distaff.analysis.context.initial.ContextHooks`); they
    count from when they are true (the context's state is built)."""

    def __init__(self, program: ir.Program, values: Values, solver, unwind: int, budget: Budget,
                 target: str | None = None, record_effects: bool = False, park_blocked: bool = True,
                 spurious_wakeups: bool = False, concrete_loops: bool = True, thread_cuts: bool = True,
                 counted_loops: bool = True,
                 silent_stores: bool = False,
                 pivot_on_single: bool = False, observer=None, replay=None, fixed_inputs: dict[str, int] | None = None,
                 placed_accesses: bool = False, context_hooks=None,
                 guards: dict[str, frozenset[int]] | None = None, awaits: bool = True,
                 twin_sites: frozenset = frozenset(), free_waits: bool = False, ghost_rounds: bool = False,
                 commuting_rmws: bool = False, guard_waits: bool = False, park_futile: bool = False,
                 graph: str = "",
                 command_line: tuple[int, int, bool] = (DEFAULT_SYM_ARGS, DEFAULT_SYM_ARG_LEN, False)):
        self.program = program
        # (arguments, bytes each, read as numbers): main's symbolic command line
        self.command_line = command_line
        # the entry function and its instructions that read its parameters: a
        # run past one of them may depend on the command line's bounds
        self._entry = program.function(program.entry)
        self._reads_command_line = arguments.command_line_reads(self._entry) if self._entry else frozenset()
        # the runs keep an execution graph (State.weak, distaff.analysis.symex.c11):
        # "rc11" reads memory as C11 does, "sc" as sequentially consistent (to count
        # executions); "": no graph, sequentially consistent memory
        self.graph = graph
        self.c11_rmw: dict[tuple[str, int], str] = {}  # (function, pc of a Load) -> c11.rmw_load
        # a condition wait returns whenever the schedule says, signalled or
        # not (sync's docstring): with spurious wake-ups and awaits
        self.free_waits = free_waits and spurious_wakeups and awaits
        # create sites whose threads may be twins (distaff.analysis.symex.twins)
        self.twin_sites = twin_sites
        # rounds of a loop that change nothing are explored once (symex/awaits.py)
        self.awaits = awaits
        # a wait in ``while (guard) wait`` awaits a change of the guard from its first call (awaits.judge_guard)
        self.guard_waits = guard_waits and awaits
        self.wait_heads: dict[tuple[str, int], int | None] = {}  # (function, pc of a wait) -> awaits.wait_head
        # a round that changed nothing though what it read did (a failed
        # compare-and-swap) is marked for DPOR to leave out (Event.ghost_from)
        self.ghost_rounds = ghost_rounds and awaits
        # such a thread is parked for the rest of the run instead (awaits.park)
        self.park_futile = park_futile and awaits
        # an event that is an atomic update commuting with its like says so (Event.update)
        self.commuting_rmws = commuting_rmws
        self._rmw_kinds: dict[tuple[str, int], str] = {}  # (function, pc of atomic_begin) -> rmw.update_kind
        # loop round (awaits.round_key) -> the reads of one-event rounds of it that changed nothing
        self.futile: dict[tuple, list[tuple]] = {}
        self._register_loops: dict[tuple[str, int], bool] = {}  # (function, head) -> ir.register_loop
        self.locks_observable = _awaits.locks_observable(program) if awaits else True
        self._live: dict[tuple[str, int], tuple[str, ...]] = {}
        self._live_funcs: dict[str, tuple[frozenset[str], ...]] = {}
        # the target is an error call: taking one of these branches (function ->
        # pcs, distaff.analysis.static.guards) executes it as a check
        self.guards = guards
        self.thread_cuts = thread_cuts  # a thread past the bound stops, not the run (see cut_thread)
        # a store of what the memory holds already is noted as a read (counted as silent_stores)
        self.silent_stores = silent_stores
        self.concrete_loops = concrete_loops  # loops decided by concrete locals run free (see back_edge)
        self.counted_loops = counted_loops  # ... and counted ones around calls and synchronization, or in memory
        self._plain_rounds: dict[tuple, bool] = {}  # (function, loop head) -> no call or synchronization in it
        self._exits: dict[tuple, bool] = {}
        self._counters_of: dict[tuple, frozenset | None] = {}  # (function, loop head) -> ir.counted_registers
        self._memory_counters: dict[tuple, tuple | None] = {}  # (function, loop head) -> ir.memory_counters
        self._creates: dict[tuple, bool] = {}  # (function, head, back edge) -> the loop creates threads
        self._derived: dict[str, frozenset] = {}
        self._derived_branch: dict[tuple, bool] = {}
        self._heads: dict[str, frozenset[int]] = {}  # function -> its loop heads (targets of back edges)
        self._temps: dict[int, tuple] = {}  # id of a program expression -> (it, its temporaries)
        self.spurious_wakeups = spurious_wakeups  # a condition wait may return unsignalled, once per thread
        self.park_blocked = park_blocked  # the "park_blocked" optimisation (see _park_blocked)
        self.counters: dict[str, int] = {}
        self.values = values
        self.solver = solver
        self.unwind = unwind
        self.budget = budget
        self.target = target
        self.record_effects = record_effects
        self.pivot_on_single = pivot_on_single
        self.observer = observer
        self.placed_accesses = placed_accesses
        self.replay = replay
        self.fixed_inputs = fixed_inputs  # replay: symbol name -> value
        # a check from a program context (distaff.analysis.context.initial.ContextHooks): resolves
        # pointers whose object is symbolic, settles locks, orders initial waiters
        self.context_hooks = context_hooks
        self.reached = False  # the target assertion (or a guard of it) was executed on a feasible path
        self.ptr_bits = program.data_model.pointer_bits
        self.layout = PointerLayout.for_bits(self.ptr_bits)
        self.span = ir.NO_SPAN  # span of the instruction being executed
        self.func_oids: dict[str, int] = {}
        self.oid_funcs: dict[int, str] = {}
        self.global_oids: dict[str, int] = {}
        # thread-local globals: their global object is the template each
        # thread's copy starts from (see _thread_copy)
        self.thread_locals = frozenset(g.name for g in program.globals if g.thread_local)
        # every run starts tainted with the unsupported constructs outside functions (unmodelled)
        self.tainted_from_start: tuple[str, ...] = unsupported_everywhere(program)
        self._vis: dict[str, tuple] = {}  # per function: 1 visible, 0 local, 2 return
        self._interleavings: dict[tuple, Pivot] = {}  # enabled threads -> their scheduling pivot
        # where the bound stopped a thread or a run, on any path: (function, line,
        # what) -> how often ("loop", "creation loop", "recursion", "free loops")
        self.cut_sites: dict[tuple[str, int, str], int] = {}
        self.steps = 0  # instructions run; the budget is polled every 16
        self._blocks = 0  # blocks started by advance; the budget is polled every 8
        self.events = 0  # visible operations finished

    # ==================================================================
    # initial states

    def base_state(self, fresh_globals: bool = False) -> State:
        st = State()
        st.taint = self.tainted_from_start
        mem = st.memory
        mem.add(MemObject(0, "NULL", "null", 0, None, None, True, {}))
        oid = 1
        for g in self.program.globals:
            zeroed = g.is_string or not fresh_globals
            obj = MemObject(oid, g.name, "string" if g.is_string else "global", type_size(g.type),
                            g.type, g.span, zeroed, {}, readonly=g.is_string)
            if not zeroed:  # a context's: what its bytes held is not known
                obj.havoc = CONTEXT + g.name
            mem.add(obj)
            self.global_oids[g.name] = oid
            oid += 1
        for name in [f.name for f in self.program.functions] + list(self.program.externals):
            if name in self.func_oids:
                continue
            mem.add(MemObject(oid, name, "function", 0, None, None, True, {}))
            self.func_oids[name] = oid
            self.oid_funcs[oid] = name
            oid += 1
        st.next_oid = oid
        for g in self.program.globals:
            if fresh_globals and not g.is_string:
                continue
            for iv in g.init:
                v = self.constant(st, iv.value)
                n = type_size(iv.type)
                if n:
                    mem.store(self.global_oids[g.name], iv.offset, n, v, self.values, self.layout)
        return st

    def constant(self, st: State, e) -> Val:
        """The value of an initialiser of static storage (a constant
        expression: constants, addresses, and what C computes from them)."""
        return ThreadEvaluator(self, st, None).value(e)

    def initial_state(self) -> State:
        """``main`` about to run, its parameters symbolic (see the module docstring)."""
        st = self.base_state()
        main = self.program.function(self.program.entry)
        if main is None:
            st.ended = True
            return st
        args = arguments.command_line(self, st, main, *self.command_line)  # (count, length, numbers)
        if self.graph:
            st.weak = Graph(sc=self.graph == "sc")
        self.spawn(st, main, args, "main", ends_process=True)
        return st

    # ==================================================================
    # objects, frames, threads, symbols

    def allocate(self, st: State, name: str, kind: str, size: Val, ctype, span, zeroed: bool) -> int:
        oid = st.next_oid
        if oid >= self.layout.max_objects:
            raise EngineLimit("too many memory objects for the pointer layout")
        st.next_oid += 1
        st.memory.add(MemObject(oid, name, kind, size, ctype, span, zeroed, {}))
        return oid

    def new_frame(self, st: State, f: ir.Function, args: Sequence[Val], ret_dst, fresh_params=False,
                   thread_name: str = "") -> Frame:
        regs = {}
        for i, p in enumerate(f.params):
            if i < len(args):
                regs[p.name] = args[i]
        objs = {}
        for sv in f.stack:
            objs[sv.name] = self.allocate(st, sv.name, "stack", type_size(sv.type), sv.type, sv.span, zeroed=False)
        uid = st.next_frame
        st.next_frame += 1
        return Frame(f, 0, regs, {}, objs, [], ret_dst, uid, st.gen)

    def spawn(self, st: State, f: ir.Function, args: Sequence[Val], name: str, ends_process: bool,
               fresh_params: bool = False) -> int:
        tid = len(st.threads)
        if name != "main":
            n = st.routine_counts.get(name, 0) + 1
            st.routine_counts[name] = n
            name = f"{name}#{n}"
        qobj = self.allocate(st, f"thread {name}", "thread", 0, None, None, zeroed=True)
        frame = self.new_frame(st, f, args, None)
        st.threads.append(Thread(tid, name, f.name, [frame], ENABLED, qobj, ends_process=ends_process,
                                 gen=st.gen))
        return tid

    def thread_queue(self, st: State, tid: int) -> int:
        """The address naming the wait queue of ``tid``'s joiners."""
        return self.layout.make(st.threads[tid].qobj)

    def start_queue(self, st: State, tid: int) -> int:
        """The address naming the wait queue of ``tid``'s twins, which start
        after its first step (:mod:`distaff.analysis.symex.twins`)."""
        return self.layout.make(st.threads[tid].qobj, 1)

    def _fresh(self, st: State, tid: int, label: str, bits: int, signed: bool, span, is_input=True,
               thread_name: str | None = None, origin: str = "", ctype=None) -> Val:
        tname = thread_name if thread_name is not None else st.threads[tid].name
        base = f"{label}@{tname}:{span.line}" if span is not None and span.line else f"{label}@{tname}"
        k = st.sym_counts.get(base, 0) + 1
        st.sym_counts[base] = k
        name = base if k == 1 else f"{base}#{k}"
        term = self.values.fresh(name, bits)
        st.add_symbol(Symbol(name, term, bits, signed, span or ir.NO_SPAN, is_input, origin,
                             ctype if isinstance(ctype, ir.FloatType) else None))
        if self.fixed_inputs is not None and name in self.fixed_inputs:
            self.constrain(st, term == self.values.const(self.fixed_inputs[name] & mask(bits), bits))
        return term

    # ==================================================================
    # path condition and forks

    def item(self, cond) -> PathCond:
        return PathCond(cond, self.values.symbols(cond), cond.get_id())

    def constrain(self, st: State, cond) -> None:
        """Add ``cond`` to the path condition (the caller knows it is feasible)."""
        if cond is True:
            return
        if cond is False:
            raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=self.span))
        d = st.pc.depth + 1 if st.pc is not None else 1
        st.pc = PathCond(cond, self.values.symbols(cond), cond.get_id(), st.pc, d)

    def is_sat(self, st: State, cond) -> bool:
        if cond is True:
            return True
        if cond is False:
            return False
        return self.solver.is_sat(st.pc, [self.item(cond)])

    def fork(self, st: State, make_options, exhaustive: bool = False, by_value: bool = False,
             known_feasible: bool = False) -> Option:
        """Choose one of the options ``make_options()`` returns (computed only
        when the choice is not forced). Options whose condition is feasible are
        candidates; with one, it is taken (its condition is implied by the path,
        so nothing is added); with several, the explorer decides
        (:class:`PivotReached`). ``exhaustive``: the options' conditions cover
        every case, so the last is feasible when no other is. ``known_feasible``:
        every option is feasible (values enumerated by the solver)."""
        if st.forced:
            taken = st.forced.pop(0)
            st.instr_taken.append(taken)
            return taken[1]
        if self.replay is not None:
            return self._replay_fork(st, make_options, by_value)
        opts = make_options()
        live = [(i, o) for i, o in enumerate(opts) if o.cond is not False]
        if not live:
            raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=self.span))
        # a fork is "considered" (recorded in the trace's choices) when its outcome
        # was not decided by constant folding; replay consumes exactly these
        considered = len(live) >= 2 or by_value
        if len(live) == 1 and not by_value:
            st.instr_taken.append((live[0][0], live[0][1], None))
            return live[0][1]
        feasible = []
        for k, (i, o) in enumerate(live):
            if known_feasible or o.cond is True:
                feasible.append((i, o))
            elif exhaustive and k == len(live) - 1 and not feasible:
                feasible.append((i, o))
            else:
                self.budget.poll()
                if self.is_sat(st, o.cond):
                    feasible.append((i, o))
        if not feasible:
            raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=self.span))
        if len(feasible) == 1:
            i, o = feasible[0]
            st.instr_taken.append((i, o, (o.payload if by_value else i) if considered else None))
            return o
        raise PivotReached(Pivot(BRANCH_PIVOT, tuple(feasible), tuple(st.instr_taken), self.span,
                                 st.current, by_value))

    def _replay_fork(self, st: State, make_options, by_value: bool) -> Option:
        opts = make_options() if not by_value else None
        if opts is not None:
            live = [(i, o) for i, o in enumerate(opts) if o.cond is not False]
            if len(live) == 1:
                st.instr_taken.append((live[0][0], live[0][1], None))
                return live[0][1]
            if not live:
                raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=self.span))
        choice = next(self.replay[1], None)
        if choice is None:
            raise EngineLimit("the trace ends before the run does")
        opt = Option(True, choice) if by_value else opts[choice]
        st.instr_taken.append((choice, opt, choice))
        return opt

    def require(self, st: State, ok, message: str) -> None:
        """Fork on a run-time error: the error side is a leaf (ERROR, ``message``)."""
        if ok is True:
            return
        if ok is False:
            raise LeafReached(Leaf(LeafKind.ERROR, message, self.span, st.current))
        opt = self.fork(st, lambda: [Option(self.values.not_(ok), "error"), Option(ok, "ok")], exhaustive=True)
        if opt.payload == "error":
            raise LeafReached(Leaf(LeafKind.ERROR, message, self.span, st.current))

    def concretize(self, st: State, v: Val, bits: int, what: str) -> int:
        """One concrete value of ``v`` per continuation: fork over every feasible
        value (at most VALUE_LIMIT)."""
        if isinstance(v, int):
            return v
        v2 = self.values.simplified(v)
        if isinstance(v2, int):
            return v2

        def options():
            vals = self._values_of(st, v, bits, what)
            return [Option(self.values.eq(v, k, bits), k) for k in vals]

        return self.fork(st, options, by_value=True, known_feasible=True).payload

    def _values_of(self, st: State, v, bits: int, what: str) -> list[int]:
        leaves = _ite_leaves(v)
        if leaves is not None:
            return [k for k in sorted(leaves) if self.is_sat(st, self.values.eq(v, k, bits))]
        found: list[int] = []
        while True:
            self.budget.poll()
            excl = [self.item(self.values.ne(v, k, bits)) for k in found]
            m = self.solver.model(st.pc, excl)
            if m is None:
                return found
            found.append(m.eval(v, model_completion=True).as_long())
            if len(found) > VALUE_LIMIT:
                raise EngineLimit(f"{what} may take more than {VALUE_LIMIT} values")

    # ==================================================================
    # scheduling

    def advance(self, st: State):
        """Run until a pivot or a leaf (see the module docstring)."""
        try:
            while True:
                self._blocks += 1
                if not self._blocks & 7:  # (a block polls as it runs too)
                    self.budget.poll()
                if st.ended:
                    raise LeafReached(self._cut_leaf(st) or Leaf(LeafKind.END))
                if st.current is None:
                    if self.park_blocked:
                        self._park_blocked(st)
                    if st.awaiting and self.free_waits:
                        _awaits.wake_waits(self, st)
                    en = st.enabled()
                    if not en and st.awaiting and _awaits.wake(self, st):
                        en = st.enabled()
                    if not en:
                        raise LeafReached(self._no_thread_leaf(st))
                    if self.replay is not None:
                        tid = next(self.replay[0], None)
                        if tid is None or tid not in en:
                            raise EngineLimit("the trace's schedule does not match the run")
                        self.start_block(st, tid)
                        continue
                    if len(en) == 1 and not self.pivot_on_single:
                        self.start_block(st, en[0])
                        continue
                    key = tuple(en)
                    pivot = self._interleavings.get(key)
                    if pivot is None:  # (frozen: one per set of enabled threads)
                        pivot = self._interleavings[key] = Pivot(
                            INTERLEAVE_PIVOT, tuple(enumerate(Option(True, t) for t in en)))
                    return pivot
                self._run_block(st)
        except PivotReached as p:
            return p.pivot
        except LeafReached as lr:
            if st.event is not None:
                self._finish_event(st)
            return lr.leaf

    def resume(self, st: State, pivot: Pivot, index: int) -> None:
        """Take option number ``index`` (into ``pivot.options``) on ``st``, a clone
        of the state the pivot was met in."""
        i, opt = pivot.options[index]
        if pivot.kind is INTERLEAVE_PIVOT:
            self.start_block(st, opt.payload)
            return
        if opt.cond is not True:
            self.constrain(st, opt.cond)
        st.forced = list(pivot.prefix) + [(i, opt, opt.payload if pivot.by_value else i)]

    def start_block(self, st: State, tid: int) -> None:
        t = st.threads[tid]
        st.current = tid
        st.seen_global = False
        st.schedule = (tid, st.schedule)
        f = t.frames[-1]
        instr = f.func.body[f.pc] if f.pc < len(f.func.body) else None
        st.event = Event(st.event_count, tid, f.func.name, f.pc, instr.span if instr else f.func.span)
        st.block_symbols = st.symbols

    def _finish_event(self, st: State) -> None:
        ev = st.event
        if st.twins is not None and ev is not None:
            self._twin_step(st, ev)
        st.events = (ev, st.events)
        st.event_count += 1
        st.event = None
        self.events += 1
        if self.observer is not None:
            self.observer(ev, st)

    def _twin_step(self, st: State, ev: Event) -> None:
        """A twin's first step lets the twin waiting for it start; a parent
        of twins must not tell them apart (distaff.analysis.symex.twins)."""
        tw = st.twins
        if ev.tid in tw.unstarted:
            st.twins = tw = _twins.started(tw, ev.tid)
            sync.wake_queue(st, self.start_queue(st, ev.tid))
        _twins.check_parent_step(tw, ev, self.layout, self.values)

    def _end_block(self, st: State) -> None:
        self._finish_event(st)
        st.current = None
        st.seen_global = False

    def _cut_leaf(self, st: State) -> Leaf | None:
        """The leaf CUT of a run that ends (or gets stuck) with a thread cut."""
        cut = [t for t in st.threads if t.status == CUT]
        if not cut:
            return None
        return Leaf(LeafKind.CUT, f"{cut[0].name} {cut[0].waits_for}", None, cut[0].tid)

    def _no_thread_leaf(self, st: State) -> Leaf:
        cut = self._cut_leaf(st)
        if cut is not None:
            return cut
        waiting = [t for t in st.threads if t.status == BLOCKED]
        if not waiting:
            return Leaf(LeafKind.END)
        parked = _awaits.parked(self, st, waiting)
        if parked is not None:  # the run in which it reads again is explored: no finding here
            self.counters["futile_run_ends"] = self.counters.get("futile_run_ends", 0) + 1
            return Leaf(LeafKind.PRUNED, f"{parked.name}'s round failed", None, parked.tid)
        timed = next((t for t in waiting if self._in_timed_wait(st, t)), None)
        if timed is not None:  # it gives up: the run where it gave up at once goes on from here
            return Leaf(LeafKind.INFEASIBLE, f"{timed.name} gives up its timed wait", None, timed.tid)
        # the finding points at a thread spinning forever, else at one stuck on
        # a lock, condition or barrier rather than at a join that only waits for it
        spins = {t.tid for t in waiting if t.phase == "await" and not _awaits.in_wait(t)}
        waiting.sort(key=lambda t: (t.tid not in spins, t.waits_for.endswith(" to end"), t.tid))
        parts = []
        for t in sorted(waiting, key=lambda t: t.tid):
            f = t.frames[-1]
            line = f.func.body[f.pc].span.line if f.pc < len(f.func.body) else f.func.span.line
            if t.tid in spins:  # "t#1 spins forever at line 14: `flag` never changes"
                parts.append(f"{t.name} spins forever at line {line}: {t.waits_for.removesuffix(' to change')} "
                             f"never change{'s' if ' and ' not in t.waits_for else ''}")
            else:
                parts.append(f"{t.name} waits for {t.waits_for} (line {line})")
        first = waiting[0].frames[-1]
        span = first.func.body[first.pc].span if first.pc < len(first.func.body) else first.func.span
        head = "stuck: " if waiting[0].tid in spins else "deadlock: "
        return Leaf(LeafKind.DEADLOCK, head + "; ".join(parts), span, waiting[0].tid)

    @staticmethod
    def _in_timed_wait(st: State, t) -> bool:
        """Is blocked ``t`` in a wait with a deadline (not in the mutex
        re-acquisition after a condition wait, which waits for good)?"""
        f = t.frames[-1]
        i = f.func.body[f.pc] if f.pc < len(f.func.body) else None
        if not isinstance(i, Intrinsic) or not ir.has_deadline(i):
            return False
        return i.op is not Op.COND_WAIT or next((a for a, tid in st.wq if tid == t.tid), None) != t.phase_arg

    def _park_blocked(self, st: State) -> None:
        """Put on the wait queue every enabled thread whose next operation would
        block with certainty (lock of a held mutex, join of a running thread,
        re-acquiring a held mutex after a condition wait), instead of
        scheduling it only to find that out: a failed attempt changes nothing,
        so the runs saved are runs of no interest. Optimisation ``park_blocked``
        (switchable; counted as ``parked_threads``)."""
        for t in st.threads:
            if t.status != ENABLED or t.pending is not None:
                continue
            f = t.frames[-1]
            if f.pc >= len(f.func.body) or type(f.func.body[f.pc]) is not Intrinsic:
                continue
            wait = self._would_block(st, t)
            if wait is not None:
                self.counters["parked_threads"] = self.counters.get("parked_threads", 0) + 1
                queue, what, span = wait
                st.add_step(t.tid, span, f"wait for {what}", op=("blocked", f.func.body[f.pc].op.value))
                sync.block(st, t.tid, queue, what)

    def _would_block(self, st: State, t: Thread):
        f = t.frames[-1]
        if f.pc >= len(f.func.body):
            return None
        i = f.func.body[f.pc]
        if not isinstance(i, Intrinsic):
            return None
        op = i.op
        if (op is Op.MUTEX_LOCK and not ir.has_deadline(i)) or (op is Op.COND_WAIT and t.phase == "cond"):
            a = t.phase_arg if op is Op.COND_WAIT else self.peek(st, t.tid, i.args[0])
            if isinstance(a, int) and a in st.locks and st.locks[a] != t.tid:  # its own: a relock

                name = lvalue(st, self.layout, a)
                return a, f"{name} (held by {st.threads[st.locks[a]].name})", i.span
        elif op is Op.THREAD_JOIN:
            h = self.peek(st, t.tid, i.args[0])
            if isinstance(h, int) and h < len(st.threads) and h != t.tid and st.threads[h].status != ENDED:
                return self.thread_queue(st, h), f"{st.threads[h].name} to end", i.span
        return None

    def peek(self, st: State, tid: int, e) -> int | None:
        """The value of ``e`` when it is concrete and needs no check, else None."""
        if isinstance(e, Reg):
            v = st.threads[tid].frames[-1].regs.get(e.name)
            return v if isinstance(v, int) else None
        if isinstance(e, Const):
            return e.value & mask(bits_of(e.type, self.ptr_bits))
        if isinstance(e, Addr):
            try:
                return self.address_of(st, tid, e, create=False)  # a peek changes nothing
            except EngineLimit:
                return None
        if isinstance(e, PtrAdd):
            p, o = self.peek(st, tid, e.ptr), self.peek(st, tid, e.offset)
            if p is None or o is None:
                return None
            o = self.values.convert(o, bits_of(e.offset.type, self.ptr_bits), self.ptr_bits, is_signed(e.offset.type))
            return self.layout.add(p, o, self.values)
        if isinstance(e, Cast) and is_scalar(e.type) and is_scalar(e.arg.type) and not (
                isinstance(e.type, IntType) and e.type.is_bool):
            v = self.peek(st, tid, e.arg)
            if v is None:
                return None
            return self.values.convert(v, bits_of(e.arg.type, self.ptr_bits), bits_of(e.type, self.ptr_bits),
                                  is_signed(e.arg.type))
        return None

    def _visible(self, t: Thread, f: Frame) -> bool:
        vis = self._vis.get(f.func.name)
        if vis is None:
            vis = self._vis[f.func.name] = tuple(_visibility(i) for i in f.func.body)
        k = vis[f.pc] if f.pc < len(vis) else 2
        if k == 2:  # a return: visible when it ends the process
            return len(t.frames) == 1 and t.ends_process
        return k == 1

    def _run_block(self, st: State) -> None:
        tid = st.current
        budget = self.budget
        t = st.threads[tid]
        if t.pending is MAY_HAVE_ENDED:
            if self._start_or_end(st, tid):
                return
        elif t.pending is not None:
            if t.pending_step is not None:  # the failure happens now, so its step is recorded now
                st.steps = (t.pending_step, st.steps)
            raise LeafReached(t.pending)
        while True:
            t = st.threads[tid]
            if t.status != ENABLED or st.ended:
                self._end_block(st)
                return
            f = t.frames[-1]
            visible = self._visible(t, f)
            if visible and st.seen_global and t.atomic == 0:
                self._end_block(st)
                return
            self.steps += 1
            if not self.steps & 15:
                budget.poll()
            if visible and st.event is not None and not st.seen_global:
                st.event.func, st.event.pc = f.func.name, f.pc
                st.event.span = f.func.body[f.pc].span if f.pc < len(f.func.body) else f.func.span
            self._exec(st, tid, f)
            if st.current is None:  # the block ended inside (a deferred abort)
                return
            if visible:
                st.seen_global = True

    def _start_or_end(self, st: State, tid: int) -> bool:
        """A thread a context starts at its entry may as well have run to its
        end before the context (the context does not say): a branch chooses.
        True when it chose the end (the thread has ended, its block too)."""
        t = st.threads[tid]
        span = self.span = t.frames[0].func.span
        st.instr_taken = []
        ended = self.fork(st, lambda: [Option(True, False), Option(True, True)]).payload
        self._commit_choices(st)
        w = st.wthread(tid)
        w.pending = None
        if not ended:
            return False
        st.add_step(tid, span, f"{w.name} had already ended before this context")
        while w.frames:
            st.release(w.frames.pop())
        retval = self._fresh(st, tid, "retval", self.ptr_bits, False, span, is_input=False)  # not known, not chosen
        sync.end_thread(self, st, tid, retval)
        self._end_block(st)
        return True

    def _exec(self, st: State, tid: int, f: Frame) -> None:
        if st.instr_taken:
            st.instr_taken = []
        if f.pc >= len(f.func.body):
            self.span = f.func.span
            try:
                self._return(st, tid, None, None)
            finally:
                self._commit_choices(st)
            return
        instr = f.func.body[f.pc]
        self.span = instr.span
        pc = f.pc
        if pc in self._reads_command_line and f.func is self._entry and not st.command_line:
            st.command_line = True
            self.counters["command_line_read"] = self.counters.get("command_line_read", 0) + 1
        try:
            _dispatch(self, st, tid, instr)
        except PivotReached:
            raise
        except ThreadCut:
            self._commit_choices(st)
            return
        except LeafReached as lr:
            self._commit_choices(st)
            if lr.leaf.kind in DEFERRED_LEAVES and self._defer(st, tid, lr.leaf):
                return
            raise
        self._commit_choices(st)
        if self.awaits:
            self._entered(st, tid, f, pc)

    def _entered(self, st: State, tid: int, f: Frame, pc: int) -> None:
        """The step from ``pc`` of frame ``f`` entered a loop head other than
        by a back edge (going forward, calling, returning): a round starts
        there, so the loop's first iteration is a round as much as the ones
        after a back edge (:mod:`distaff.analysis.symex.awaits`)."""
        t = st.threads[tid]
        if not t.frames:
            return
        g = t.frames[-1]
        if g.uid == f.uid and g.pc <= pc:
            return
        heads = self._heads.get(g.func.name)
        if heads is None:
            heads = self._heads[g.func.name] = ir.loop_heads(g.func)
        if g.pc in heads:
            _awaits.anchor(self, st, tid, g.pc)

    def _defer(self, st: State, tid: int, leaf: Leaf) -> bool:
        """Keep an abort or crash in local code pending when it follows the
        block's global operation and another thread could run: in C the thread
        may be preempted right before it. The block ends here."""
        t = st.threads[tid]
        if not st.seen_global or t.atomic > 0:
            return False
        if not any(o.status == ENABLED and o.tid != tid for o in st.threads):
            return False
        w = st.wthread(tid)
        w.pending = leaf
        if leaf.kind is LeafKind.STOPPED and st.steps is not None and st.steps[0].tid == tid:
            # the failing assertion's step leaves the trace until the failure happens:
            # a run in which another thread goes first never sees it (the process
            # has not aborted yet)
            w.pending_step, st.steps = st.steps
        self._end_block(st)
        return True

    @staticmethod
    def _commit_choices(st: State) -> None:
        taken = st.instr_taken
        if taken:  # (most instructions fork nothing: their lists stay as they are)
            for _, _, rec in taken:
                if rec is not None:
                    st.choices = (rec, st.choices)
            st.instr_taken = []
        if st.forced:
            st.forced = []

    # ==================================================================
    # expressions

    def live_at(self, func: ir.Function, pc: int) -> tuple[str, ...]:
        """The registers live at ``pc`` of ``func``, in name order."""
        key = (func.name, pc)
        hit = self._live.get(key)
        if hit is None:
            live = self._live_registers(func)
            hit = self._live[key] = tuple(sorted(live[pc])) if pc < len(live) else ()
        return hit

    def _live_registers(self, func: ir.Function) -> tuple[frozenset[str], ...]:
        """:func:`live_registers` of ``func``, remembered."""
        live = self._live_funcs.get(func.name)
        if live is None:
            live = self._live_funcs[func.name] = live_registers(func)
        return live

    def update_kind(self, func: ir.Function, pc: int) -> str:
        """:func:`distaff.analysis.symex.rmw.update_kind` of the atomic region
        beginning at ``pc`` of ``func``, remembered."""
        key = (func.name, pc)
        hit = self._rmw_kinds.get(key)
        if hit is None:
            hit = self._rmw_kinds[key] = _rmw.update_kind(func, pc, self._live_registers(func))
        return hit

    def round_neutral(self, i: Intrinsic) -> bool:
        """May a round of a loop contain ``i`` and still change nothing
        (:mod:`distaff.analysis.symex.awaits`)?"""
        op = i.op
        if op in _awaits.NEUTRAL_OPS:
            return True
        if op in _awaits.LOCK_OPS:  # (a timed lock sees a held mutex; a timed wait's result is a register)
            return not self.locks_observable and not (op is Op.MUTEX_LOCK and ir.has_deadline(i))
        return op is Op.EXTERNAL and i.name in libc.PURE

    def reach(self, st: State) -> None:
        """The run executed the target assertion, or took a guard of its error call."""
        self.reached = True
        st.reached = True
        if st.command_line:  # its outcome may depend on the bound of the command line
            self.counters["command_line_reached"] = self.counters.get("command_line_reached", 0) + 1

    def reg(self, st: State, tid: int, r: Reg) -> Val:
        v = st.threads[tid].frames[-1].regs.get(r.name)
        if v is None:
            # read before any write: a fresh symbol, kept so later reads agree
            b = bits_of(r.type, self.ptr_bits)
            label = r.name if not r.name.startswith("%") else "tmp"
            v = self._fresh(st, tid, label, b, is_signed(r.type), self.span, ctype=r.type)
            st.wframe(tid).regs[r.name] = v
        return v

    def address_of(self, st: State, tid: int | None, e: Addr, create: bool = True) -> int:
        k = e.kind
        if k is FUNCTION_OBJECT:
            oid = self.func_oids.get(e.name)
        elif k is STACK_OBJECT:
            oid = st.threads[tid].frames[-1].stack_objs.get(e.name) if tid is not None else None
            if oid is None:
                oid = self.global_oids.get(e.name)
        elif e.name in self.thread_locals and tid is not None:
            oid = self._thread_copy(st, tid, e.name, create)
        else:
            oid = self.global_oids.get(e.name)
        if oid is None:
            raise EngineLimit(f"unknown object {e.name}")
        return self.layout.make(oid)

    def _thread_copy(self, st: State, tid: int, name: str, create: bool) -> int | None:
        """Thread ``tid``'s own copy of the thread-local ``name``, made from
        the template (its initial value) the first time the thread uses it;
        None when it has none yet and ``create`` is off."""
        key = ("thread_local", name, tid)
        oid = st.specific.get(key)
        if oid is None and create:
            oid = st.next_oid
            st.next_oid += 1
            template = st.memory.get(self.global_oids[name])
            copy = template.copy(st.gen)
            copy.oid = oid
            st.memory.add(copy)
            st.specific = {**st.specific, key: oid}
        return oid

    def ev(self, st: State, tid: int, e) -> Val:
        """The value of a pure expression as thread ``tid`` computes it (may
        fork on run-time errors: :mod:`distaff.analysis.evaluate`)."""
        if isinstance(e, Reg):  # the commonest leaves without an evaluator
            return self.reg(st, tid, e)
        if isinstance(e, Const) and isinstance(e.type, IntType):
            return e.value & mask(e.type.bits)
        return ThreadEvaluator(self, st, tid).value(e)

    def cond(self, st: State, tid: int, e):
        """``e != 0`` as a condition (comparisons and logic without 0/1 detours)."""
        return ThreadEvaluator(self, st, tid).cond(e)

    # ==================================================================
    # memory access

    def resolve(self, st: State, ptr: Val, nbytes: int, write: bool) -> tuple[int, Val]:
        """The object and offset ``ptr`` designates, after the checks of a
        ``nbytes`` access: null/invalid pointer, dead object, read-only
        object, bounds (each a possible run-time error)."""
        V, L = self.values, self.layout
        oidv = L.obj(ptr, V)
        if not isinstance(oidv, int):
            oidv = V.simplified(oidv)
        off = None
        if isinstance(oidv, int):
            oid = oidv
        elif self.context_hooks:  # the offset too, when the object's type fixes it
            oid, off = self.context_hooks.resolve_object(self, st, ptr, oidv)
        else:
            oid = self.concretize(st, oidv, L.id_bits, "a pointer's object")
        obj = st.memory.objs.get(oid)
        if oid == 0:
            raise LeafReached(Leaf(LeafKind.ERROR, "null pointer dereference", self.span, st.current))
        if obj is None or obj.kind in ("function", "thread", "null"):
            raise LeafReached(Leaf(LeafKind.ERROR, "invalid pointer dereference", self.span, st.current))
        if not obj.alive:
            msg = "use after free" if obj.kind == "heap" else f"use of {obj.name} after its lifetime ended"
            raise LeafReached(Leaf(LeafKind.ERROR, msg, self.span, st.current))
        if write and obj.readonly:
            raise LeafReached(Leaf(LeafKind.ERROR, "write to a string literal", self.span, st.current))
        if off is None:
            off = L.off(ptr, V)
        if not isinstance(off, int):
            off = V.simplified(off)
        if nbytes:
            size = obj.size
            if isinstance(off, int) and isinstance(size, int):
                if off + nbytes > size:
                    raise LeafReached(Leaf(LeafKind.ERROR, f"out-of-bounds access to {obj.name}", self.span,
                                           st.current))
            else:
                ok = V.le(V.add(off, nbytes, self.ptr_bits), size, self.ptr_bits, False)
                self.require(st, ok, f"out-of-bounds access to {obj.name}")
        return oid, off

    def fresh_mem(self, st: State, tid: int, oid: int | None = None):
        """How bytes of object ``oid`` never written read: fresh symbols, which
        stand for a body-less function's writes when one havocked the object."""
        obj = st.memory.get(oid) if oid is not None else None
        origin = obj.havoc if obj is not None else ""

        def fresh(name: str, bits: int) -> Val:
            return self._fresh(st, tid, name, bits, False, self.span, origin=origin)
        return fresh

    def havoc(self, st: State, p: Val, origin: str) -> None:
        """A body-less function ``origin`` may have written what ``p`` points
        to: the object's contents become unknown (fresh symbols standing for
        ``origin``'s writes on the next read). Pointers to read-only objects
        and functions are passed over; when the object is not known without
        forking, the memory is left as it was and the rest of the run depends
        on ``origin`` (``State.taint``)."""
        p = self.values.simplified(p)
        if not isinstance(p, int):
            if origin not in st.taint:
                st.taint = st.taint + (origin,)
            return
        oid = self.layout.obj(p, self.values)
        obj = st.memory.get(oid) if isinstance(oid, int) else None
        if obj is None or obj.readonly or obj.kind in ("string", "function") or not obj.alive:
            return
        w = st.memory.writable(oid)
        w.cells, w.array, w.zeroed, w.widest, w.havoc = {}, None, False, 1, origin

    def load(self, st: State, tid: int, ptr: Val, ctype) -> tuple[Val, int, Val]:
        n = type_size(ctype)
        oid, off = self.resolve(st, ptr, n, False)
        fresh = self.fresh_mem(st, tid, oid)
        v = st.memory.load(oid, off, n, self.values, self.layout, fresh)
        return v, oid, off

    def note_access(self, st: State, write: bool, addr: Val, size: int, kind: Kind = Kind.GLOBAL,
                    silent: bool = False) -> None:
        """Record a memory access in the current event, unless the front end
        proved the instruction thread-local (``kind`` LOCAL); ``silent``: a
        store noted as a read (``silent_stores``)."""
        if st.event is not None and kind is Kind.GLOBAL:
            if not self.placed_accesses:
                st.event.accesses.append(Access(write, addr, size, silent))
            else:
                tid = st.current if st.current is not None else 0
                atomic = st.threads[tid].atomic > 0 if tid < len(st.threads) else False
                st.event.accesses.append(PlacedAccess(write, addr, size, silent, self.span, tid, atomic, st.steps,
                                                      st.pc))

    # ==================================================================
    # control

    def _return(self, st: State, tid: int, value, instr) -> None:
        v = self.ev(st, tid, value) if value is not None else None
        t = st.wthread(tid)
        f = t.frames.pop()
        st.release(f)
        if instr is not None and v is not None:
            st.add_step(tid, instr.span, "return ", ("v", v, value.type))
        if self.record_effects:
            st.add_effect(Effect(tid, f.uid, instr, value=v))
        if not t.frames:
            sync.end_thread(self, st, tid, v if v is not None else 0)
            return
        if f.ret_dst is not None:
            if v is None:
                v = self.reg(st, tid, Reg(f"{f.func.name}()", f.ret_dst.type))
            caller = st.wframe(tid)
            caller.regs[f.ret_dst.name] = v

    def call_function(self, st: State, tid: int, name: str, args: Sequence[Val], dst, span) -> None:
        f = self.program.function(name)
        t = st.threads[tid]
        depth = sum(1 for fr in t.frames if fr.func is f)
        if depth > self.unwind:
            self.cut_thread(st, tid, f"recursion of {name} deeper than the unwind bound ({self.unwind})", span,
                            (name, f.span.line, "recursion"))
        st.wframe(tid).pc += 1
        frame = self.new_frame(st, f, args, dst)
        st.wthread(tid).frames.append(frame)

    def resolve_function(self, st: State, fp: Val) -> str:
        oidv = self.layout.obj(fp, self.values)
        if not isinstance(oidv, int):
            oidv = self.values.simplified(oidv)
        if isinstance(oidv, int):
            oid = oidv
        elif self.context_hooks:
            oid = self.context_hooks.resolve_function(self, st, fp, oidv)
        else:
            oid = self.concretize(st, oidv, self.layout.id_bits, "a function pointer")
        offv = self.values.simplified(self.layout.off(fp, self.values))
        name = self.oid_funcs.get(oid)
        if name is None:
            raise LeafReached(Leaf(LeafKind.ERROR, "call through an invalid function pointer", self.span, st.current))
        self.require(st, self.values.eq(offv, 0, self.ptr_bits), "call through an invalid function pointer")
        return name

    def _has_exit(self, func: ir.Function, head: int, end: int) -> bool:
        """Whether the loop ``[head, end]`` of ``func`` has an exit that only
        the thread's own values decide: a branch out of the loop whose
        condition reads no register that may hold a value read from shared
        memory or returned by a call (:func:`shared_derived`). ``while (1)
        pthread_create(...)`` has no exit, ``while (!flag)`` only one that
        shared memory decides: every iteration of those counts."""
        key = (func.name, head, end)
        has = self._exits.get(key)
        if has is None:
            derived = self._derived_regs(func)
            has = self._exits[key] = any(
                type(i) is ir.Branch and not (head <= i.then <= end and head <= i.other <= end)
                and not (set(ir.regs_of(i.cond)) & derived)
                for i in func.body[head:end + 1])
        return has

    def _counted(self, f: Frame, head: int) -> bool:
        """Whether the loop at ``head`` counts its rounds in registers
        (:func:`ir.counted_registers`) that hold concrete values in ``f``."""
        key = (f.func.name, head)
        if key in self._counters_of:
            regs = self._counters_of[key]
        else:
            regs = self._counters_of[key] = ir.counted_registers(f.func, head)
        if regs is None or not all(type(f.regs.get(r)) is int for r in regs):
            return False
        if not self.counted_loops:  # only rounds of atomics and shared accesses
            plain = self._plain_rounds.get(key)
            if plain is None:
                plain = self._plain_rounds[key] = ir.plain_rounds(f.func, head)
            return plain
        return True

    def _counted_in_memory(self, st: State, tid: int, head: int) -> bool:
        """Whether the loop at ``head`` of ``tid``'s frame counts its rounds in
        memory it stores to on every round (:func:`ir.memory_counters`), with
        the count's registers and the values at its addresses concrete."""
        if not self.counted_loops:
            return False
        f = st.threads[tid].frames[-1]
        key = (f.func.name, head)
        if key in self._memory_counters:
            found = self._memory_counters[key]
        else:
            found = self._memory_counters[key] = ir.memory_counters(f.func, head)
        if found is None:
            return False
        regs, loads = found
        if not all(type(f.regs.get(r)) is int for r in regs):
            return False
        for i in loads:
            p = self.ev(st, tid, i.addr)
            if type(p) is not int:
                return False
            n = type_size(i.type)
            oid, off = self.layout.obj(p, self.values), self.layout.off(p, self.values)
            obj = st.memory.objs.get(oid) if type(oid) is int else None
            if obj is None or not obj.alive or obj.kind in ("function", "thread", "null") or type(off) is not int \
                    or not 0 <= off <= obj.size - n or type(st.memory.peek(oid, off, n)) is not int:
                return False  # (the next round's load says what is wrong)
        return True

    def _derived_regs(self, func: ir.Function) -> frozenset:
        derived = self._derived.get(func.name)
        if derived is None:
            derived = self._derived[func.name] = shared_derived(func)
        return derived

    def temps_read(self, e) -> tuple:
        """Names of the temporaries (``%`` registers) the program's
        expression ``e`` reads, remembered per expression."""
        hit = self._temps.get(id(e))
        if hit is None:  # (e is kept: its id stays its own)
            hit = self._temps[id(e)] = (e, tuple(r for r in ir.regs_of(e) if r.startswith("%")))
        return hit[1]

    def decided_elsewhere(self, f: Frame) -> bool:
        """Whether the branch at ``f.pc`` tests a value another thread or a
        callee decided (:func:`shared_derived`): its outcome, and what the
        code it guards assigns, is then not the thread's own to decide."""
        key = (f.func.name, f.pc)
        hit = self._derived_branch.get(key)
        if hit is None:
            hit = self._derived_branch[key] = bool(set(ir.regs_of(f.func.body[f.pc].cond))
                                                   & self._derived_regs(f.func))
        return hit

    def _round(self, st: State, tid: int, head: int) -> bool:
        """A back edge to ``head`` ends a round (:mod:`distaff.analysis.symex.awaits`):
        True when it does not count against the bound -- the thread awaits
        a change (the round changed nothing and nothing it read changed since;
        not while it holds a lock or is in an atomic region), or the round
        changed nothing but what it read did change, or went through a
        condition wait that returned. A new round starts at ``head``."""
        kind, reads = _awaits.judge(self, st, tid, head)
        if kind == _awaits.CHANGED and self.park_futile and st.threads[tid].atomic == 0 and not _awaits.held(st, tid):
            _awaits.anchor(self, st, tid, head)
            _awaits.park(self, st, tid)
            return True
        if self.ghost_rounds and st.threads[tid].atomic == 0 and kind in (_awaits.CHANGED, _awaits.UNCHANGED):
            lap = _awaits.lap_at(st, tid, head)  # (judged: there is one)
            if kind == _awaits.CHANGED and st.event is not None:
                st.event.ghost_from = lap.start
            elif kind == _awaits.UNCHANGED and not _awaits.held(st, tid):
                self._note_futile(st, tid, lap, reads)
        _awaits.anchor(self, st, tid, head)
        if kind == _awaits.UNCHANGED:
            if st.threads[tid].atomic or _awaits.held(st, tid):
                return False
            self.counters["await_blocks"] = self.counters.get("await_blocks", 0) + 1
            _awaits.block(self, st, tid, reads, self.span)
            return True
        if kind != _awaits.NO_ROUND:
            self.counters["await_free_rounds"] = self.counters.get("await_free_rounds", 0) + 1
            return True
        return False

    def _note_futile(self, st: State, tid: int, lap, reads: tuple) -> None:
        """Remember that a one-event round of ``tid``'s loop at ``lap`` that
        read ``reads`` changed nothing (``futile``, for Dpor: a reversal that
        would run such a round first leads only to an await). Only for a
        loop of registers and shared memory (``ir.register_loop``): what such
        a round does, its key and the values it reads decide. Only for
        concrete values: a round that read a symbol changed nothing under its
        path's condition, which another run need not share (x == 0 read as
        ``x``, futile where x != 1, would not be where x == 1)."""
        for r in reads:
            if type(r[3]) is not int:  # a symbol's value: futile only under this path's condition
                return
        func = st.threads[tid].frames[-1].func
        simple = self._register_loops.get((func.name, lap.pc))
        if simple is None:
            simple = self._register_loops[(func.name, lap.pc)] = ir.register_loop(func, lap.pc)
        if not simple or not _awaits.one_event(st, tid, lap):
            return
        key = _awaits.round_key(func.name, lap)
        if key is None:
            return
        seen = self.futile.get(key)
        if seen is None:
            self.futile[key] = [reads]
        elif len(seen) < 8 and not any(len(r) == len(reads) and all(
                a[:3] == b[:3] and _awaits.same(a[3], b[3]) for a, b in zip(r, reads)) for r in seen):
            seen.append(reads)

    def cut_thread(self, st: State, tid: int, why: str, span, site: tuple[str, int, str]) -> None:
        """Stop thread ``tid`` for good at the unwind bound (raises
        :class:`ThreadCut`, ending its block), or the whole run (leaf CUT)
        inside an atomic region or with ``thread_cuts`` off. Counted as
        ``thread_cuts``; ``site`` (function, line, what) is remembered in
        ``cut_sites`` whichever way the path ends."""
        self.cut_sites[site] = self.cut_sites.get(site, 0) + 1
        t = st.threads[tid]
        if not self.thread_cuts or t.atomic > 0:
            raise LeafReached(Leaf(LeafKind.CUT, why, span, tid))
        self.counters["thread_cuts"] = self.counters.get("thread_cuts", 0) + 1
        t = st.wthread(tid)
        t.status = CUT
        t.waits_for = f"stops: {why}"
        st.add_step(tid, span, f"{t.name} stops here: {why}")
        raise ThreadCut()

    def back_edge(self, st: State, tid: int, pc: int, target: int) -> None:
        """Count a taken back edge; cut the thread past the unwind bound. Loops
        nested inside (their heads lie in ``(target, pc]``) start counting
        afresh: each entry of an inner loop gets the whole bound.

        Only an iteration that needs a bound counts (optimisation
        ``concrete_loops``): one of a loop without an exit its own values
        decide (:meth:`_has_exit`), or one in which the thread took a branch
        on a symbolic value or on a value another thread or a callee decided
        (``Thread.decisions`` moved since the loop's last counted back edge:
        ``while (!in) { lock; if (!writing) in = 1; unlock; }`` waits on
        shared memory through a local) -- unless the loop's count is kept in
        registers it sets on every round from themselves and constants, whose
        values are concrete (:meth:`_counted`: ``for (k = 0; k < 2; k++)``
        around a compare-and-swap retry loop, whose retries are decisions, or
        around calls, locks and waits). An iteration of a loop whose trip
        count only concrete locals decide (``for (i = 0; i < 256; i++)``,
        whatever its body reads or creates) is free, and so is one of a loop
        counting in memory it stores to on every round, whose values there are
        concrete (:meth:`_counted_in_memory`: a global ``i``; another thread
        writing it changes the count by its own writes only, which its own
        bound or count keeps finite); the first iteration of every loop entry
        counts. Free iterations are counted as ``free_iterations``; past
        FREE_ITERATIONS in one run the run is cut as if by the bound."""
        t = st.threads[tid]
        f = t.frames[-1]
        inner = [h for h in f.backedges if target < h <= pc]
        mark = f.marks.get(target)  # (none: the entry's first iteration, which counts)
        if self.concrete_loops and mark is not None and (
                ((mark == t.decisions or self._counted(f, target)) and self._has_exit(f.func, target, pc))
                or self._counted_in_memory(st, tid, target)):
            st.free_iterations += 1
            self.counters["free_iterations"] = self.counters.get("free_iterations", 0) + 1
            if st.free_iterations > FREE_ITERATIONS:
                self.counters["free_iteration_cuts"] = self.counters.get("free_iteration_cuts", 0) + 1
                site = (f.func.name, f.func.body[target].span.line, "free loops")
                self.cut_sites[site] = self.cut_sites.get(site, 0) + 1
                raise LeafReached(Leaf(LeafKind.CUT, f"loops ran past {FREE_ITERATIONS} iterations", self.span, tid))
            w = st.wframe(tid)
            for h in inner:
                w.backedges.pop(h, None)
                w.marks.pop(h, None)
                w.free_iters.pop(h, None)
            # the iteration is part of the control state (summaries learned at
            # one iteration must not prune another: the assertion-guided paper's
            # control states are those of the unrolled program)
            w.free_iters[target] = w.free_iters.get(target, 0) + 1
            return
        if self.awaits and self._round(st, tid, target):
            if inner:  # the next round enters its inner loops afresh
                w = st.wframe(tid)
                for h in inner:
                    w.backedges.pop(h, None)
                    w.marks.pop(h, None)
                    w.free_iters.pop(h, None)
            return
        n = f.backedges.get(target, 0) + 1
        if n > self.unwind:
            key = (f.func.name, target, pc)
            creates = self._creates.get(key)
            if creates is None:
                creates = self._creates[key] = any(
                    type(i) is Intrinsic and i.op is Op.THREAD_CREATE for i in f.func.body[target:pc + 1])
            if creates:  # the bound limits how many threads the program starts
                self.counters["thread_creation_cuts"] = self.counters.get("thread_creation_cuts", 0) + 1
            line = f.func.body[target].span.line if target < len(f.func.body) else self.span.line
            self.cut_thread(st, tid, f"the loop at line {line} reached the unwind bound ({self.unwind})", self.span,
                            (f.func.name, line, "creation loop" if creates else "loop"))
        w = st.wframe(tid)
        for h in inner:
            del w.backedges[h]
            w.marks.pop(h, None)
            w.free_iters.pop(h, None)
        w.backedges[target] = n
        if self.concrete_loops:
            # (a counted loop's rounds are free whatever the decisions: its
            # mark says so, the same in every interleaving's control state)
            w.marks[target] = COUNTED if self._counted(f, target) or self._counted_in_memory(st, tid, target) \
                else t.decisions


# ======================================================================
# instruction handlers


def _assign(E: Engine, st: State, tid: int, i: Assign) -> None:
    v = E.ev(st, tid, i.expr)
    f = st.wframe(tid)
    f.regs[i.dst.name] = v
    f.pc += 1
    if E.record_effects:
        st.add_effect(Effect(tid, f.uid, i, value=v))


def _load(E: Engine, st: State, tid: int, i: Load) -> None:
    if not is_scalar(i.type):
        raise EngineLimit(f"load of a {i.type} value")
    p = E.ev(st, tid, i.addr)
    older: tuple = ()
    if st.weak is not None and (i.kind is Kind.GLOBAL or c11.in_graph(E, st, p)):
        v, (oid, off), older = c11.load(E, st, tid, i, p)
    else:
        v, oid, off = E.load(st, tid, p, i.type)
    if st.threads[tid].laps and i.kind is Kind.GLOBAL:  # a round watches what it read
        if isinstance(off, int):
            _awaits.note_read(st, tid, oid, off, type_size(i.type), v, i.type)
        else:
            _awaits.drop(st, tid)
    f = st.wframe(tid)
    f.regs[i.dst.name] = v
    f.pc += 1
    E.note_access(st, False, p, type_size(i.type), i.kind)
    st.add_step(tid, i.span, "read ", ("lv", p, i.type), " == ", ("v", v, i.type), *older,
                op=("read", p, type_size(i.type)))
    if E.record_effects:
        st.add_effect(Effect(tid, f.uid, i, addr=p, value=v))


def _store(E: Engine, st: State, tid: int, i: Store) -> None:
    if not is_scalar(i.type):
        raise EngineLimit(f"store of a {i.type} value")
    p = E.ev(st, tid, i.addr)
    v = E.ev(st, tid, i.value)
    n = type_size(i.type)
    if st.weak is not None and (i.kind is Kind.GLOBAL or c11.in_graph(E, st, p)):
        before = None
        if st.threads[tid].laps:
            at, off0 = c11.location_of(E, p)
            before = st.memory.peek(at, off0, n) if isinstance(at, int) and isinstance(off0, int) else None
        (oid, off), placed = c11.store(E, st, tid, i, p, v)
        if st.threads[tid].laps and not (placed == c11.NONE or (
                placed == c11.LATEST and before is not None and _awaits.same(before, v))):
            _awaits.drop(st, tid)  # a round may store only what the memory holds already
        if placed == c11.LATEST:
            st.memory.store(oid, off, n, v, E.values, E.layout)
        f = st.wframe(tid)
        f.pc += 1
        E.note_access(st, placed != c11.NONE, p, n, i.kind)
        if placed != c11.NONE:
            st.add_step(tid, i.span, "write ", ("lv", p, i.type), " = ", ("v", v, i.type),
                        c11.EARLIER if placed == c11.BEFORE else "", op=("write", p, n))
        if E.record_effects:
            st.add_effect(Effect(tid, f.uid, i, addr=p, value=v))
        return
    oid, off = E.resolve(st, p, n, True)
    silent = False
    if st.threads[tid].laps or E.silent_stores:
        old = st.memory.peek(oid, off, n) if isinstance(off, int) else None
        silent = old is not None and _awaits.same(old, v)
        if not silent:  # a round may store only what the memory holds already
            _awaits.drop(st, tid)
    st.memory.store(oid, off, n, v, E.values, E.layout)
    if E.context_hooks:  # a store through a primary object writes its aliases too
        E.context_hooks.after_store(E, st, oid, off, n, v)
    f = st.wframe(tid)
    f.pc += 1
    if silent and E.silent_stores and i.kind is Kind.GLOBAL:
        E.counters["silent_stores"] = E.counters.get("silent_stores", 0) + 1
        E.note_access(st, False, p, n, i.kind, silent=True)
    else:
        E.note_access(st, True, p, n, i.kind)
    st.add_step(tid, i.span, "write ", ("lv", p, i.type), " = ", ("v", v, i.type), op=("write", p, n))
    if E.record_effects:  # a silent store's outcome is True: its summary holds only where it is silent again
        st.add_effect(Effect(tid, f.uid, i, addr=p, value=v, outcome=silent and E.silent_stores and i.kind is Kind.GLOBAL))


def _jump(E: Engine, st: State, tid: int, i: Jump) -> None:
    pc = st.threads[tid].frames[-1].pc
    if i.target <= pc:
        E.back_edge(st, tid, pc, i.target)
    st.wframe(tid).pc = i.target


def _branch(E: Engine, st: State, tid: int, i: Branch) -> None:
    c = E.cond(st, tid, i.cond)
    if E.concrete_loops and (type(c) is not bool or E.decided_elsewhere(st.threads[tid].frames[-1])):
        st.wthread(tid).decisions += 1
    opt = E.fork(st, lambda: [Option(c, True), Option(E.values.not_(c), False)], exhaustive=True)
    taken = opt.payload
    target = i.then if taken else i.other
    f = st.threads[tid].frames[-1]
    pc = f.pc
    if E.guards is not None and not st.reached:
        g = E.guards.get(f.func.name)
        if g is not None and pc in g:
            E.reach(st)
    if target <= pc:
        E.back_edge(st, tid, pc, target)
    f = st.wframe(tid)
    f.pc = target
    temps = {r: f.regs.get(r) for r in E.temps_read(i.cond)}
    verdict = "true" if taken else "false"
    if not i.text:
        st.add_step(tid, i.span, "branch (", ("expr", i.cond, temps), ") ", verdict)
    elif temps and not isinstance(i.cond, ir.Reg):  # "x > 5 is true (7 > 5)"
        st.add_step(tid, i.span, f"{i.text} is {verdict} (", ("expr", i.cond, temps), ")")
    else:  # the value is in the read just before, or the condition reads locals only
        st.add_step(tid, i.span, f"{i.text} is {verdict}")
    if E.record_effects:
        st.add_effect(Effect(tid, f.uid, i, outcome=taken))


def _call(E: Engine, st: State, tid: int, i: Call) -> None:
    if isinstance(i.callee, Addr) and i.callee.kind is ir.ObjKind.FUNCTION:
        name = i.callee.name
    else:
        name = E.resolve_function(st, E.ev(st, tid, i.callee))
    args = [E.ev(st, tid, a) for a in i.args]
    f = E.program.function(name)
    if f is None:  # an external reached through a pointer: a fresh result
        for a, v in zip(i.args, args):
            if isinstance(a.type, PtrType):
                E.havoc(st, v, name)
        if i.dst is not None:
            b = bits_of(i.dst.type, E.ptr_bits)
            v = E._fresh(st, tid, f"{name}()", b, is_signed(i.dst.type), i.span, origin=name, ctype=i.dst.type)
            st.wframe(tid).regs[i.dst.name] = v
        st.wframe(tid).pc += 1
        st.add_step(tid, i.span, f"call {name} (no body)")
        return
    params = f.params
    conv = []
    for k, v in enumerate(args):
        if k < len(params) and i.args[k].type != params[k].type and is_scalar(params[k].type):
            v = E.values.convert(v, bits_of(i.args[k].type, E.ptr_bits), bits_of(params[k].type, E.ptr_bits),
                                 is_signed(i.args[k].type))
        conv.append(v)
    E.call_function(st, tid, name, conv, i.dst, i.span)
    st.add_step(tid, i.span, f"call {name}")
    if E.record_effects:
        st.add_effect(Effect(tid, st.threads[tid].frames[-2].uid, i, value=tuple(conv)))


def _ret(E: Engine, st: State, tid: int, i: Return) -> None:
    E._return(st, tid, i.value, i)


def _dispatch(E: Engine, st: State, tid: int, i: Any) -> None:
    """Run instruction ``i`` by its class. Tests of the class, most frequent
    first, rather than a table of functions: compiled, each is a direct call
    (and each test a pointer comparison: the IR is compiled too)."""
    t = type(i)
    if t is Load:
        _load(E, st, tid, i)
    elif t is Assign:
        _assign(E, st, tid, i)
    elif t is Store:
        _store(E, st, tid, i)
    elif t is Branch:
        _branch(E, st, tid, i)
    elif t is Jump:
        _jump(E, st, tid, i)
    elif t is Intrinsic:
        intrinsics.run(E, st, tid, i)
    elif t is Call:
        _call(E, st, tid, i)
    elif t is Return:
        _ret(E, st, tid, i)
    else:
        raise TypeError(f"no instruction {type(i).__name__}")


# built-ins whose result the calling thread decides alone: a constant (0 from
# pthread_create, an untimed lock or wait, ...), its own id, a fresh object.
# A branch on one is the thread's own, so ``if (pthread_create(...)) abort();``
# leaves a creation loop over constants free (Engine.back_edge). Timed waits,
# try-locks, barrier waits and atomic operations return what other threads decide.
OWN_RESULT_OPS = frozenset({
    Op.THREAD_CREATE, Op.THREAD_JOIN, Op.THREAD_SELF, Op.MUTEX_INIT, Op.MUTEX_DESTROY, Op.MUTEX_LOCK,
    Op.MUTEX_UNLOCK, Op.COND_INIT, Op.COND_DESTROY, Op.COND_WAIT, Op.COND_SIGNAL, Op.COND_BROADCAST,
    Op.SEM_INIT, Op.SEM_POST, Op.SEM_DESTROY, Op.BARRIER_INIT, Op.BARRIER_DESTROY, Op.RWLOCK_INIT,
    Op.RWLOCK_DESTROY, Op.RWLOCK_RDLOCK, Op.RWLOCK_WRLOCK, Op.RWLOCK_UNLOCK, Op.MALLOC, Op.CALLOC, Op.ALLOCA,
})


def shared_derived(func: ir.Function) -> frozenset[str]:
    """Registers of ``func`` that may hold a value another thread or a callee
    decides: loaded from memory the escape analysis calls shared, returned by
    a call or a built-in (other than one of :data:`OWN_RESULT_OPS` without a
    deadline), or computed from such a register; a load of the function's
    own memory too once any such value may have been stored there.
    Parameters are the caller's values."""
    derived: set[str] = set()
    own_memory_derived = False
    changed = True
    while changed:
        changed = False
        for i in func.body:
            t = type(i)
            dst = getattr(i, "dst", None)
            if dst is None or dst.name in derived:
                if t is Store and not own_memory_derived and set(ir.regs_of(i.value)) & derived:
                    own_memory_derived = changed = True
                continue
            if t is Load:
                hit = i.kind is Kind.GLOBAL or own_memory_derived
            elif t is Assign:
                hit = bool(set(ir.regs_of(i.expr)) & derived)
            elif t is Intrinsic:
                hit = i.op not in OWN_RESULT_OPS or ir.has_deadline(i)
            else:  # a call's result
                hit = True
            if hit:
                derived.add(dst.name)
                changed = True
    return frozenset(derived)


def _visibility(i) -> int:
    if i.kind is Kind.GLOBAL:
        return 1
    if type(i) is Intrinsic:
        return 1 if i.op in VISIBLE_OPS else 0
    if type(i) is Return:
        return 2
    return 0


def _ite_leaves(v):
    """The constants an if-then-else tree of constants may evaluate to, or None."""
    import z3

    out: set[int] = set()
    stack = [v]
    while stack:
        x = stack.pop()
        if z3.is_bv_value(x):
            out.add(x.as_long())
        elif z3.is_app_of(x, z3.Z3_OP_ITE):
            stack.extend(x.children()[1:])
        else:
            return None
        if len(out) > VALUE_LIMIT:
            return None
    return out

