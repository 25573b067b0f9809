"""The generated programs' own small AST, and the C text it stands for.

This AST is deliberately independent of :mod:`distaff.analysis.ir`: the differential
test compares the engine (front end + symbolic execution) against a concrete
interpreter of *this* AST, so nothing here may come from the engine.

A :class:`Program` is a pthreads program of a fixed shape: ``int`` globals,
optional mutexes, condition variables, semaphores and reader-writer locks, thread routines with ``int`` locals, and ``main``, which
reads its nondet inputs first (each constrained to ``lo..hi`` by
``__VERIFIER_assume``), then runs its own statements, among them the
``pthread_create``/``pthread_join`` calls. Every statement prints on lines of
its own, so an assertion and a nondet call are identified by their line.

Contracts the generator keeps (and the oracle relies on): values stay far from
``int`` overflow; an expression evaluated while other threads may run reads at
most one global, once (C leaves the order of operand evaluation unspecified);
mutexes are locked and unlocked in properly nested blocks, never relocked by
their holder; creates and joins appear only at the top level of ``main``; a
condition wait sits in a locked block of its mutex; semaphore waits and
posts and rwlock sections sit at a routine's top level, and no rwlock section
holds another; an atomic block holds no
lock, wait, create or join (nothing that blocks) and no atomic block; no run
wakes one ``while`` wait loop more than :data:`MAX_WAIT_ROUNDS` times with a
signal. A spin loop (:class:`Spin`) is an await: a round that reads what it
read before changes nothing, and the thread waits for a change (a thread that
can only spin is stuck). A churning loop (:class:`Churn`) changes a local
every round: it is the loop the unwind bound applies to, a thread taking its
back edge more than :data:`UNWIND` times stops there for good (the engine's
cut), and the other threads go on; so does a creation loop
(:class:`CreateLoop`), which stops main after ``UNWIND + 1`` threads. An
assumption (:class:`Assume`) that fails leaves the run out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

MAX_WAIT_ROUNDS = 4
UNWIND = 4  # the unwind bound both sides use

# --------------------------------------------------------------------------
# Expressions


@dataclass(frozen=True, slots=True)
class Const:
    value: int


@dataclass(frozen=True, slots=True)
class Local:
    """A local ``int`` of the running function (a routine's local, a loop
    counter, or one of main's inputs)."""

    name: str


@dataclass(frozen=True, slots=True)
class Global:
    name: str


ARITH_OPS = ("+", "-", "*")
CMP_OPS = ("<", "<=", "==", "!=", ">", ">=")
LOGIC_OPS = ("&&", "||")


@dataclass(frozen=True, slots=True)
class Bin:
    """``left op right`` with ``op`` in ARITH_OPS, CMP_OPS or LOGIC_OPS (C's
    meaning: comparisons and logic give 0 or 1)."""

    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True, slots=True)
class Not:
    operand: "Expr"


@dataclass(frozen=True, slots=True)
class Abs:
    """``abs(operand)``: a C library call the engine models (operands stay
    small, so the most negative int never reaches it)."""

    operand: "Expr"


Expr = Union[Const, Local, Global, Bin, Not, Abs]


def globals_read(e: Expr) -> list[str]:
    """The globals an expression reads, in order, with repetitions."""
    if isinstance(e, Global):
        return [e.name]
    if isinstance(e, Bin):
        return globals_read(e.left) + globals_read(e.right)
    if isinstance(e, (Not, Abs)):
        return globals_read(e.operand)
    return []


# --------------------------------------------------------------------------
# Statements


@dataclass(frozen=True, slots=True)
class Assign:
    """``local = value;`` (``local = g;`` is the common case)."""

    target: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Store:
    """``g = value;``: the reads of ``value``, then one write."""

    target: str
    value: Expr


INCR_STYLES = ("plus", "compound", "step", "fetch")


@dataclass(frozen=True, slots=True)
class Incr:
    """``g = g + k;`` printed as ``g = g + k``, ``g += k``, (k = +-1)
    ``g++``/``g--`` or, style ``fetch``, ``__atomic_fetch_add(&g, k,
    __ATOMIC_SEQ_CST);`` (``_sub`` for k < 0: one atomic step, whatever g's
    type): in every style a read of g, then a write."""

    target: str
    amount: int
    style: str = "plus"


