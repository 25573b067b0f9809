"""A concrete interpreter of :mod:`tests.differential.cprog` programs that
explores every input and every schedule: the differential test's oracle.

It shares nothing with the engine. Semantics (sequential consistency, C's
``int`` without overflow, ``assert`` = abort of the whole process):

* Each function compiles to a list of micro-operations. *Visible* ones are
  where another thread may run first: every read and every write of a global
  (``g = g + k`` is a read, then a write), lock, unlock, create, join, the
  two halves of a condition wait, signal, broadcast, atomic begin and end,
  and every assertion check (a failing assertion ends every thread, so its timing
  against the other threads matters as much as a write's). Everything else is
  local: it runs right after the visible operation before it.
* A *transition* of thread t executes t's next visible operation, then t's
  local code up to its next visible operation (or its end). A state is the
  threads' (pc, locals), the globals and the lock owners; states already
  visited are not explored again, so the search is over the state graph, not
  the tree of schedules.
* A lock is enabled when free, a join when the joined thread has ended. A
  state where no thread is enabled but some thread has not ended is a
  deadlock, unless a thread was cut. A failing assertion ends the run (C's abort).
* A spin loop (``Spin``) is an await: a round that reads the value it read
  before leads back to the same state, so the search meets it once; a state
  in which some thread can only spin and no other thread can do anything is
  *stuck* (the engine's stuck threads). A churning loop's thread (``Churn``)
  taking its back edge more than :data:`cprog.UNWIND` times is cut: it never
  runs again, the others go on (the engine's cut); so is main after a
  creation loop's ``UNWIND + 1`` creates. A failing ``__VERIFIER_assume``
  leaves the transition out (no run goes through it: the engine drops the
  path there).
* ``pthread_cond_wait(&c, &m)`` is two operations: WAIT releases m (the
  thread must hold it) and puts the thread to sleep on c; REACQUIRE is
  enabled once the thread was woken and m is free, and takes m. Signal wakes
  any one thread sleeping on c -- each choice is a transition of its own
  (the schedule names it as ``(thread, choice)``) -- or nobody when none
  sleeps; broadcast wakes them all. With ``spurious`` (the engine's
  ``Options.spurious_wakeups``) every WAIT may instead leave the thread awake:
  a second way its transition can go, so the schedule names it
  ``(thread, 1)``; a spurious round of a ``while`` wait loop that sees nothing
  new leads back to a state already met.
* A semaphore's value is a count: a wait is enabled when it is above 0 and
  takes one, a post adds one; a timed wait with nothing to take may also
  give up (its second way, ``(thread, 1)``). A read lock of an rwlock is enabled while no
  writer holds it, a write lock while nobody holds it. Semaphore values and
  rwlock holders sit in the lock-owner part of the state, after the mutexes.
* ``g += k`` and ``g++`` on an ``_Atomic`` global are atomic begin, read,
  write, atomic end (``g = g + k`` is a read and a write, as in C11); so is
  ``__atomic_fetch_add(&g, k, ...)`` on any global.
* Between atomic begin and end no other thread is enabled; if the thread
  inside blocks, it leaves the region (as the engine and SV-COMP's tools do).

Result: for each assertion, whether some run evaluates it (``reached``) and
one run that violates it (``violation``), and one deadlocking and one stuck
run, each with
its inputs and schedule (the thread of each transition), which
:func:`replay` runs again.
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass

from tests.differential import cprog as C

INT_MIN, INT_MAX = -(2**31), 2**31 - 1

# Opcodes. Visible: READ .. ATOMIC_END; local: SET .. BACK.
(READ, WRITE, LOCK, UNLOCK, CREATE, JOIN, ASSERT, WAIT, REACQUIRE, SIGNAL, ATOMIC_BEGIN,
 ATOMIC_END, SEM_WAIT, SEM_POST, RDLOCK, WRLOCK, RWUNLOCK, SET, BRANCH, JUMP, EXIT, BACK, ASSUME,
 STOP) = range(24)
VISIBLE = frozenset({READ, WRITE, LOCK, UNLOCK, CREATE, JOIN, ASSERT, WAIT, REACQUIRE,
                     SIGNAL, ATOMIC_BEGIN, ATOMIC_END, SEM_WAIT, SEM_POST, RDLOCK, WRLOCK, RWUNLOCK})
FREE = ()  # an rwlock nobody holds (a writer holds it as its thread number, readers as a tuple)
NOBODY = -1  # no lock owner, no atomic region, no condition slept on


class StateSpaceTooLarge(Exception):
    """More states than the cap: the generator rejects such programs."""


class OutsideContract(Exception):
    """The program breaks a contract of :mod:`cprog` (overflow, relocking):
    a generator bug, never an engine bug."""


@dataclass(frozen=True, slots=True)
class Witness:
    """A run: the inputs, the schedule (thread number of each transition;
    0 is main, created threads count from 1 in creation order; a signal with
    several threads to wake is ``(thread, choice)``, the choice indexing the
    sleepers in thread order), and the same run in words, one line per
    transition."""

    inputs: tuple[tuple[str, int], ...]
    schedule: tuple
    steps: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AssertionVerdict:
    label: int
    reached: bool
    violation: Witness | None

    @property
    def violated(self) -> bool:
        return self.violation is not None


@dataclass(frozen=True, slots=True)
class Outcome:
    """``assertions[label]`` for every assertion of the program; ``deadlock``
    is a deadlocking run if there is one; ``states`` counts visited states and
    ``runs`` the runs (maximal schedules, over all inputs) an explorer without
    state caching would try, with a context switch allowed before every
    visible operation. ``widest`` is the most runs of any one input: a
    symbolic explorer covers inputs by branches, so its runs grow with it.
    ``finals`` holds (inputs, globals) at the end of every run that ended
    normally (every thread ended, or main returned). ``cut``: some run ended
    with a thread stopped at the unwind bound (a spin loop)."""

    assertions: tuple[AssertionVerdict, ...]
    deadlock: Witness | None
    states: int
    runs: int
    widest: int
    finals: frozenset = frozenset()
    cut: bool = False
    stuck: Witness | None = None


# --------------------------------------------------------------------------
# Compilation


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_CMP = {"<": operator.lt, "<=": operator.le, "==": operator.eq,
        "!=": operator.ne, ">": operator.gt, ">=": operator.ge}


@dataclass(frozen=True, slots=True)
class Code:
    """One function compiled: ``ops`` (tuples whose first item is the opcode),
    the names of its local slots, and each op's text for witnesses."""

    name: str
    ops: tuple[tuple, ...]
    slots: tuple[str, ...]
    texts: tuple[str, ...]


