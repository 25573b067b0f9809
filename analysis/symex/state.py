"""The symbolic state of a multithreaded program at one point of one run.

A :class:`State` holds every thread's call stack (frames of registers with
their pcs and back-edge counters), the memory, the synchronization state
(mutex owners, barriers, the global FIFO wait queue of the arbitrary-context
paper §4.1), the path condition, and the record of the run so far (steps for
the counterexample, scheduling decisions, branch choices, events for partial
order reduction, effects for weakest preconditions).

States are forked at every pivot point, so :meth:`State.clone` must be cheap:
the record of the run is kept in persistent cons lists (``(head, tail)``
tuples, shared between forks), the path condition is a persistent chain of
:class:`PathCond` nodes, and threads, frames and memory objects are copied on
write: a state may mutate in place only the parts whose ``gen`` equals its own
generation; :meth:`wthread`, :meth:`wframe` and :meth:`Memory.writable` hand
out such parts. A state stored in an explorer node is never mutated again.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from distaff.analysis.ir import NO_SPAN, Function, Reg, Span
from distaff.analysis.record import Record
from distaff.analysis.symex.memory import Memory
from distaff.analysis.symex.values import Val

_generations = itertools.count(1)


def cons_list(c) -> list:
    """The items of a persistent cons list, oldest first."""
    out = []
    while c is not None:
        out.append(c[0])
        c = c[1]
    out.reverse()
    return out


@dataclass(frozen=True, slots=True, init=False)
class PathCond(Record):
    """One constraint of a path condition and the chain before it.

    ``syms`` are the names of the symbols ``cond`` depends on (for the solver's
    independence layer); ``cid`` its z3 AST id (terms are hash-consed, so equal
    constraints have equal ids: the solver cache's key); ``depth`` the number of
    constraints in the chain."""

    cond: Any
    syms: frozenset
    cid: int
    parent: "PathCond | None" = None
    depth: int = 1

    def __init__(self, cond: Any, syms: frozenset, cid: int, parent: PathCond | None = None,
                 depth: int = 1) -> None:
        object.__setattr__(self, "cond", cond)
        object.__setattr__(self, "syms", syms)
        object.__setattr__(self, "cid", cid)
        object.__setattr__(self, "parent", parent)
        object.__setattr__(self, "depth", depth)

    def constraints(self) -> list["PathCond"]:
        out = []
        n: PathCond | None = self
        while n is not None:
            out.append(n)
            n = n.parent
        out.reverse()
        return out


@dataclass(slots=True, init=False)
class Frame(Record):
    """A call of ``func``: the pc of its next instruction, its registers, the
    back edges taken per target pc, and its stack objects (name -> object id).
    ``ret_dst`` is the caller's register receiving the result."""

    func: Function
    pc: int
    regs: dict
    backedges: dict
    stack_objs: dict
    allocas: list
    ret_dst: Reg | None
    uid: int
    gen: int = 0
    # loop head -> the thread's ``decisions`` when its last counted back edge
    # was taken (see Engine.back_edge)
    marks: dict = field(default_factory=dict)
    # loop head -> iterations not counted against the bound since the loop's
    # entry: with ``backedges``, the iteration a control key names
    free_iters: dict = field(default_factory=dict)

    def __init__(self, func: Function, pc: int, regs: dict, backedges: dict, stack_objs: dict, allocas: list,
                 ret_dst: Reg | None, uid: int, gen: int = 0, marks: dict | None = None,
                 free_iters: dict | None = None) -> None:
        self.func = func
        self.pc = pc
        self.regs = regs
        self.backedges = backedges
        self.stack_objs = stack_objs
        self.allocas = allocas
        self.ret_dst = ret_dst
        self.uid = uid
        self.gen = gen
        self.marks = {} if marks is None else marks
        self.free_iters = {} if free_iters is None else free_iters

    def copy(self, gen: int) -> "Frame":
        return Frame(self.func, self.pc, dict(self.regs), dict(self.backedges), self.stack_objs,
                     list(self.allocas), self.ret_dst, self.uid, gen, dict(self.marks),
                     dict(self.free_iters) if self.free_iters else None)


ENABLED = "enabled"
BLOCKED = "blocked"
ENDED = "ended"
CUT = "cut"  # stopped for good at the unwind bound (Engine.cut_thread): never scheduled again
# Thread.pending of a thread a context starts at its entry that may instead
# have run to its end before the context: its first step chooses (Engine._start_or_end)
MAY_HAVE_ENDED = "may have ended"


@dataclass(slots=True, init=False)
class Thread(Record):
    """A thread: ``tid`` (main is 0), ``name`` (``main`` or ``routine#n``),
    its frames (innermost last), status, return value once ended, atomic
    nesting depth, and what it is blocked on or resuming (``phase``):
    ``None``; ``"cond"`` (woken from a condition wait, must re-acquire
    ``phase_arg``, the mutex address); ``"barrier"`` (waiting at a barrier).
    ``waits_for`` describes a blocked thread's wait in words.
    ``qobj`` is the object id naming the queue joiners wait on. ``pending``:
    the thread failed an assertion that is not the target, or hit a run-time
    error, after its block's global operation; the abort (a leaf) is its next
    visible step, so other threads may run before it as they could in C.
    ``spurious``: the thread has woken spuriously from a condition wait (at
    most once per run, when the engine models spurious wake-ups).
    ``timed_out``: the thread is re-acquiring the mutex of a timed condition
    wait that gave up (the wait returns ETIMEDOUT). ``laps``: the rounds the
    thread is on (:mod:`distaff.analysis.symex.awaits`); ``watch``: what an
    awaiting thread (phase ``"await"``) read, which it waits to see change."""

    tid: int
    name: str
    routine: str
    frames: list[Frame]
    status: str
    qobj: int
    retval: Val = 0
    atomic: int = 0
    phase: str | None = None
    phase_arg: Val = 0
    waits_for: str = ""
    ends_process: bool = False
    pending: Any = None  # a Leaf (abort or crash) this thread performs when next scheduled, or MAY_HAVE_ENDED
    gen: int = 0
    # the step naming a pending assertion failure: recorded only when the failure happens
    pending_step: Any = None
    spurious: bool = False
    # how many branches this thread has taken that its own concrete values did
    # not decide: on a symbolic value, or on one another thread or a callee
    # decided (Engine.back_edge: a loop iteration without one may be free)
    decisions: int = 0
    timed_out: bool = False
    # this thread's part of State.control_key, once computed (a copy starts without)
    key: tuple | None = field(default=None, compare=False, repr=False)
    laps: tuple = ()
    watch: tuple = ()

    def __init__(self, tid: int, name: str, routine: str, frames: list[Frame], status: str, qobj: int,
                 retval: Val = 0, atomic: int = 0, phase: str | None = None, phase_arg: Val = 0,
                 waits_for: str = "", ends_process: bool = False, pending: Any = None, gen: int = 0,
                 pending_step: Any = None, spurious: bool = False, decisions: int = 0,
                 timed_out: bool = False, key: tuple | None = None, laps: tuple = (), watch: tuple = ()) -> None:
        self.tid = tid
        self.name = name
        self.routine = routine
        self.frames = frames
        self.status = status
        self.qobj = qobj
        self.retval = retval
        self.atomic = atomic
        self.phase = phase
        self.phase_arg = phase_arg
        self.waits_for = waits_for
        self.ends_process = ends_process
        self.pending = pending
        self.gen = gen
        self.pending_step = pending_step
        self.spurious = spurious
        self.decisions = decisions
        self.timed_out = timed_out
        self.key = key
        self.laps = laps
        self.watch = watch

    def copy(self, gen: int) -> "Thread":
        return Thread(self.tid, self.name, self.routine, list(self.frames), self.status, self.qobj,
                      self.retval, self.atomic, self.phase, self.phase_arg, self.waits_for,
                      self.ends_process, self.pending, gen, self.pending_step, self.spurious,
                      self.decisions, self.timed_out, None, self.laps, self.watch)

    @property
    def top(self) -> Frame:
        return self.frames[-1]


@dataclass(frozen=True, slots=True, init=False)
class Symbol(Record):
    """A fresh symbol of the run: an input of the counterexample when
    ``input`` (nondet values, externals, main's parameters, uninitialised
    memory), with the span that introduced it, and the C type of its value
    when the counterexample shows it as other than an integer (a floating
    value's bit pattern as a number)."""

    name: str
    term: Any
    bits: int
    signed: bool
    span: Span
    input: bool = True
    # the body-less function whose result (or whose writes through a pointer)
    # this symbol stands for; "" for the program's own inputs
    origin: str = ""
    ctype: Any = None

    def __init__(self, name: str, term: Any, bits: int, signed: bool, span: Span, input: bool = True,
                 origin: str = "", ctype: Any = None) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "term", term)
        object.__setattr__(self, "bits", bits)
        object.__setattr__(self, "signed", signed)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "input", input)
        object.__setattr__(self, "origin", origin)
        object.__setattr__(self, "ctype", ctype)


