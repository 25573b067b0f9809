"""Hypothesis strategies for small random pthreads programs (:mod:`cprog` ASTs).

:func:`programs` draws a program of this shape::

    globals g0..g2 (1-3 ints), sometimes mutexes m0, m1
    routines t0..t2: a few statements over their locals l0, l1 and the globals:
        l = g;   g = e;   g = g + k (or g += k, g++);   if (c) {..} else {..}
        pthread_mutex_lock(&m); ..; pthread_mutex_unlock(&m);   for (i < 1 or 2) {..}
    main: int x0 = __VERIFIER_nondet_int(); __VERIFIER_assume(lo <= x0 && x0 <= hi);
          (1-2 inputs, domains within -2..2), stores of inputs to globals,
          sometimes `if (c) return 0;`, then 2-3 pthread_create, sometimes a few
          statements of main's own while the threads run, the joins (any order),
          and statements after them
    1-2 assertions, anywhere in the routines or after the joins.

    atomic blocks: __VERIFIER_atomic_begin(); ..; __VERIFIER_atomic_end(); around
    loads, stores, increments, ifs and loops (never a lock, a wait or another
    atomic block); inside, an expression may read two globals.

    sometimes a busy wait `while (g != k) { }` (an await) or `while (g != k) { l = l + 1; }`
    (bounded by the unwind bound, sometimes under a mutex), an assumption
    `__VERIFIER_assume(g OP k);` in a routine, and `while (1) pthread_create(..)`
    at the end of main starting workers that bump a global and assume on it.

    In a third of the programs, a condition variable c0 (PTHREAD_COND_INITIALIZER)
    with a mutex m and a flag global g: 1-2 routines get a waiter
        pthread_mutex_lock(&m); while (guard) pthread_cond_wait(&c0, &m); [g--;|g = k;|l = g;]
        pthread_mutex_unlock(&m);
    (`if` instead of `while` one time in three; the guard is mostly `g == init`,
    `g <= init` or `g < k`), and 1-2 routines (or main while the threads run)
    a signaller: an update of g and pthread_cond_signal/broadcast(&c0), under m
    in either order, or the signal after the locked update, or no lock at all,
    or the signal alone. The other statements of those programs are fewer
    (budget 1 with 2 threads, 0 with 3). Signals are never in loops and run
    at most cprog.MAX_WAIT_ROUNDS times per run, so no wait loop exceeds the
    engine's unwind bound. Lost wake-ups make many of these programs deadlock
    in some schedule: the oracle reports it.

It keeps the contracts of :mod:`cprog`: no overflow (constants within -2..3,
multiplications by constants within -2..2 only, loops of at most 2 rounds),
at most one global read per expression while other threads may run, nested
mutexes never relocked, waits only in a locked block of their mutex, nothing
that blocks inside an atomic block. Two mutexes taken in both orders can deadlock: the
oracle reports it. Sizes are small enough that a naive explorer's runs
(:attr:`oracle.Outcome.runs`) are mostly in the tens or hundreds; the tests
reject the rare program above their budget.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from hypothesis import Phase
from hypothesis import strategies as st

from tests.differential import cprog as C

# The phases of this package's slow hypothesis tests. Shrinking reruns the
# engine (or gcc) hundreds of times, minutes in all: by default a failure is
# reported as generated; DISTAFF_DIFF_SHRINK=1 shrinks it.
PHASES = tuple(Phase) if os.environ.get("DISTAFF_DIFF_SHRINK") == "1" else (
    Phase.explicit, Phase.reuse, Phase.generate, Phase.target)

CONSTS = st.integers(-2, 3)
FACTORS = st.integers(-2, 2)


@dataclass(frozen=True, slots=True)
class Scope:
    """What a statement being drawn may use: its function's locals, the
    globals, the mutexes not already held, and whether other threads may run
    (then an expression reads at most one global)."""

    locals: tuple[str, ...]
    globals: tuple[str, ...]
    free_mutexes: tuple[str, ...]
    concurrent: bool
    loop_vars: tuple[str, ...] = ()
    atomic: bool = False  # inside an atomic block: no atomic block, nothing that blocks

    @property
    def max_reads(self) -> int:
        return 1 if self.concurrent else 2


# --------------------------------------------------------------------------
# Expressions


def _atom(draw, scope: Scope, reads: int, const: bool = True) -> C.Expr:
    """A constant, a local, or (``reads`` > 0) a global; no constant unless
    ``const`` (or nothing else is in scope)."""
    choices = ["const"] * const + ["local"] * 2 * bool(scope.locals + scope.loop_vars)
    choices += ["global"] * 3 * (reads > 0 and bool(scope.globals))
    kind = draw(st.sampled_from(choices or ["const"]))
    if kind == "const":
        return C.Const(draw(CONSTS))
    if kind == "local":
        return C.Local(draw(st.sampled_from(scope.locals + scope.loop_vars)))
    return C.Global(draw(st.sampled_from(scope.globals)))


def _value(draw, scope: Scope, reads: int, const: bool = True) -> C.Expr:
    """An arithmetic expression: an atom, ``abs`` of an atom, or an atom
    combined with another atom (+, -) or with a small constant (*). Not a lone
    constant unless ``const``."""
    left = _atom(draw, scope, reads, const)
    shape = draw(st.sampled_from(["atom", "atom", "add", "mul", "abs"]))
    if shape == "atom":
        return left
    if shape == "abs":  # a library call the engine models
        return C.Abs(left)
    if shape == "mul":
        return C.Bin("*", left, C.Const(draw(FACTORS)))
    right = _atom(draw, scope, reads - len(C.globals_read(left)))
    if draw(st.booleans()):
        left, right = right, left
    return C.Bin(draw(st.sampled_from(["+", "-"])), left, right)


def _cond(draw, scope: Scope, reads: int, depth: int = 1) -> C.Expr:
    shape = draw(st.sampled_from(["cmp", "cmp", "cmp", "logic", "not"] if depth else ["cmp"]))
    if shape == "not":
        return C.Not(_cond(draw, scope, reads, depth - 1))
    if shape == "logic":
        left = _cond(draw, scope, reads, depth - 1)
        right = _cond(draw, scope, reads - len(C.globals_read(left)), depth - 1)
        return C.Bin(draw(st.sampled_from(C.LOGIC_OPS)), left, right)
    left = _value(draw, scope, reads, const=False)
    right = _atom(draw, scope, reads - len(C.globals_read(left)))
    if draw(st.booleans()):
        left, right = right, left
    return C.Bin(draw(st.sampled_from(C.CMP_OPS)), left, right)


# --------------------------------------------------------------------------
# Statements


UNLIMITED = 1 << 20


def _block(draw, scope: Scope, depth: int, lo: int, hi: int,
           budget: int = UNLIMITED) -> tuple[C.Stmt, ...]:
    """``lo``..``hi`` statements performing at most ``budget`` global
    operations in any one run (fewer statements when the budget runs out)."""
    n = draw(st.integers(lo, hi))
    out: tuple[C.Stmt, ...] = ()
    for i in range(n):
        left = budget - visible_ops(out)
        if i >= max(lo, 1) and left <= 0:
            break
        out += (_stmt(draw, scope, depth, left),)
    return out


def visible_ops(body: tuple[C.Stmt, ...]) -> int:
    """The most global operations (reads, writes, lock, unlock, create, join)
    one run of ``body`` performs."""
    n = 0
    for s in body:
        if isinstance(s, C.Assign):
            n += len(C.globals_read(s.value))
        elif isinstance(s, (C.Assert, C.ReturnIf)):
            n += len(C.globals_read(s.cond))
        elif isinstance(s, C.Store):
            n += 1 + len(C.globals_read(s.value))
        elif isinstance(s, C.Incr):
            n += 2
        elif isinstance(s, C.If):
            n += len(C.globals_read(s.cond)) + max(visible_ops(s.then), visible_ops(s.orelse))
        elif isinstance(s, C.Locked):
            n += 2 + visible_ops(s.body)
        elif isinstance(s, C.For):
            n += s.count * visible_ops(s.body)
        elif isinstance(s, (C.Create, C.Join, C.Signal)):
            n += 1
        elif isinstance(s, C.Atomic):
            n += 2 + visible_ops(s.body)
        elif isinstance(s, C.CondWait):
            # the guard, the wait's two halves, the guard again after a wake
            n += 2 * len(C.globals_read(s.guard)) + 2
        elif isinstance(s, C.Spin):
            n += C.UNWIND + 1
        elif isinstance(s, C.CasAdd):
            n += 4
        elif isinstance(s, (C.SemWait, C.SemPost)):
            n += 1
        elif isinstance(s, C.RwLocked):
            n += 2 + visible_ops(s.body)
    return n


def _stmt(draw, scope: Scope, depth: int, budget: int = UNLIMITED) -> C.Stmt:
    """A statement performing at most ``budget`` global operations (always
    possible: ``local = <no global>`` performs none)."""
    kinds = ["load"] * 3
    if budget >= 1:
        kinds += ["store"] * 2
    if budget >= 2:
        kinds += ["incr"] * 3
    if depth > 0:
        kinds += ["if"] * 2 + ["for"] * (budget >= 1)
        kinds += ["locked"] * 2 * (bool(scope.free_mutexes) and budget >= 3)
        kinds += ["atomic"] * (not scope.atomic and budget >= 3)
    kind = draw(st.sampled_from(kinds))
    reads = min(scope.max_reads, budget)
    if kind == "load":
        target = draw(st.sampled_from(scope.locals))
        if reads and draw(st.integers(0, 2)):  # mostly the plain `l = g;`
            return C.Assign(target, C.Global(draw(st.sampled_from(scope.globals))))
        return C.Assign(target, _value(draw, scope, reads))
    if kind == "store":
        return C.Store(draw(st.sampled_from(scope.globals)), _value(draw, scope, min(reads, budget - 1)))
    if kind == "incr":
        amount = draw(st.sampled_from([1, 1, -1, 2, 3, -2]))
        return C.Incr(draw(st.sampled_from(scope.globals)), amount,
                      draw(st.sampled_from(C.INCR_STYLES)))
    if kind == "if":
        cond = _cond(draw, scope, reads)
        left = budget - len(C.globals_read(cond))
        then = _block(draw, scope, depth - 1, 1, 2, left)
        orelse = _block(draw, scope, depth - 1, 0, 2, left)
        return C.If(cond, then, orelse)
    if kind == "for":
        var = f"i{len(scope.loop_vars)}"
        inner = Scope(scope.locals, scope.globals, scope.free_mutexes, scope.concurrent,
                      scope.loop_vars + (var,), scope.atomic)
        count = draw(st.integers(1, min(2, budget)))
        return C.For(var, count, _block(draw, inner, depth - 1, 1, 2, budget // count))
    if kind == "atomic":
        # No other thread runs inside: an expression may read two globals.
        inner = Scope(scope.locals, scope.globals, (), False, scope.loop_vars, atomic=True)
        return C.Atomic(_block(draw, inner, depth - 1, 1, 2, budget - 2))
    mutex = draw(st.sampled_from(scope.free_mutexes))
    inner = Scope(scope.locals, scope.globals,
                  tuple(m for m in scope.free_mutexes if m != mutex), scope.concurrent,
                  scope.loop_vars)
    return C.Locked(mutex, _block(draw, inner, depth - 1, 1, 2, budget - 2))


# --------------------------------------------------------------------------
# Assertions, placed after the rest is drawn


def block_paths(body: tuple[C.Stmt, ...], prefix=()):
    """The path of every block in ``body`` (``()`` for ``body`` itself; a path
    is a sequence of (statement index, block index))."""
    yield prefix
    for i, s in enumerate(body):
        for j, b in enumerate(C.children(s)):
            yield from block_paths(b, prefix + ((i, j),))


def insert(body: tuple[C.Stmt, ...], path, index: int, stmt: C.Stmt) -> tuple[C.Stmt, ...]:
    """``body`` with ``stmt`` inserted at ``index`` of the block at ``path``
    (index clamped to the block's length)."""
    if not path:
        index = min(index, len(body))
        return body[:index] + (stmt,) + body[index:]
    (i, j), rest = path[0], path[1:]
    s = body[i]
    blocks = list(C.children(s))
    blocks[j] = insert(blocks[j], rest, index, stmt)
    return body[:i] + (C.replace_blocks(s, tuple(blocks)),) + body[i + 1:]


def open_paths(body: tuple[C.Stmt, ...], mutex: str, loops: bool = True, prefix=()):
    """The paths of the blocks of ``body`` where ``mutex`` may be locked and a
    thread may block: not inside a locked block of ``mutex``, nor inside an
    atomic block (nor inside a loop unless ``loops``)."""
    yield prefix
    for i, s in enumerate(body):
        if isinstance(s, C.Atomic) or (isinstance(s, C.Locked) and s.mutex == mutex) \
                or (isinstance(s, C.For) and not loops):
            continue
        for j, b in enumerate(C.children(s)):
            yield from open_paths(b, mutex, loops, prefix + ((i, j),))


# --------------------------------------------------------------------------
# Condition variables: a waiter and its signallers, placed after the rest


def _waiter(draw, scope: Scope, cond: str, mutex: str, flag: str, initial: int,
            guard: C.Expr | None = None, before: tuple | None = None) -> C.Locked:
    """``lock; [an update of the flag;] while/if (guard) wait; then 0-1
    statement and, half the time, an assertion on the flag; unlock``:
    mostly the textbook guard on a flag global, sometimes any condition. An
    update before the wait (a third of the time) lets one waiter's guard
    depend on another waiter being asleep, so that which of two sleepers a
    signal wakes matters."""
    g = C.Global(flag)
    shape = "given" if guard is not None else \
        draw(st.sampled_from(["flag", "flag", "count", "near", "any"]))
    if shape == "given":
        pass
    elif shape == "flag":
        guard = C.Bin(draw(st.sampled_from(["==", "<="])), g, C.Const(initial))
    elif shape == "count":
        guard = C.Bin(draw(st.sampled_from(["<", "<="])), g, C.Const(draw(st.integers(0, 2))))
    elif shape == "near":
        guard = C.Bin(draw(st.sampled_from(["==", "!=", ">="])), g,
                      C.Const(initial + draw(st.integers(-1, 1))))
    else:
        guard = _cond(draw, scope, 1)
    if before is not None:
        pass
    elif draw(st.integers(0, 2)) == 0:
        before = (draw(st.sampled_from([C.Incr(flag, 1, "step"), C.Incr(flag, -1, "step"),
                                        C.Store(flag, C.Const(initial + 1))])),)
    else:
        before = ()
    wait = C.CondWait(cond, mutex, guard, loop=draw(st.sampled_from([True, True, False])))
    after = []
    for _ in range(draw(st.integers(0, 1))):
        kind = draw(st.sampled_from(["take", "reset", "load"]))
        if kind == "take":
            after.append(C.Incr(flag, -1, draw(st.sampled_from(C.INCR_STYLES))))
        elif kind == "reset":
            after.append(C.Store(flag, C.Const(initial)))
        else:
            after.append(C.Assign(draw(st.sampled_from(scope.locals)), g))
    if draw(st.booleans()):
        # What the guard promised, checked where a woken consumer relies on
        # it (an `if` guard, a second consumer or a stolen update break it).
        where = draw(st.integers(0, len(after)))
        check = C.Assert(0, C.Bin(draw(st.sampled_from(C.CMP_OPS)), g,
                                  C.Const(draw(st.integers(-1, 2)))))
        after.insert(where, check)
    return C.Locked(mutex, before + (wait,) + tuple(after))


def _signaller(draw, cond: str, mutex: str, flag: str, lock: bool) -> tuple[C.Stmt, ...]:
    """An update of the flag and a signal or broadcast, in either order,
    under the mutex, or the signal after the locked update, or no lock at all
    (``lock`` False: the mutex is held here already, or may not be taken)."""
    update = draw(st.sampled_from([C.Incr(flag, 1, "step"), C.Incr(flag, 1, "plus"),
                                   C.Store(flag, C.Const(1)), C.Incr(flag, 2, "compound")]))
    signal = C.Signal(cond, broadcast=draw(st.integers(0, 2)) == 0)
    shape = draw(st.sampled_from(["update-signal", "signal-update", "signal-outside",
                                  "unlocked", "signal-only"]))
    if shape == "signal-only":
        return (signal,)
    body = (update, signal) if shape in ("update-signal", "unlocked") else (signal, update)
    if shape == "signal-outside":
        return (C.Locked(mutex, (update,)), signal) if lock else (update, signal)
    if shape == "unlocked" or not lock:
        return body
    return (C.Locked(mutex, body),)


def _place(draw, routine: C.Routine, mutex: str, stmts: tuple[C.Stmt, ...],
           loops: bool) -> C.Routine:
    """``routine`` with ``stmts`` inserted in a block where ``mutex`` is not
    held and nothing is atomic (and not in a loop unless ``loops``), mostly
    at its top level."""
    paths = list(open_paths(routine.body, mutex, loops))
    path = () if draw(st.booleans()) else draw(st.sampled_from(paths))
    body = routine.body
    index = draw(st.integers(0, 3))
    for k, s in enumerate(stmts):
        body = insert(body, path, index + k, s)
    return C.Routine(routine.name, routine.locals, body)


def _condvar_protocol(draw, routines: list[C.Routine], instances: list[int], mutex: str,
                      flag: str, initial: int) -> tuple[list[C.Routine], int]:
    """The routines with 1-2 waiters on ``c0`` and 1-2 signallers added (a
    routine may get both), and the number of signals a run performs at most.
    Signals never sit in loops and run at most :data:`cprog.MAX_WAIT_ROUNDS`
    times in all (``instances[r]`` threads run routine r), so no wait loop is
    woken more often than that."""
    routines = list(routines)
    n = len(routines)
    waiters = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=min(2, n), unique=True))
    # Half the time two waiters are paired: the first sets the flag and
    # sleeps, the second sleeps only while the flag says the first sleeps,
    # so the second always falls asleep after the first.
    paired = len(waiters) == 2 and draw(st.booleans())
    asleep = C.Bin("==", C.Global(flag), C.Const(initial + 1))
    for i, r in enumerate(waiters):
        scope = Scope(routines[r].locals, (flag,), (), concurrent=True)
        if paired:
            waiter = _waiter(draw, scope, "c0", mutex, flag, initial, guard=asleep,
                             before=(C.Store(flag, C.Const(initial + 1)),) if i == 0 else ())
        else:
            waiter = _waiter(draw, scope, "c0", mutex, flag, initial)
        routines[r] = _place(draw, routines[r], mutex, (waiter,), loops=True)
    signals = 0
    for _ in range(draw(st.integers(1, 2))):
        r = draw(st.integers(0, n - 1))
        if signals + instances[r] > C.MAX_WAIT_ROUNDS:
            break
        signals += instances[r]
        stmts = _signaller(draw, "c0", mutex, flag, lock=True)
        routines[r] = _place(draw, routines[r], mutex, stmts, loops=False)
    return routines, signals