@dataclass(frozen=True, slots=True)
class If:
    cond: Expr
    then: tuple["Stmt", ...]
    orelse: tuple["Stmt", ...] = ()


@dataclass(frozen=True, slots=True)
class Locked:
    """``pthread_mutex_lock(&m); body pthread_mutex_unlock(&m);``"""

    mutex: str
    body: tuple["Stmt", ...]


@dataclass(frozen=True, slots=True)
class For:
    """``for (int var = 0; var < count; var++) { body }``"""

    var: str
    count: int
    body: tuple["Stmt", ...]


@dataclass(frozen=True, slots=True)
class CondWait:
    """``while (guard) pthread_cond_wait(&cond, &mutex);`` (``loop``) or
    ``if (guard) pthread_cond_wait(&cond, &mutex);``, on one line, inside a
    locked block of ``mutex``. The wait releases the mutex, sleeps until a
    signal or broadcast wakes it (no spurious wake-ups), then takes the mutex
    again."""

    cond: str
    mutex: str
    guard: Expr
    loop: bool = True


@dataclass(frozen=True, slots=True)
class Signal:
    """``pthread_cond_signal(&cond);`` (wakes any one waiter, or nobody when
    none waits) or, ``broadcast``, ``pthread_cond_broadcast(&cond);`` (wakes
    every waiter)."""

    cond: str
    broadcast: bool = False


@dataclass(frozen=True, slots=True)
class Atomic:
    """``__VERIFIER_atomic_begin(); body __VERIFIER_atomic_end();``: no other
    thread runs in between."""

    body: tuple["Stmt", ...]


@dataclass(frozen=True, slots=True)
class Spin:
    """``while (global != value) { }``: a busy wait, at the top level of a
    routine. An await: no bound applies."""

    target: str
    value: int


@dataclass(frozen=True, slots=True)
class Churn:
    """``while (global != value) { local = local + 1; }``: a busy wait that
    counts its rounds, at the top level of a routine. Each back edge counts
    against :data:`UNWIND`; past it the thread stops for good."""

    target: str
    value: int
    local: str


@dataclass(frozen=True, slots=True)
class CasAdd:
    """``do { local = global; } while (!__sync_bool_compare_and_swap(&global,
    local, local + amount));``: a lock-free increment, at the top level of a
    routine. A round whose compare-and-swap fails changes nothing (another
    thread wrote the global in between); no bound applies."""

    target: str
    amount: int
    local: str


@dataclass(frozen=True, slots=True)
class Assume:
    """``__VERIFIER_assume(cond);`` in a routine, ``cond`` reading one global:
    a run in which it fails is left out."""

    cond: "Expr"


@dataclass(frozen=True, slots=True)
class CreateLoop:
    """``while (1) pthread_create(&hloop, 0, routine, 0);``: main's last
    statement. The unwind bound stops main after ``UNWIND + 1`` threads."""

    routine: str


@dataclass(frozen=True, slots=True)
class SemWait:
    """``sem_wait(&sem);``: takes one from the semaphore, or sleeps until a
    post leaves one to take. ``timed``: ``sem_timedwait(&sem, &deadline);``,
    which may also give up instead of sleeping (the result is not used)."""

    sem: str
    timed: bool = False


@dataclass(frozen=True, slots=True)
class SemPost:
    """``sem_post(&sem);``: adds one (waking the threads sleeping on it, which
    compete for it again)."""

    sem: str


@dataclass(frozen=True, slots=True)
class RwLocked:
    """``pthread_rwlock_wrlock(&lock);`` (``write``) or ``..._rdlock``, then
    ``body pthread_rwlock_unlock(&lock);``. Readers share the lock while no
    writer holds it (readers first); a writer needs it free."""

    lock: str
    write: bool
    body: tuple["Stmt", ...]


@dataclass(frozen=True, slots=True)
class Assert:
    """``assert(cond);`` ``label`` numbers the assertions of a program in
    source order, from 0 (see :func:`number_assertions`)."""

    label: int
    cond: Expr


@dataclass(frozen=True, slots=True)
class ReturnIf:
    """``if (cond) return 0;`` in main before any thread exists."""

    cond: Expr


@dataclass(frozen=True, slots=True)
class Create:
    """``pthread_create(&h<handle>, 0, routine, 0);``"""

    handle: int
    routine: str