@dataclass(slots=True, init=False)
class StepRecord(Record):
    """A step of the run, rendered into a :class:`distaff.analysis.report.Step` once a
    model is known: ``parts`` are strings and ``(value, ctype)`` /
    ``("lv", pointer)`` items (see :mod:`distaff.analysis.symex.trace`).
    ``op`` says what the step did to memory or to other threads, for a
    native reproducer (:mod:`distaff.analysis.playback`): ``("read"|"write",
    pointer, size)``, ``("alloc", pointer)``, ``("free", pointer)``,
    ``("memset", pointer, lo, hi, n)``, ``("memcpy", source, destination,
    lo, hi, n)`` (bytes ``[lo, hi)`` of ``n``),
    ``("input", value, name, op)``, ``("blocked", op)``, ``("end",)`` or ``("sync",
    op, name)`` for a synchronization built-in; ``()`` for anything else."""

    tid: int
    span: Span
    parts: tuple
    op: tuple = ()

    def __init__(self, tid: int, span: Span, parts: tuple, op: tuple = ()) -> None:
        self.tid = tid
        self.span = span
        self.parts = parts
        self.op = op


@dataclass(slots=True, init=False)
class Access(Record):
    """A memory access of an event: ``write`` or read of ``size`` bytes at
    ``addr`` (a pointer value, possibly symbolic). ``silent``: a read that is
    a store of what the memory held (the engine's ``silent_stores``), which
    in another order may write."""

    write: bool
    addr: Val
    size: int
    silent: bool = False

    def __init__(self, write: bool, addr: Val, size: int, silent: bool = False) -> None:
        self.write = write
        self.addr = addr
        self.size = size
        self.silent = silent