def _assertion_cond(draw, scope: Scope) -> C.Expr:
    # Comparisons of two atoms (an input or local against a global, say) give
    # violations and non-violations in roughly equal numbers.
    reads = scope.max_reads
    if draw(st.integers(0, 3)):
        left = _atom(draw, scope, reads, const=False)
        right = _atom(draw, scope, reads - len(C.globals_read(left)))
        if draw(st.booleans()):
            left, right = right, left
        return C.Bin(draw(st.sampled_from(C.CMP_OPS)), left, right)
    return _cond(draw, scope, reads)


# --------------------------------------------------------------------------
# Programs


def _return_if(draw, inputs) -> C.ReturnIf:
    """``if (x OP k) return 0;`` with k in x's domain, so that main returns
    for some inputs, not for all."""
    x = draw(st.sampled_from(inputs))
    k = draw(st.integers(x.lo, x.hi))
    op = draw(st.sampled_from(["==", "!=", ">", "<"]))
    return C.ReturnIf(C.Bin(op, C.Local(x.name), C.Const(k)))


@st.composite
def programs(draw, threads=(2, 2, 3), budgets: dict | None = None) -> C.Program:
    """A program of the shape above. ``threads`` lists the thread counts to
    choose from; ``budgets[n]`` is the (lo, hi) range of global operations of
    one routine's run when there are n threads (defaults: 1-3 for 2 threads,
    1-2 for 3: most programs then have under 300 schedules per input). Larger
    values make programs that stress a reduction more, and take longer."""
    budgets = {2: (1, 3), 3: (1, 2), **(budgets or {})}
    n_globals = draw(st.integers(1, 3))
    globals_ = tuple((f"g{i}", draw(st.sampled_from([0, 0, 0, 1, 2, -1]))) for i in range(n_globals))
    gnames = tuple(g for g, _ in globals_)
    mutexes = tuple(f"m{i}" for i in range(draw(st.sampled_from([0, 1, 1, 2]))))
    conds = ("c0",) if draw(st.integers(0, 2)) == 0 else ()
    if conds:
        # The waiters and signallers add about ten operations: the rest is smaller.
        mutexes = mutexes or ("m0",)
        budgets = {2: (1, 1), 3: (0, 0)}
    inputs = []
    for i in range(draw(st.integers(1, 2))):
        lo = draw(st.integers(-2, 1))
        inputs.append(C.Input(f"x{i}", lo, draw(st.integers(lo + 1, min(lo + 3, 2)))))
    input_names = tuple(i.name for i in inputs)

    n_threads = draw(st.sampled_from(threads))
    n_routines = draw(st.integers(1, n_threads)) if n_threads > 2 else draw(st.sampled_from([2, 2, 2, 1]))
    routines = []
    for r in range(n_routines):
        local_names = tuple(f"l{i}" for i in range(draw(st.integers(1, 2))))
        scope = Scope(local_names, gnames, mutexes, concurrent=True)
        depth = draw(st.sampled_from([0, 1, 1, 2]))
        budget = draw(st.integers(*budgets[n_threads]))
        routines.append(C.Routine(f"t{r}", local_names, _block(draw, scope, depth, 1, 3, budget)))
    if len(mutexes) == 2 and n_routines >= 2 and draw(st.integers(0, 4)) == 0:
        # Lock-order inversion: the first two routines take both mutexes in
        # opposite orders, so the program may deadlock.
        for r, (outer, inner) in enumerate([mutexes, mutexes[::-1]]):
            g = draw(st.sampled_from(gnames))
            nested = C.Locked(outer, (C.Locked(inner, (C.Incr(g, 1),)),))
            routines[r] = C.Routine(routines[r].name, routines[r].locals,
                                    insert(routines[r].body, (), draw(st.integers(0, 1)), nested))
    if not conds and draw(st.integers(0, 3)) == 0:
        # A busy wait on a global another thread may set (or never does): an
        # await, or (one time in three) a loop that counts its rounds in a
        # local, which the unwind bound stops (the others go on, or wait for
        # good behind it: a mutex it holds, a join of it). Not beside
        # condition waits: the state space would grow past the cap.
        r = draw(st.integers(0, n_routines - 1))
        target, value = draw(st.sampled_from(gnames)), draw(st.sampled_from([0, 1, 2, 3]))
        if draw(st.integers(0, 2)) == 0:
            loop = C.Churn(target, value, routines[r].locals[0])
            if mutexes and draw(st.booleans()):
                loop = C.Locked(draw(st.sampled_from(mutexes)), (loop,))
        else:
            loop = C.Spin(target, value)
        routines[r] = C.Routine(routines[r].name, routines[r].locals,
                                insert(routines[r].body, (), draw(st.integers(0, len(routines[r].body))), loop))
    cas_targets = ()
    if draw(st.integers(0, 4)) == 0:
        # A lock-free increment by a compare-and-swap loop in one or two
        # routines: rounds whose swap fails change nothing
        target = draw(st.sampled_from(gnames))
        cas_targets = (target,)
        for r in sorted(set(draw(st.lists(st.integers(0, n_routines - 1), min_size=1, max_size=2)))):
            loop = C.CasAdd(target, draw(st.sampled_from([1, 1, 2])), routines[r].locals[0])
            routines[r] = C.Routine(routines[r].name, routines[r].locals,
                                    insert(routines[r].body, (), draw(st.integers(0, len(routines[r].body))), loop))
    if draw(st.integers(0, 5)) == 0:
        # An assumption on a global in a routine (after the thread's first
        # visible step): runs in which it fails are left out, in the engine
        # too, which drops the path there
        r = draw(st.integers(0, n_routines - 1))
        body = routines[r].body
        where = draw(st.integers(1, len(body))) if body else 0
        if where:
            cond = C.Bin(draw(st.sampled_from(C.CMP_OPS)), C.Global(draw(st.sampled_from(gnames))),
                         C.Const(draw(CONSTS)))
            routines[r] = C.Routine(routines[r].name, routines[r].locals,
                                    insert(body, (), where, C.Assume(cond)))
    sems, rwlocks = (), ()
    # some globals _Atomic: their += and ++ become one atomic step
    atomics = tuple(g for g in gnames if draw(st.integers(0, 3)) == 0 and g not in cas_targets)
    if not conds and draw(st.integers(0, 3)) == 0:
        # A semaphore posted and waited for at the top level of routines (a
        # wait no post matches deadlocks, or is cut with a spinning thread).
        sems = (("s0", draw(st.sampled_from([0, 0, 1]))),)
        for stmt in (C.SemPost("s0"), C.SemWait("s0", timed=draw(st.integers(0, 3)) == 0)):
            r = draw(st.integers(0, n_routines - 1))
            body = routines[r].body
            routines[r] = C.Routine(routines[r].name, routines[r].locals,
                                    insert(body, (), draw(st.integers(0, len(body))), stmt))
    if not conds and draw(st.integers(0, 3)) == 0:
        # Reader-writer sections: a few top-level statements of some routines
        # under a read or a write lock (never one inside another).
        rwlocks = ("rw0",)
        for r in range(n_routines):
            body = routines[r].body
            if draw(st.booleans()):
                i = draw(st.integers(0, len(body) - 1))
                k = draw(st.integers(i + 1, min(len(body), i + 2)))
                section = C.RwLocked("rw0", draw(st.booleans()), body[i:k])
                routines[r] = C.Routine(routines[r].name, routines[r].locals, body[:i] + (section,) + body[k:])
    order = list(range(n_routines)) + [draw(st.integers(0, n_routines - 1))
                                       for _ in range(n_threads - n_routines)]
    order = draw(st.permutations(order))
    if conds:
        cv_mutex = draw(st.sampled_from(mutexes))
        flag, initial = draw(st.sampled_from(globals_))
        routines, signals = _condvar_protocol(
            draw, routines, [order.count(r) for r in range(n_routines)], cv_mutex, flag, initial)

    main_scope = Scope(input_names + ("r0",), gnames, mutexes, concurrent=False)
    pre = []
    for g in draw(st.lists(st.sampled_from(gnames), max_size=2, unique=True)):
        pre.append(C.Store(g, _value(draw, Scope(input_names, (), (), False), 0)))
    if draw(st.integers(0, 4)) == 0:
        pre.insert(draw(st.integers(0, len(pre))),
                   _return_if(draw, inputs))
    if draw(st.integers(0, 3)) == 0:
        pre.append(C.If(_cond(draw, Scope(input_names, (), (), False), 0),
                        _block(draw, main_scope, 0, 1, 2)))
    creates = tuple(C.Create(h, f"t{r}") for h, r in enumerate(order))
    middle = ()
    if n_threads == 2 and draw(st.integers(0, 2)) == 0:
        concurrent = Scope(input_names + ("r0",), gnames, mutexes, concurrent=True)
        middle = _block(draw, concurrent, 1, 1, 2, budget=1)
    if conds and n_threads == 2 and signals < C.MAX_WAIT_ROUNDS and draw(st.integers(0, 3)) == 0:
        middle += _signaller(draw, "c0", cv_mutex, flag, lock=True)  # main signals too
    joins = tuple(C.Join(h) for h in draw(st.permutations(range(n_threads))))
    post = _block(draw, main_scope, 1, 0, 1)
    main = tuple(pre) + creates + middle + joins + post
    tail: tuple = ()
    if not conds and not sems and n_threads == 2 and draw(st.integers(0, 7)) == 0:
        # Workers started for good (`while (1) pthread_create`): the bound
        # stops main after UNWIND + 1 of them, which wait for good behind an
        # assumption (SV-COMP's gate tasks) or go on. One step each, and no
        # assertion of their own: the runs multiply with every one of them.
        g = draw(st.sampled_from(gnames))
        worker = (C.Assume(C.Bin(draw(st.sampled_from([">=", "==", "<"])), C.Global(g),
                                 C.Const(draw(st.integers(-1, 2))))),)
        routines.append(C.Routine(f"t{n_routines}", ("l0",), worker))  # (not among the n_routines below)
        tail = (C.CreateLoop(f"t{n_routines}"),)
        if draw(st.booleans()):  # an assertion no run reaches: main never gets past the loop
            tail += (C.Assert(0, _assertion_cond(draw, Scope(input_names + ("r0",), gnames, (), False))),)

    # The assertions: in a routine (any block) or in main after the joins.
    routines = list(routines)
    placed = len(C.assertions(C.Program(globals_, mutexes, tuple(routines), (), (), tail)))
    for _ in range(draw(st.integers(max(0, 1 - placed), 2 - placed))):
        where = draw(st.integers(0, n_routines))  # n_routines: main
        if where == n_routines:
            scope = Scope(input_names + ("r0",), gnames, (), concurrent=False)
            stmt = C.Assert(0, _assertion_cond(draw, scope))
            main = main + (stmt,) if draw(st.booleans()) or not post else \
                main[: len(main) - len(post)] + (stmt,) + post
        else:
            r = routines[where]
            paths = list(block_paths(r.body))
            path = draw(st.sampled_from(paths))
            scope = Scope(r.locals, gnames, (), concurrent=True)
            stmt = C.Assert(0, _assertion_cond(draw, scope))
            routines[where] = C.Routine(r.name, r.locals,
                                        insert(r.body, path, draw(st.integers(0, 3)), stmt))
    main = main + tail

    program = C.number_assertions(C.Program(
        globals=globals_, mutexes=mutexes, routines=tuple(routines), inputs=tuple(inputs),
        main_locals=("r0",), main=main, conds=conds, sems=sems, rwlocks=rwlocks, atomics=atomics))
    return program