def _reads_with_shortcuts(e: C.Expr, optional: bool = False) -> list[tuple[str, bool]]:
    """:func:`cprog.globals_read` with, for each read, whether C's
    short-circuit evaluation may skip it."""
    if isinstance(e, C.Global):
        return [(e.name, optional)]
    if isinstance(e, C.Bin):
        return (_reads_with_shortcuts(e.left, optional)
                + _reads_with_shortcuts(e.right, optional or e.op in C.LOGIC_OPS))
    if isinstance(e, (C.Not, C.Abs)):
        return _reads_with_shortcuts(e.operand, optional)
    return []


def sync_slots(program: C.Program) -> tuple[dict, dict]:
    """Where each semaphore and each rwlock sits in the lock part of a state
    (after the mutexes): two maps from name to index."""
    m, n = len(program.mutexes), len(program.sems)
    return ({name: m + i for i, (name, _) in enumerate(program.sems)},
            {name: m + n + i for i, name in enumerate(program.rwlocks)})


class _Compiler:
    def __init__(self, program: C.Program, name: str, local_names, create_slot):
        self.globals = {g: i for i, (g, _) in enumerate(program.globals)}
        self.mutexes = {m: i for i, m in enumerate(program.mutexes)}
        self.sems, self.rwlocks = sync_slots(program)
        self.atomics = frozenset(program.atomics)
        self.in_atomic = 0  # inside an atomic block: an atomic global's update needs no bracket of its own
        self.conds = {c: i for i, c in enumerate(program.conds)}
        self.name = name
        self.slots = {n: i for i, n in enumerate(local_names)}
        self.create_slot = create_slot
        self.ops: list[tuple] = []
        self.texts: list[str] = []
        self.temps = 0

    def slot(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = len(self.slots)
        return self.slots[name]

    def emit(self, op: tuple, text: str) -> int:
        self.ops.append(op)
        self.texts.append(text)
        return len(self.ops) - 1

    def patch(self, at: int, op: tuple) -> None:
        self.ops[at] = op

    def reads(self, e: C.Expr) -> tuple[dict, list[int]]:
        """Emit a READ into a temporary for each global of ``e``; the map from
        global occurrence (in order) to temporary."""
        temps = []
        for i, (g, optional) in enumerate(_reads_with_shortcuts(e)):
            t = self.slot(f"$t{i}")
            # "?": C may skip this read (right operand of && or ||): a trace need not show it
            self.emit((READ, self.globals[g], t), f"read {g}" + ("?" if optional else ""))
            temps.append(t)
        return temps

    def expr(self, e: C.Expr, temps: list[int]):
        """A function of the locals tuple computing ``e``; globals come from
        ``temps`` in order of occurrence."""
        it = iter(temps)

        def build(e):
            if isinstance(e, C.Const):
                v = e.value
                return lambda L: v
            if isinstance(e, C.Local):
                i = self.slots[e.name]
                return lambda L: L[i]
            if isinstance(e, C.Global):
                i = next(it)
                return lambda L: L[i]
            if isinstance(e, C.Not):
                f = build(e.operand)
                return lambda L: int(not f(L))
            if isinstance(e, C.Abs):
                f = build(e.operand)
                return lambda L: abs(f(L))
            f, g = build(e.left), build(e.right)
            if e.op in _ARITH:
                op = _ARITH[e.op]
                return lambda L: op(f(L), g(L))
            if e.op in _CMP:
                op = _CMP[e.op]
                return lambda L: int(op(f(L), g(L)))
            if e.op == "&&":
                return lambda L: int(bool(f(L)) and bool(g(L)))
            if e.op == "||":
                return lambda L: int(bool(f(L)) or bool(g(L)))
            raise OutsideContract(f"operator {e.op}")

        return build(e)

    def clear(self, temps):
        for t in temps:  # stale temporaries would only split equal states
            self.emit((SET, t, lambda L: 0), "")

    def block(self, body):
        for s in body:
            self.stmt(s)

    def stmt(self, s: C.Stmt) -> None:
        if isinstance(s, C.Assign):
            temps = self.reads(s.value)
            self.emit((SET, self.slot(s.target), self.expr(s.value, temps)), "")
            self.clear(temps)
        elif isinstance(s, C.Store):
            temps = self.reads(s.value)
            self.emit((WRITE, self.globals[s.target], self.expr(s.value, temps)),
                      f"write {s.target}")
            self.clear(temps)
        elif isinstance(s, C.Incr):
            t = self.slot("$t0")
            k = s.amount
            # += and ++ on an _Atomic global, __atomic_fetch_add on any: one
            # atomic read-modify-write
            atomic = (s.style == "fetch" or (s.target in self.atomics and s.style != "plus")) and not self.in_atomic
            if atomic:
                self.emit((ATOMIC_BEGIN,), "atomic begin")
            self.emit((READ, self.globals[s.target], t), f"read {s.target}")
            self.emit((WRITE, self.globals[s.target], lambda L: L[t] + k), f"write {s.target}")
            if atomic:
                self.emit((ATOMIC_END,), "atomic end")
            self.clear([t])
        elif isinstance(s, C.If):
            temps = self.reads(s.cond)
            cond = self.expr(s.cond, temps)
            at = self.emit(None, "")  # the branch reads the temporaries: cleared in both arms
            self.clear(temps)
            self.block(s.then)
            jump = self.emit(None, "")
            self.patch(at, (BRANCH, cond, len(self.ops)))
            self.clear(temps)
            self.block(s.orelse)
            self.patch(jump, (JUMP, len(self.ops)))
        elif isinstance(s, C.Locked):
            m = self.mutexes[s.mutex]
            self.emit((LOCK, m), f"lock {s.mutex}")
            self.block(s.body)
            self.emit((UNLOCK, m), f"unlock {s.mutex}")
        elif isinstance(s, C.For):
            v = self.slot(s.var)
            n = s.count
            self.emit((SET, v, lambda L: 0), "")
            top = self.emit(None, "")
            self.block(s.body)
            self.emit((SET, v, lambda L: L[v] + 1), "")
            self.emit((JUMP, top), "")
            self.patch(top, (BRANCH, lambda L: L[v] < n, len(self.ops)))
        elif isinstance(s, C.Spin):
            top = len(self.ops)
            g = self.slot("$spin")
            self.emit((READ, self.globals[s.target], g), f"read {s.target}")
            value = s.value
            at = self.emit(None, "")
            self.emit((SET, g, lambda L: 0), "")  # a futile round ends where it began
            self.emit((JUMP, top), "")
            self.patch(at, (BRANCH, lambda L: L[g] != value, len(self.ops)))
            self.emit((SET, g, lambda L: 0), "")
        elif isinstance(s, C.CasAdd):
            top = len(self.ops)
            mine, t = self.slot(s.local), self.slot("$cas")
            where, k = self.globals[s.target], s.amount
            self.emit((READ, where, mine), f"read {s.target}")
            self.emit((ATOMIC_BEGIN,), "atomic begin")
            self.emit((READ, where, t), f"read {s.target}")
            at = self.emit(None, "")
            self.emit((WRITE, where, lambda L: L[mine] + k), f"write {s.target}")
            self.emit((ATOMIC_END,), "atomic end")
            self.emit((SET, t, lambda L: 0), "")
            done = self.emit(None, "")
            self.patch(at, (BRANCH, lambda L: L[t] == L[mine], len(self.ops)))
            self.emit((ATOMIC_END,), "atomic end")  # the swap failed: another round
            self.emit((SET, t, lambda L: 0), "")
            self.emit((JUMP, top), "")
            self.patch(done, (JUMP, len(self.ops)))
        elif isinstance(s, C.Churn):
            count = self.slot(f"$s{len(self.ops)}")
            self.emit((SET, count, lambda L: 0), "")
            top = len(self.ops)
            g, mine = self.slot("$churn"), self.slot(s.local)
            self.emit((READ, self.globals[s.target], g), f"read {s.target}")
            value = s.value
            at = self.emit(None, "")
            self.emit((SET, mine, lambda L: L[mine] + 1), "")
            self.emit((BACK, count, top), "")
            self.patch(at, (BRANCH, lambda L: L[g] != value, len(self.ops)))
            self.emit((SET, g, lambda L: 0), "")
        elif isinstance(s, C.Assume):
            temps = self.reads(s.cond)
            self.emit((ASSUME, self.expr(s.cond, temps)), "")
            self.clear(temps)
        elif isinstance(s, C.CreateLoop):
            for slot in self.create_slot[("loop", s.routine)]:
                self.emit((CREATE, slot), f"create {s.routine}")
            self.emit((STOP,), "")
        elif isinstance(s, C.Assert):
            temps = self.reads(s.cond)
            self.emit((ASSERT, s.label, self.expr(s.cond, temps)), f"assert({C.expr_c(s.cond)})")
            self.clear(temps)
        elif isinstance(s, C.ReturnIf):
            temps = self.reads(s.cond)
            at = self.emit(None, "")
            self.emit((EXIT,), "return")
            self.patch(at, (BRANCH, self.expr(s.cond, temps), len(self.ops)))
            self.clear(temps)
        elif isinstance(s, C.Create):
            self.emit((CREATE, self.create_slot[s.handle]), f"create {s.routine}")
        elif isinstance(s, C.Join):
            self.emit((JOIN, self.create_slot[s.handle]), f"join h{s.handle}")
        elif isinstance(s, C.CondWait):
            self.cond_wait(s)
        elif isinstance(s, C.Signal):
            self.emit((SIGNAL, self.conds[s.cond], s.broadcast),
                      f"{'broadcast' if s.broadcast else 'signal'} {s.cond}")
        elif isinstance(s, C.SemWait):
            self.emit((SEM_WAIT, self.sems[s.sem], s.timed), f"sem_{'timed' if s.timed else ''}wait {s.sem}")
        elif isinstance(s, C.SemPost):
            self.emit((SEM_POST, self.sems[s.sem]), f"sem_post {s.sem}")
        elif isinstance(s, C.RwLocked):
            lock = self.rwlocks[s.lock]
            self.emit((WRLOCK if s.write else RDLOCK, lock), f"{'wr' if s.write else 'rd'}lock {s.lock}")
            self.block(s.body)
            self.emit((RWUNLOCK, lock), f"unlock {s.lock}")
        elif isinstance(s, C.Atomic):
            self.emit((ATOMIC_BEGIN,), "atomic begin")
            self.in_atomic += 1
            self.block(s.body)
            self.in_atomic -= 1
            self.emit((ATOMIC_END,), "atomic end")
        else:  # pragma: no cover
            raise OutsideContract(f"statement {s!r}")

    def cond_wait(self, s: C.CondWait) -> None:
        c, m = self.conds[s.cond], self.mutexes[s.mutex]
        top = len(self.ops)
        temps = self.reads(s.guard)
        at = self.emit(None, "")
        self.clear(temps)
        self.emit((WAIT, c, m), f"wait on {s.cond} (unlock {s.mutex})")
        self.emit((REACQUIRE, m), f"woken, lock {s.mutex}")
        if s.loop:
            self.emit((JUMP, top), "")
        self.patch(at, (BRANCH, self.expr(s.guard, temps), len(self.ops)))
        self.clear(temps)

    def done(self) -> Code:
        return Code(self.name, tuple(self.ops), tuple(self.slots), tuple(self.texts))


@dataclass(frozen=True, slots=True)
class Compiled:
    """``codes[slot]`` is the code thread ``slot`` runs (0: main)."""

    program: C.Program
    codes: tuple[Code, ...]
    names: tuple[str, ...]


def compile_program(program: C.Program) -> Compiled:
    creates = [s for s in program.main if isinstance(s, C.Create)]
    if len(creates) != len([s for s in C.walk(program.main) if isinstance(s, C.Create)]):
        raise OutsideContract("pthread_create below the top level of main")
    create_slot: dict = {s.handle: i + 1 for i, s in enumerate(creates)}
    loops = [s for s in program.main if isinstance(s, C.CreateLoop)]
    for s in loops:  # the threads a creation loop starts before the bound stops main
        first = len(creates) + 1
        create_slot[("loop", s.routine)] = tuple(range(first, first + C.UNWIND + 1))
        creates += [C.Create(-1, s.routine)] * (C.UNWIND + 1)
    main = _Compiler(program, "main", [i.name for i in program.inputs] + list(program.main_locals),
                     create_slot)
    main.block(program.main)
    codes = [main.done()]
    names = ["main"]
    compiled_routines = {}
    for r in program.routines:
        c = _Compiler(program, r.name, r.locals, create_slot)
        c.block(r.body)
        compiled_routines[r.name] = c.done()
    for i, s in enumerate(creates):
        codes.append(compiled_routines[s.routine])
        names.append(f"{s.routine}#{i + 1}")
    return Compiled(program, tuple(codes), tuple(names))


# --------------------------------------------------------------------------
# Execution

DONE = None  # the locals of an ended thread (pc is then len(ops))
CUT = "cut"  # the locals of a thread stopped at the unwind bound (never runs again)
INFEASIBLE = "infeasible"  # an assumption failed: the run is left out


def _settle(code: Code, pc: int, L: list) -> tuple[int, bool | str]:
    """Run local operations from ``pc``; the pc of the next visible operation
    (or the end), and whether main returned early (True) or the thread was
    cut at the unwind bound (CUT)."""
    ops = code.ops
    n = len(ops)
    while pc < n:
        op = ops[pc]
        kind = op[0]
        if kind in VISIBLE:
            return pc, False
        if kind == SET:
            v = op[2](L)
            if not INT_MIN <= v <= INT_MAX:
                raise OutsideContract(f"overflow in {code.name}")
            L[op[1]] = v
            pc += 1
        elif kind == BRANCH:
            pc = pc + 1 if op[1](L) else op[2]
        elif kind == JUMP:
            pc = op[1]
        elif kind == BACK:  # a churning loop's back edge: the (UNWIND+1)th cuts the thread
            if L[op[1]] >= C.UNWIND:
                return pc, CUT
            L[op[1]] += 1
            pc = op[2]
        elif kind == ASSUME:
            if not op[1](L):
                return pc, INFEASIBLE
            pc += 1
        elif kind == STOP:  # a creation loop past the bound
            return pc, CUT
        else:  # EXIT
            return n, True
    return n, False


def _thread(code: Code, pc: int, L: list) -> tuple:
    pc, how = _settle(code, pc, L)
    if how is INFEASIBLE:
        raise OutsideContract("an assumption before a thread's first visible operation")
    return (pc, CUT if how is CUT else DONE if pc == len(code.ops) else tuple(L))


class _Step:
    """What one transition did: ``kind`` is "next" (a successor state),
    "blocked", "violated" (``label``) or "exit" (main returned)."""

    __slots__ = ("kind", "state", "label", "value", "pc")

    def __init__(self, kind, state=None, label=None, value=None, pc=None):
        self.kind, self.state, self.label, self.value, self.pc = kind, state, label, value, pc


def _initial(compiled: Compiled, inputs: tuple[int, ...]) -> tuple[tuple, bool]:
    """The start state, and whether main returned before any visible operation."""
    program = compiled.program
    main = compiled.codes[0]
    L = list(inputs) + [0] * (len(main.slots) - len(inputs))
    pc, exited = _settle(main, 0, L)
    if exited is CUT:
        raise OutsideContract("main spins before any thread exists")
    threads = [(pc, DONE if pc == len(main.ops) else tuple(L))] + [None] * (len(compiled.codes) - 1)
    sleeping = (NOBODY,) * len(compiled.codes)
    locks = (NOBODY,) * len(program.mutexes) + tuple(v for _, v in program.sems) + (FREE,) * len(program.rwlocks)
    return (tuple(threads), tuple(v for _, v in program.globals), locks, sleeping, NOBODY), exited


def sleepers(state: tuple, cond: int) -> list[int]:
    """The threads sleeping on condition ``cond``, in thread order."""
    return [u for u, c in enumerate(state[3]) if c == cond]


def choices(compiled: Compiled, state: tuple, t: int, spurious: bool = False) -> int:
    """How many ways thread t's next transition can go (the sleepers a
    signal may wake; with ``spurious``, a wait: sleep or stay awake; 1 for
    everything else)."""
    th = state[0][t]
    if th is None or th[1] is DONE:
        return 1
    op = compiled.codes[t].ops[th[0]]
    if op[0] == SIGNAL and not op[2]:
        return max(1, len(sleepers(state, op[1])))
    if op[0] == WAIT and spurious:
        return 2
    if op[0] == SEM_WAIT and op[2] and state[2][op[1]] == 0:
        return 2  # a timed wait with nothing to take: sleep, or give up
    return 1


def _step(compiled: Compiled, state: tuple, t: int, choice: int = 0) -> _Step:
    """Thread t's next transition (for a signal, the one waking sleeper
    number ``choice``; for a wait, choice 1 wakes at once, spuriously)."""
    threads, globs, locks, sleeping, atomic = state
    th = threads[t]
    if th is None or th[1] is DONE or th[1] is CUT:
        return _Step("blocked")
    if atomic not in (NOBODY, t):
        if _step(compiled, state, atomic).kind != "blocked":
            return _Step("blocked")
        atomic = NOBODY  # the thread inside blocked: it left the region
    code = compiled.codes[t]
    pc, locals_ = th
    op = code.ops[pc]
    kind = op[0]
    L = list(locals_)
    value = None
    if kind == READ:
        value = L[op[2]] = globs[op[1]]
    elif kind == WRITE:
        value = op[2](L)
        if not INT_MIN <= value <= INT_MAX:
            raise OutsideContract(f"overflow in {code.name}")
        globs = globs[: op[1]] + (value,) + globs[op[1] + 1:]
    elif kind == LOCK:
        if locks[op[1]] != -1:
            if locks[op[1]] == t:
                raise OutsideContract("a thread relocks its own mutex")
            return _Step("blocked")
        locks = locks[: op[1]] + (t,) + locks[op[1] + 1:]
    elif kind == UNLOCK:
        if locks[op[1]] != t:
            raise OutsideContract("unlock of a mutex the thread does not hold")
        locks = locks[: op[1]] + (-1,) + locks[op[1] + 1:]
    elif kind == SEM_WAIT:
        if locks[op[1]] == 0 and choice == 1:
            value = ": timed out"
        elif locks[op[1]] == 0:
            return _Step("blocked")
        else:
            locks = locks[: op[1]] + (locks[op[1]] - 1,) + locks[op[1] + 1:]
    elif kind == SEM_POST:
        locks = locks[: op[1]] + (locks[op[1]] + 1,) + locks[op[1] + 1:]
    elif kind in (RDLOCK, WRLOCK):
        held = locks[op[1]]
        if kind == WRLOCK and held != FREE or kind == RDLOCK and not isinstance(held, tuple):
            return _Step("blocked")
        mine = t if kind == WRLOCK else tuple(sorted(held + (t,)))
        locks = locks[: op[1]] + (mine,) + locks[op[1] + 1:]
    elif kind == RWUNLOCK:
        held = locks[op[1]]
        if held == t:
            left = FREE
        elif isinstance(held, tuple) and t in held:
            k = held.index(t)
            left = held[:k] + held[k + 1:]
        else:
            raise OutsideContract("unlock of an rwlock the thread does not hold")
        locks = locks[: op[1]] + (left,) + locks[op[1] + 1:]
    elif kind == CREATE:
        slot = op[1]
        new = compiled.codes[slot]
        threads = threads[:slot] + (_thread(new, 0, [0] * len(new.slots)),) + threads[slot + 1:]
    elif kind == JOIN:
        joined = threads[op[1]]
        if joined is None or joined[1] is not DONE:
            return _Step("blocked")
    elif kind == ASSERT:
        value = op[2](L)
        if not value:
            return _Step("violated", label=op[1], pc=pc)
    elif kind == WAIT:
        if locks[op[2]] != t:
            raise OutsideContract("a wait on a mutex the thread does not hold")
        locks = locks[: op[2]] + (NOBODY,) + locks[op[2] + 1:]
        if choice == 1:
            value = ", woken spuriously"
        else:
            sleeping = sleeping[:t] + (op[1],) + sleeping[t + 1:]
    elif kind == REACQUIRE:
        if sleeping[t] != NOBODY or locks[op[1]] != NOBODY:
            return _Step("blocked")
        locks = locks[: op[1]] + (t,) + locks[op[1] + 1:]
    elif kind == SIGNAL:
        asleep = sleepers(state, op[1])
        woken = asleep if op[2] else asleep[choice: choice + 1]
        for u in woken:
            sleeping = sleeping[:u] + (NOBODY,) + sleeping[u + 1:]
        value = ", waking " + ", ".join(compiled.names[u] for u in woken) if woken else " (no waiter)"
    elif kind == ATOMIC_BEGIN:
        if atomic == t:
            raise OutsideContract("nested atomic blocks")
        atomic = t
    elif kind == ATOMIC_END:
        atomic = NOBODY
    pc, exited = _settle(code, pc + 1, L)
    if exited is INFEASIBLE:
        return _Step("infeasible")
    if exited is True:
        return _Step("exit", (threads, globs, locks, sleeping, atomic), pc=pc)
    if exited is CUT:
        if atomic == t:
            raise OutsideContract("a spin loop inside an atomic block")
        mine = (pc, CUT)
    else:
        mine = (pc, DONE if pc == len(code.ops) else tuple(L))
    threads = threads[:t] + (mine,) + threads[t + 1:]
    return _Step("next", (threads, globs, locks, sleeping, atomic), value=value, pc=th[0])


def _moves(compiled: Compiled, state: tuple, spurious: bool):
    """(thread, choice) for every transition that may be tried from
    ``state``; choice is None when the thread's next transition has only one
    way to go."""
    for t, th in enumerate(state[0]):
        if th is None or th[1] is DONE or th[1] is CUT:
            continue
        n = choices(compiled, state, t, spurious)
        if n == 1:
            yield t, None
        else:
            yield from ((t, k) for k in range(n))


def _alive(state: tuple) -> bool:
    return any(th is not None and th[1] is not DONE for th in state[0])


def _cut(state: tuple) -> bool:
    return any(th is not None and th[1] is CUT for th in state[0])


def _describe(compiled: Compiled, t: int, pc: int, value) -> str:
    text = compiled.codes[t].texts[pc].removesuffix("?")
    if isinstance(value, str):
        text += value
    elif value is not None:
        text += f" == {value}" if text.startswith(("read", "assert")) else f" = {value}"
    return f"{compiled.names[t]}: {text}"


def _input_space(program: C.Program, fixed: dict | None):
    ranges = []
    for i in program.inputs:
        if fixed is not None and i.name in fixed:
            v = fixed[i.name]
            ranges.append([v] if i.lo <= v <= i.hi else [])  # outside: assume fails
        else:
            ranges.append(range(i.lo, i.hi + 1))
    return itertools.product(*ranges)


def explore(program: C.Program, fixed_inputs: dict | None = None,
            max_states: int = 200_000, spurious: bool = False) -> Outcome:
    """Every run of ``program`` over every input in its domain (inputs named
    in ``fixed_inputs`` take only that value; a value outside the domain
    leaves no run) and every schedule.

    Raises StateSpaceTooLarge beyond ``max_states`` states, OutsideContract
    when the program breaks a contract of :mod:`cprog`."""
    compiled = compile_program(program)
    labels = [a.label for a in C.assertions(program)]
    if labels != list(range(len(labels))):
        raise OutsideContract("assertions are not numbered in source order")
    reached = [False] * len(labels)
    violations: list[Witness | None] = [None] * len(labels)
    deadlock: list[Witness | None] = [None]
    stuck: list[Witness | None] = [None]
    cut = [False]
    seen: dict = {}  # state -> the number of runs from it
    total_runs = widest = 0
    finals: set = set()
    names = [i.name for i in program.inputs]

    for inputs in _input_space(program, fixed_inputs):
        start, exited = _initial(compiled, inputs)
        if exited:  # main returned before any visible operation
            finals.add((inputs, start[1]))
            total_runs += 1
            widest = max(widest, 1)
            continue
        path: list[tuple[object, int, int, object]] = []  # (schedule item, thread, pc, value)

        def witness(last=None):
            steps = path + ([last] if last else [])
            return Witness(tuple(zip(names, inputs)), tuple(item for item, _, _, _ in steps),
                           tuple(_describe(compiled, t, pc, v) for _, t, pc, v in steps))

        def visit(state) -> int:
            """Visit ``state`` and what follows; the number of runs from it."""
            if len(seen) >= max_states:
                raise StateSpaceTooLarge(f"more than {max_states} states")
            seen[state] = 0
            runs = 0
            moved = spins = dropped = False  # a move somewhere else; a futile spin; a failed assumption
            threads = state[0]
            if _cut(state):  # the engine's runs through here say "within the bound"
                cut[0] = True
            for t, choice in _moves(compiled, state, spurious):
                th = threads[t]
                step = _step(compiled, state, t, choice or 0)
                if step.kind == "blocked":
                    continue
                item = t if choice is None else (t, choice)
                op = compiled.codes[t].ops[th[0]]
                if op[0] == ASSERT:
                    reached[op[1]] = True
                if step.kind == "infeasible":
                    dropped = True
                    continue
                if step.kind == "next" and step.state == state:  # a spin round that saw nothing new
                    spins = True
                    continue
                moved = True
                if step.kind == "violated":
                    if violations[step.label] is None:
                        violations[step.label] = witness((item, t, step.pc, 0))
                    runs += 1
                elif step.kind == "exit":
                    finals.add((inputs, step.state[1]))
                    runs += 1
                elif step.state in seen:
                    runs += seen[step.state]
                else:
                    path.append((item, t, step.pc, step.value))
                    runs += visit(step.state)
                    path.pop()
            if not moved and dropped:  # a thread's way on fails an assumption: no run ends here
                pass  # (the engine drops the path when that thread runs, so it is never stuck here)
            elif not moved:  # every thread ended, a thread was cut, a deadlock, or stuck spinning
                runs = 1
                if _cut(state):  # not a deadlock: the cut thread's run was not finished
                    pass
                elif not _alive(state):
                    finals.add((inputs, state[1]))
                elif spins:
                    if stuck[0] is None:
                        stuck[0] = witness()
                elif deadlock[0] is None:
                    deadlock[0] = witness()
            elif runs == 0:  # only back to states on the way here (a wait loop woken for nothing)
                runs = 1
            seen[state] = runs
            return runs

        if start not in seen:
            visit(start)
        total_runs += seen[start]
        widest = max(widest, seen[start])

    verdicts = tuple(AssertionVerdict(i, reached[i], violations[i]) for i in range(len(labels)))
    return Outcome(verdicts, deadlock[0], len(seen), total_runs, widest, frozenset(finals), cut[0], stuck[0])


def replay(program: C.Program, inputs: dict, schedule, spurious: bool = False) -> tuple[str, int | None]:
    """Run ``program`` with ``inputs`` along ``schedule`` (a thread number per
    transition). Returns ("violated", label), ("deadlock", None), ("end", None)
    when every thread ended, ("exit", None) when main returned early, or
    ("stuck", i) when transition i of the schedule is not possible, or
    ("unfinished", None) when the schedule ran out first. A plain thread
    number at a signal with several sleepers wakes the first."""
    compiled = compile_program(program)
    values = tuple(inputs[i.name] for i in program.inputs)
    state, exited = _initial(compiled, values)
    if exited:
        return ("exit", None)
    for i, item in enumerate(schedule):
        t, choice = item if isinstance(item, tuple) else (item, 0)
        if t >= len(compiled.codes) or choice >= choices(compiled, state, t, spurious):
            return ("stuck", i)
        step = _step(compiled, state, t, choice)
        if step.kind == "blocked":
            return ("stuck", i)
        if step.kind == "violated":
            return ("violated", step.label)
        if step.kind == "exit":
            return ("exit", None)
        state = step.state
    if not _alive(state):
        return ("end", None)
    if all(_step(compiled, state, t).kind == "blocked" for t in range(len(compiled.codes))):
        return ("cut", None) if _cut(state) else ("deadlock", None)
    return ("unfinished", None)