@dataclass(slots=True, init=False)
class PlacedAccess(Access):
    """An :class:`Access` that also says where it was made (what the race
    detector needs): the instruction's ``span``, the thread, whether an
    atomic region was open, ``steps``, the run's step list before the
    access's own step (so its step can be found in the trace), and ``pc``,
    the path condition then (under which a symbolic overlap is decided)."""

    span: Span = NO_SPAN
    tid: int = 0
    atomic: bool = False
    steps: Any = None
    pc: Any = None

    def __init__(self, write: bool, addr: Val, size: int, silent: bool = False, span: Span = NO_SPAN,
                 tid: int = 0, atomic: bool = False, steps: Any = None, pc: Any = None) -> None:
        self.write = write
        self.addr = addr
        self.size = size
        self.silent = silent
        self.span = span
        self.tid = tid
        self.atomic = atomic
        self.steps = steps
        self.pc = pc


@dataclass(slots=True, init=False)
class SyncOp(Record):
    """A synchronization of an event: ``op`` (the :class:`distaff.analysis.ir.Op`
    value, or ``"end"`` for a thread ending, ``"exit"`` for the process
    ending) on ``obj`` (a sync object's address, or a thread id for create,
    join and end), ``blocked`` when the operation could not complete."""

    op: str
    obj: Val
    blocked: bool = False

    def __init__(self, op: str, obj: Val, blocked: bool = False) -> None:
        self.op = op
        self.obj = obj
        self.blocked = blocked