@dataclass(frozen=True, slots=True)
class Join:
    handle: int


Stmt = Union[Assign, Store, Incr, If, Locked, For, Assert, ReturnIf, Create, Join,
             CondWait, Signal, Atomic, Spin, Churn, CasAdd, Assume, CreateLoop, SemWait, SemPost, RwLocked]


@dataclass(frozen=True, slots=True)
class Routine:
    """A thread routine ``void *name(void *arg)``; its locals start at 0."""

    name: str
    locals: tuple[str, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Input:
    """``int name = __VERIFIER_nondet_int(); __VERIFIER_assume(lo <= name && name <= hi);``"""

    name: str
    lo: int
    hi: int


@dataclass(frozen=True, slots=True)
class Program:
    """``globals`` are (name, initial value); ``main_locals`` are main's locals
    besides its inputs (starting at 0); ``conds`` are condition variables
    (initialised statically); ``sems`` semaphores with their initial values
    (``sem_init`` in main before anything else); ``rwlocks`` reader-writer
    locks (initialised statically); ``atomics`` names globals declared
    ``_Atomic`` (the first as ``atomic_int``)."""

    globals: tuple[tuple[str, int], ...]
    mutexes: tuple[str, ...]
    routines: tuple[Routine, ...]
    inputs: tuple[Input, ...]
    main_locals: tuple[str, ...]
    main: tuple[Stmt, ...]
    conds: tuple[str, ...] = ()
    sems: tuple[tuple[str, int], ...] = ()
    rwlocks: tuple[str, ...] = ()
    # globals declared _Atomic: on them ``g += k``, ``g++`` are one atomic
    # read-modify-write (``g = g + k`` stays a load and a store)
    atomics: tuple[str, ...] = ()

    def routine(self, name: str) -> Routine:
        for r in self.routines:
            if r.name == name:
                return r
        raise KeyError(name)


def children(s: Stmt) -> tuple[tuple[Stmt, ...], ...]:
    """The statement blocks nested directly in ``s``."""
    if isinstance(s, If):
        return (s.then, s.orelse)
    if isinstance(s, (Locked, For, Atomic, RwLocked)):
        return (s.body,)
    return ()


def walk(body: tuple[Stmt, ...]):
    """Every statement of ``body``, nested ones included, in source order."""
    for s in body:
        yield s
        for block in children(s):
            yield from walk(block)


def replace_blocks(s: Stmt, blocks: tuple[tuple[Stmt, ...], ...]) -> Stmt:
    if isinstance(s, If):
        return If(s.cond, blocks[0], blocks[1])
    if isinstance(s, Locked):
        return Locked(s.mutex, blocks[0])
    if isinstance(s, For):
        return For(s.var, s.count, blocks[0])
    if isinstance(s, Atomic):
        return Atomic(blocks[0])
    if isinstance(s, RwLocked):
        return RwLocked(s.lock, s.write, blocks[0])
    return s


def number_assertions(program: Program) -> Program:
    """The same program with its assertions labelled 0, 1, ... in the order
    they appear in the C text (routines first, then main)."""
    counter = iter(range(1 << 30))

    def block(body):
        out = []
        for s in body:
            if isinstance(s, Assert):
                s = Assert(next(counter), s.cond)
            else:
                s = replace_blocks(s, tuple(block(b) for b in children(s)))
            out.append(s)
        return tuple(out)

    routines = tuple(Routine(r.name, r.locals, block(r.body)) for r in program.routines)
    return Program(program.globals, program.mutexes, routines, program.inputs,
                   program.main_locals, block(program.main), program.conds, program.sems,
                   program.rwlocks, program.atomics)


def assertions(program: Program) -> list[Assert]:
    """The program's assertions in source order."""
    found = []
    for r in program.routines:
        found += [s for s in walk(r.body) if isinstance(s, Assert)]
    found += [s for s in walk(program.main) if isinstance(s, Assert)]
    return found


def all_statements(program: Program):
    """Every statement of every routine and of main."""
    for r in program.routines:
        yield from walk(r.body)
    yield from walk(program.main)


def uses_atomic(program: Program) -> bool:
    return any(isinstance(s, Atomic) for s in all_statements(program))


# --------------------------------------------------------------------------
# C text


@dataclass(frozen=True, slots=True)
class Rendered:
    """The C text and where things landed in it: ``assert_lines[label]`` and
    ``input_lines[name]`` (of the ``__VERIFIER_nondet_int()`` call) are 1-based
    line numbers."""

    text: str
    assert_lines: dict
    input_lines: dict


def expr_c(e: Expr) -> str:
    if isinstance(e, Const):
        return str(e.value)
    if isinstance(e, (Local, Global)):
        return e.name
    if isinstance(e, Not):
        return f"!{_operand(e.operand)}"
    if isinstance(e, Abs):
        return f"abs({expr_c(e.operand)})"
    return f"{_operand(e.left)} {e.op} {_operand(e.right)}"


def _operand(e: Expr) -> str:
    text = expr_c(e)
    if isinstance(e, Bin) or (isinstance(e, Const) and e.value < 0):
        return f"({text})"
    return text


class _Lines:
    def __init__(self):
        self.lines: list[str] = []
        self.assert_lines: dict[int, int] = {}
        self.input_lines: dict[str, int] = {}

    def add(self, depth: int, text: str) -> int:
        self.lines.append("    " * depth + text)
        return len(self.lines)


def _stmts(out: _Lines, depth: int, body: tuple[Stmt, ...]) -> None:
    for s in body:
        _stmt(out, depth, s)


def _stmt(out: _Lines, d: int, s: Stmt) -> None:
    if isinstance(s, Assign):
        out.add(d, f"{s.target} = {expr_c(s.value)};")
    elif isinstance(s, Store):
        out.add(d, f"{s.target} = {expr_c(s.value)};")
    elif isinstance(s, Incr):
        k = s.amount
        if s.style == "fetch":
            out.add(d, f"__atomic_fetch_{'add' if k >= 0 else 'sub'}(&{s.target}, {abs(k)}, __ATOMIC_SEQ_CST);")
        elif s.style == "step" and k in (1, -1):
            out.add(d, f"{s.target}{'++' if k == 1 else '--'};")
        elif s.style in ("compound", "step"):
            out.add(d, f"{s.target} {'+' if k >= 0 else '-'}= {abs(k)};")
        else:
            out.add(d, f"{s.target} = {s.target} {'+' if k >= 0 else '-'} {abs(k)};")
    elif isinstance(s, If):
        out.add(d, f"if ({expr_c(s.cond)}) {{")
        _stmts(out, d + 1, s.then)
        if s.orelse:
            out.add(d, "} else {")
            _stmts(out, d + 1, s.orelse)
        out.add(d, "}")
    elif isinstance(s, Locked):
        out.add(d, f"pthread_mutex_lock(&{s.mutex});")
        _stmts(out, d, s.body)
        out.add(d, f"pthread_mutex_unlock(&{s.mutex});")
    elif isinstance(s, For):
        out.add(d, f"for (int {s.var} = 0; {s.var} < {s.count}; {s.var}++) {{")
        _stmts(out, d + 1, s.body)
        out.add(d, "}")
    elif isinstance(s, Assert):
        out.assert_lines[s.label] = out.add(d, f"assert({expr_c(s.cond)});")
    elif isinstance(s, ReturnIf):
        out.add(d, f"if ({expr_c(s.cond)}) return 0;")
    elif isinstance(s, Create):
        out.add(d, f"pthread_create(&h{s.handle}, 0, {s.routine}, 0);")
    elif isinstance(s, Join):
        out.add(d, f"pthread_join(h{s.handle}, 0);")
    elif isinstance(s, CondWait):
        out.add(d, f"{'while' if s.loop else 'if'} ({expr_c(s.guard)}) "
                   f"pthread_cond_wait(&{s.cond}, &{s.mutex});")
    elif isinstance(s, Spin):
        out.add(d, f"while ({s.target} != {s.value}) {{ }}")
    elif isinstance(s, Churn):
        out.add(d, f"while ({s.target} != {s.value}) {{ {s.local} = {s.local} + 1; }}")
    elif isinstance(s, CasAdd):
        out.add(d, f"do {{ {s.local} = {s.target}; }} while (!__sync_bool_compare_and_swap(&{s.target}, "
                   f"{s.local}, {s.local} + {s.amount}));")
    elif isinstance(s, Assume):
        out.add(d, f"__VERIFIER_assume({expr_c(s.cond)});")
    elif isinstance(s, CreateLoop):
        out.add(d, f"while (1) pthread_create(&hloop, 0, {s.routine}, 0);")
    elif isinstance(s, Signal):
        out.add(d, f"pthread_cond_{'broadcast' if s.broadcast else 'signal'}(&{s.cond});")
    elif isinstance(s, SemWait):
        out.add(d, f"sem_timedwait(&{s.sem}, &deadline);" if s.timed else f"sem_wait(&{s.sem});")
    elif isinstance(s, SemPost):
        out.add(d, f"sem_post(&{s.sem});")
    elif isinstance(s, RwLocked):
        out.add(d, f"pthread_rwlock_{'wrlock' if s.write else 'rdlock'}(&{s.lock});")
        _stmts(out, d, s.body)
        out.add(d, f"pthread_rwlock_unlock(&{s.lock});")
    elif isinstance(s, Atomic):
        out.add(d, "__VERIFIER_atomic_begin();")
        _stmts(out, d, s.body)
        out.add(d, "__VERIFIER_atomic_end();")
    else:  # pragma: no cover - a generator bug
        raise TypeError(s)


def render(program: Program) -> Rendered:
    out = _Lines()
    out.add(0, "#include <pthread.h>")
    out.add(0, "#include <assert.h>")
    out.add(0, "#include <stdlib.h>")
    if program.sems:
        out.add(0, "#include <semaphore.h>")
        out.add(0, "#include <time.h>")
    if program.atomics:
        out.add(0, "#include <stdatomic.h>")
    out.add(0, "")
    out.add(0, "extern int __VERIFIER_nondet_int(void);")
    out.add(0, "extern void __VERIFIER_assume(int);")
    if uses_atomic(program):
        out.add(0, "extern void __VERIFIER_atomic_begin(void);")
        out.add(0, "extern void __VERIFIER_atomic_end(void);")
    out.add(0, "")
    for name, value in program.globals:
        kind = "int"
        if name in program.atomics:
            kind = "atomic_int" if name == program.atomics[0] else "_Atomic int"
        out.add(0, f"{kind} {name};" if value == 0 else f"{kind} {name} = {value};")
    for m in program.mutexes:
        out.add(0, f"pthread_mutex_t {m};")
    for c in program.conds:
        out.add(0, f"pthread_cond_t {c} = PTHREAD_COND_INITIALIZER;")
    for name, _ in program.sems:
        out.add(0, f"sem_t {name};")
    if any(isinstance(s, SemWait) and s.timed for s in all_statements(program)):
        out.add(0, "struct timespec deadline;  /* long past: a timed wait that cannot take gives up */")
    for name in program.rwlocks:
        out.add(0, f"pthread_rwlock_t {name} = PTHREAD_RWLOCK_INITIALIZER;")
    for r in program.routines:
        out.add(0, "")
        out.add(0, f"void *{r.name}(void *arg) {{")
        for name in r.locals:
            out.add(1, f"int {name} = 0;")
        _stmts(out, 1, r.body)
        out.add(1, "return 0;")
        out.add(0, "}")
    out.add(0, "")
    out.add(0, "int main(void) {")
    handles = sorted({s.handle for s in program.main if isinstance(s, Create)})
    for h in handles:
        out.add(1, f"pthread_t h{h};")
    if any(isinstance(s, CreateLoop) for s in program.main):
        out.add(1, "pthread_t hloop;")
    for name in program.main_locals:
        out.add(1, f"int {name} = 0;")
    for m in program.mutexes:
        out.add(1, f"pthread_mutex_init(&{m}, 0);")
    for name, value in program.sems:
        out.add(1, f"sem_init(&{name}, 0, {value});")
    for i in program.inputs:
        out.input_lines[i.name] = out.add(1, f"int {i.name} = __VERIFIER_nondet_int();")
        out.add(1, f"__VERIFIER_assume({i.lo} <= {i.name} && {i.name} <= {i.hi});")
    _stmts(out, 1, program.main)
    out.add(1, "return 0;")
    out.add(0, "}")
    return Rendered("\n".join(out.lines) + "\n", out.assert_lines, out.input_lines)


def to_c(program: Program) -> str:
    """The C text of ``program``."""
    return render(program).text