@dataclass(slots=True, init=False)
class Event(Record):
    """The visible part of one scheduling step (a block: the thread's next
    global operation and the local instructions after it): what DPOR needs.
    ``index`` is its position in the run; ``func``/``pc``/``span`` locate the
    global operation that started it. ``ghost_from`` (not -1): the event ends
    a round that changed nothing (symex/awaits.py), which began after the
    thread's event of that index: the round's events, this one included,
    may be left out of the run (Dpor's ghost rounds). ``round_key``: the
    event begins a round of a loop (awaits' :func:`round_key`);
    ``next_round``: the thread's next event does. ``update``: the event's
    global operation is an atomic region that commutes with another of the
    same kind on the same location (``"add"``, ...; symex/rmw.py), or ``""``."""

    index: int
    tid: int
    func: str
    pc: int
    span: Span
    accesses: list[Access] = field(default_factory=list)
    syncs: list[SyncOp] = field(default_factory=list)
    ghost_from: int = -1
    round_key: tuple | None = None
    next_round: tuple | None = None
    update: str = ""

    def __init__(self, index: int, tid: int, func: str, pc: int, span: Span, accesses: list[Access] | None = None,
                 syncs: list[SyncOp] | None = None, ghost_from: int = -1, round_key: tuple | None = None,
                 next_round: tuple | None = None, update: str = "") -> None:
        self.index = index
        self.tid = tid
        self.func = func
        self.pc = pc
        self.span = span
        self.accesses = [] if accesses is None else accesses
        self.syncs = [] if syncs is None else syncs
        self.ghost_from = ghost_from
        self.round_key = round_key
        self.next_round = next_round
        self.update = update


@dataclass(frozen=True, slots=True, init=False)
class Effect(Record):
    """What one executed instruction did, for weakest preconditions: thread,
    the frame's uid, the instruction, the resolved address (Load/Store/...),
    the value loaded or stored, and the outcome taken at a branch or fork
    (at a Store: True when the store was silent, noted as a read)."""

    tid: int
    frame: int
    instr: Any
    addr: Val | None = None
    value: Val | None = None
    outcome: Any = None

    def __init__(self, tid: int, frame: int, instr: Any, addr: Val | None = None, value: Val | None = None,
                 outcome: Any = None) -> None:
        object.__setattr__(self, "tid", tid)
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "instr", instr)
        object.__setattr__(self, "addr", addr)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "outcome", outcome)


def _sorted_items(d: dict, by_key: bool = False) -> tuple:
    """``d``'s items sorted (by key alone when ``by_key``: the values may not compare)."""
    if len(d) < 2:
        return tuple(d.items())
    return tuple(sorted(d.items(), key=_first)) if by_key else tuple(sorted(d.items()))


def _first(kv):
    return kv[0]


def _thread_key(t: "Thread") -> tuple:
    """``t``'s part of a control key, kept on ``t``: a state whose key is
    asked for is no longer run (a node's snapshot), and a state run after it
    copies a thread before changing it, so the key stays true."""
    t.key = (t.status, t.phase, t.atomic, t.pending is not None, t.spurious, t.timed_out,
             tuple((f.func.name, f.pc, _sorted_items(f.backedges),
                    tuple(sorted((h, m == t.decisions) for h, m in f.marks.items())) if f.marks else (),
                    _sorted_items(f.free_iters) if f.free_iters else ())
                   for f in t.frames))
    return t.key


class State:
    """See the module docstring. Fields are public; mutate threads, frames and
    memory objects only through :meth:`wthread`, :meth:`wframe` and
    ``memory.writable``."""

    __slots__ = (
        "gen", "threads", "memory", "pc", "locks", "mutex_kinds", "barriers", "sems", "rwlocks", "onces", "wq", "current", "seen_global",
        "event", "event_count", "steps", "schedule", "choices", "events", "effects", "symbols",
        "sym_counts", "next_oid", "next_frame", "routine_counts", "forced", "instr_taken",
        "wq_stamp", "ended", "ctx", "specific", "next_key", "taint", "free_iterations", "reached", "command_line", "awaiting",
        "twins", "block_symbols", "weak",
    )

    def __init__(self) -> None:
        self.gen = next(_generations)
        self.threads: list[Thread] = []
        self.memory = Memory({}, self.gen)
        self.pc: PathCond | None = None
        self.locks: dict[int, int] = {}  # mutex address -> owner tid
        # mutex address -> (type, times its owner holds it beyond the first) for
        # recursive and error-checking mutexes; normal ones are not listed
        self.mutex_kinds: dict[int, tuple[int, int]] = {}
        self.barriers: dict[int, tuple[Val, int]] = {}  # barrier address -> (count, arrived)
        self.sems: dict[int, int] = {}  # semaphore address -> its value
        # rwlock address -> (writer tid or None, reader tids sorted, one entry per read lock held)
        self.rwlocks: dict[int, tuple[int | None, tuple[int, ...]]] = {}
        # once-control address -> the thread running its routine, or None once
        # the routine has returned (pthread_once)
        self.onces: dict[int, int | None] = {}
        self.wq: tuple = ()  # ((queue address, tid), ...) oldest first
        self.current: int | None = None  # thread running its block, or None at a scheduling point
        self.seen_global = False
        self.event: Event | None = None
        self.event_count = 0
        self.steps: Any = None
        self.schedule: Any = None
        self.choices: Any = None
        self.events: Any = None
        self.effects: Any = None
        self.symbols: Any = None
        self.sym_counts: dict[str, int] = {}
        self.next_oid = 1
        self.next_frame = 1
        self.routine_counts: dict[str, int] = {}
        self.forced: list = []
        self.instr_taken: list = []  # (index, Option, trace record) of this instruction's forks
        self.wq_stamp = 0
        self.ended = False
        self.ctx: Any = None  # a context run's own state (distaff.analysis.context), immutable, shared by clones
        self.specific: dict = {}  # (tid, pthread key) -> value; replaced, never mutated, on a write
        self.next_key = 0  # the next pthread key to hand out
        # what the rest of the run depends on that distaff does not model (names
        # of functions, or phrases): every outcome after it is tainted
        self.taint: tuple[str, ...] = ()
        self.free_iterations = 0  # loop iterations not counted against the bound (Engine.back_edge)
        self.reached = False  # this run executed the target assertion (Engine.reach)
        self.command_line = False  # this run read main's argc or argv (Engine._exec)
        self.awaiting = 0  # threads blocked in an await (distaff.analysis.symex.awaits)
        self.twins: Any = None  # a Twins (distaff.analysis.symex.twins), immutable, or None
        self.block_symbols: Any = None  # ``symbols`` when the current block started (Engine.start_block)
        # the run's execution graph (distaff.analysis.symex.weak.Graph, immutable) under
        # C11 or when executions are counted; None: memory is sequentially consistent
        self.weak: Any = None

    def clone(self) -> "State":
        s = State.__new__(State)
        s.gen = next(_generations)
        s.threads = list(self.threads)
        s.memory = self.memory.clone(s.gen)
        s.pc = self.pc
        # (a copy of an empty table is a new empty one: cheaper, and most are)
        s.locks = self.locks.copy() if self.locks else {}
        s.mutex_kinds = self.mutex_kinds.copy() if self.mutex_kinds else {}
        s.barriers = self.barriers.copy() if self.barriers else {}
        s.sems = self.sems.copy() if self.sems else {}
        s.rwlocks = self.rwlocks.copy() if self.rwlocks else {}
        s.onces = self.onces.copy() if self.onces else {}
        s.wq = self.wq
        s.current = self.current
        s.seen_global = self.seen_global
        ev = self.event
        s.event = None if ev is None else Event(ev.index, ev.tid, ev.func, ev.pc, ev.span,
                                                list(ev.accesses), list(ev.syncs))
        s.event_count = self.event_count
        s.steps = self.steps
        s.schedule = self.schedule
        s.choices = self.choices
        s.events = self.events
        s.effects = self.effects
        s.symbols = self.symbols
        s.sym_counts = self.sym_counts.copy() if self.sym_counts else {}
        s.next_oid = self.next_oid
        s.next_frame = self.next_frame
        s.routine_counts = self.routine_counts.copy()
        s.forced = self.forced[:] if self.forced else []
        s.instr_taken = self.instr_taken[:] if self.instr_taken else []
        s.wq_stamp = self.wq_stamp
        s.ended = self.ended
        s.ctx = self.ctx
        s.specific = self.specific
        s.next_key = self.next_key
        s.taint = self.taint
        s.free_iterations = self.free_iterations
        s.reached = self.reached
        s.command_line = self.command_line
        s.awaiting = self.awaiting
        s.twins = self.twins
        s.block_symbols = self.block_symbols
        s.weak = self.weak
        return s

    # ------------------------------------------------------------------
    # copy-on-write access

    def wthread(self, tid: int) -> Thread:
        t = self.threads[tid]
        if t.gen != self.gen:
            t = t.copy(self.gen)
            self.threads[tid] = t
        return t

    def wframe(self, tid: int) -> Frame:
        t = self.wthread(tid)
        f = t.frames[-1]
        if f.gen != self.gen:
            f = f.copy(self.gen)
            t.frames[-1] = f
        return f

    def release(self, f: Frame) -> None:
        """A frame is gone: its stack objects and allocas are dead."""
        for oid in list(f.stack_objs.values()) + f.allocas:
            self.memory.writable(oid).alive = False

    # ------------------------------------------------------------------
    # the record of the run

    def add_step(self, tid: int, span: Span, *parts, op: tuple = ()) -> None:
        self.steps = (StepRecord(tid, span, parts, op), self.steps)

    def add_symbol(self, sym: Symbol) -> None:
        self.symbols = (sym, self.symbols)

    def add_effect(self, eff: Effect) -> None:
        self.effects = (eff, self.effects)

    def has_cut(self) -> bool:
        """Some thread was stopped at the unwind bound: the run is a real
        execution's prefix, but not all of what follows it was explored."""
        return any(t.status == CUT for t in self.threads)

    def enabled(self) -> list[int]:
        """Threads that may run now: all enabled ones, or only the thread inside
        an atomic region when there is one."""
        out = []
        for t in self.threads:
            if t.status == ENABLED:
                if t.atomic > 0:
                    return [t.tid]
                out.append(t.tid)
        return out

    def control_key(self) -> tuple:
        """(Only for a state no longer run: its threads keep their parts.)
        The global control state (assertion-guided paper §3.1, unrolled): per
        thread its status, wait phase, whether it woke spuriously, and call stack (function, pc, back-edge
        counters per frame), plus the synchronization state (mutex owners, the
        wait queue with concrete addresses, barrier arrivals), and the run's
        twins when it has any."""
        threads = tuple(t.key if t.key is not None else _thread_key(t) for t in self.threads)
        wq = tuple((a if isinstance(a, int) else str(a), t) for a, t in self.wq)
        bars = tuple(sorted((a, arrived) for a, (_, arrived) in self.barriers.items())) if self.barriers else ()
        key = (threads, _sorted_items(self.locks), wq, bars, _sorted_items(self.sems),
               _sorted_items(self.mutex_kinds), _sorted_items(self.onces, True), _sorted_items(self.rwlocks, True))
        return key if self.twins is None else key + (self.twins,)
