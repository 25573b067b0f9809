"""pthreads semantics on one global FIFO wait queue.

Following the arbitrary-context paper (§4.1, §4.2), every blocked thread is
an entry ``(queue address, tid)`` of one global FIFO list, ``State.wq``; a
queue is named by an address (a mutex's, a condition variable's, a
barrier's, or the address of the object naming a thread, for its joiners).
Waking is decided over the whole list, so addresses may be symbolic:

* ``notify_one(p)`` forks up to ``|WQ| + 1`` ways: wake any one entry whose
  address may equal ``p``, or nobody when all differ. POSIX leaves the
  choice among several waiters to the scheduler, so each is a possible
  outcome (a first-in-first-out choice would hide failures that need a later
  waiter woken first). These options overlap: two waiters on one condition
  are both candidates in the same state.
* ``notify_all(p)`` forks once per subset of the entries whose address may
  equal ``p`` (those that must are always in it).

Operations (each a global instruction, so a scheduling point comes before it):

* mutexes live in ``State.locks`` (address -> owner). ``lock`` of a held mutex
  puts the thread on the mutex's queue; ``unlock`` wakes *all* its waiters,
  which then compete again, so every acquisition order is explored (no
  fairness is assumed). ``trylock`` returns 0 or EBUSY. Unlocking a mutex the
  thread does not hold is a run-time error; locking one it holds blocks it
  (and, with no one to release it, is reported as a deadlock).
* ``cond_wait(c, m)`` releases ``m`` (the caller must hold it), waits on
  ``c``'s queue, and once woken re-acquires ``m`` (waiting on ``m``'s queue
  if needed) before returning. ``signal`` is notify_one, ``broadcast``
  notify_all. Spurious wake-ups are modelled as POSIX allows them
  (``Options.spurious_wakeups``, on by default): a wait may also return at
  once without a signal, again and again, except when the thread's last
  spurious wake-up there changed nothing and nothing it read since changed
  (:mod:`distaff.analysis.symex.awaits`; with awaits switched off, once per
  thread and run). Waking at once loses nothing, as the thread's
  re-acquisition can still come at any later point of the schedule and no
  signal would have told it apart.

  When only assertions are at stake (a sub-check with a target, spurious
  wake-ups and awaits on: ``Engine.free_waits``), that is all a wait is: it
  releases ``m`` and returns whenever the schedule has it re-acquire ``m``,
  signal or none, since a wake-up may come at any time; every run of it is
  one in which every wait returned, and every run in which they all did is
  among them. Signals then wake nobody (a program context's threads that
  start blocked in a wait excepted). A round through the wait that changed
  nothing (``while (empty) wait`` finding the queue as empty as before) is
  not run again: the thread awaits a change of what it read, as a spin loop
  does, and only then re-acquires ``m``; in ``while (guard) wait(c, m);``
  from the first call, the guard read since the loop's head being the round
  (``Engine.guard_waits``, counted as ``guard_waits``). It may return as soon
  as what it read changes (``awaits.wake_waits``). What this leaves out is a wait
  that never returns because no signal comes (a lost wake-up): such a
  sub-check does not count as having met every finding, and the search for
  deadlocks, which has no target, waits for signals (counted as
  ``free_waits`` and ``free_wait_awaits``).
* ``barrier_init(b, n)``; ``barrier_wait(b)``: the n-th arriving thread
  wakes the others, resets the barrier and returns
  ``PTHREAD_BARRIER_SERIAL_THREAD`` (-1); the others wait and return 0.
* ``create`` writes the new thread's id (main is 0, then 1, 2, ...) to the
  handle and starts the routine with its argument; ``join`` waits on the
  target's queue until it ended, then stores its return value if asked;
  ``exit`` ends the calling thread; ``self`` gives its id.
* semaphores live in ``State.sems`` (address -> value, concrete: the initial
  value is forked over when symbolic). ``sem_wait`` takes one or blocks on
  the semaphore's queue; ``sem_post`` adds one and wakes all its waiters,
  which compete again as a mutex's do; ``sem_trywait`` gives -1 instead of
  blocking. A wait on a semaphore never initialised is a run-time error.
* reader-writer locks live in ``State.rwlocks`` (address -> (writer, readers));
  never initialised is unlocked (PTHREAD_RWLOCK_INITIALIZER). A read lock is
  granted whenever no writer holds the lock (readers first, glibc's default),
  a write lock when nobody holds it; otherwise the thread waits on the lock's
  queue, and every unlock that leaves the lock free wakes them all.
  Relocking for writing while holding the lock blocks for good (a deadlock).
* a timed wait (``pthread_cond_timedwait``, ``sem_timedwait``, the timed rwlock
  locks) that cannot go on at once may also give up at once. Giving up later
  is covered too: nothing the thread sees changes while it waits.
* atomic regions nest (``Thread.atomic``); no other thread is scheduled
  while one is open. A thread that blocks inside an atomic region leaves it
  (its depth drops to 0), as SV-COMP's tools do.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from distaff.analysis import ir
from distaff.analysis.ir import IntType, Op, PtrType, bits_of
from distaff.analysis.symex import awaits, twins
from distaff.analysis.symex.pivots import EngineLimit, Leaf, LeafKind, LeafReached, Option
from distaff.analysis.symex.state import BLOCKED, ENABLED, ENDED, Effect, State, SyncOp
from distaff.analysis.symex.trace import lvalue
from distaff.analysis.symex.values import mask

if TYPE_CHECKING:
    from distaff.analysis.symex.engine import Engine

EBUSY = 16  # a trylock that found the lock held (Linux's value)
ETIMEDOUT = 110  # a timed wait that gave up (Linux's value)

MAX_SUBSET_ENTRIES = 8


# ----------------------------------------------------------------------
# the wait queue


def notify_one(E: Engine, st: State, p) -> int | None:
    """Choose which entry of the wait queue a notify on ``p`` wakes (an index
    into ``st.wq``, or None). Forks; changes nothing."""
    V, pb = E.values, E.ptr_bits

    def options():
        opts = []
        nobody = True  # every entry's address differs from p
        for i, (a, _) in enumerate(st.wq):
            eq = V.eq(a, p, pb)
            if eq is not False:
                opts.append(Option(eq, i))
            nobody = V.and_(nobody, V.not_(eq))
        if nobody is not False:
            opts.append(Option(nobody, None))
        return opts

    return E.fork(st, options, exhaustive=True).payload


def notify_all(E: Engine, st: State, p) -> tuple[int, ...]:
    """Choose the set of entries a notify-all on ``p`` wakes (indices into
    ``st.wq``). Forks; changes nothing."""
    V, pb = E.values, E.ptr_bits
    must, may = [], []
    for i, (a, _) in enumerate(st.wq):
        eq = V.eq(a, p, pb)
        if eq is True:
            must.append(i)
        elif eq is not False:
            may.append((i, eq))
    if not may:
        return tuple(must)
    if len(may) > MAX_SUBSET_ENTRIES:
        raise EngineLimit("too many waiters on symbolic queue addresses")

    def options():
        opts = []
        for bits in itertools.product((True, False), repeat=len(may)):
            conds = [eq if b else V.not_(eq) for (_, eq), b in zip(may, bits)]
            woken = tuple(sorted(must + [i for (i, _), b in zip(may, bits) if b]))
            opts.append(Option(V.and_(*conds), woken))
        return opts

    return E.fork(st, options, exhaustive=True).payload


def wake(st: State, indices) -> list[int]:
    """Remove the entries ``indices`` from the wait queue and enable their threads."""
    if not indices:
        return []
    chosen = set(indices)
    woken = []
    rest = []
    for i, (a, t) in enumerate(st.wq):
        if i in chosen:
            th = st.wthread(t)
            th.status = ENABLED
            th.waits_for = ""
            woken.append(t)
        else:
            rest.append((a, t))
    st.wq = tuple(rest)
    return woken


def wake_queue(st: State, q: int) -> list[int]:
    """Wake every thread waiting on the concrete queue address ``q``."""
    return wake(st, [i for i, (a, _) in enumerate(st.wq) if isinstance(a, int) and a == q])


def block(st: State, tid: int, queue, waits_for: str) -> None:
    t = st.wthread(tid)
    t.status = BLOCKED
    t.waits_for = waits_for
    t.atomic = 0
    st.wq = st.wq + ((queue, tid),)


def end_thread(E: Engine, st: State, tid: int, retval) -> None:
    """``tid`` has returned from its initial frame or called pthread_exit: it
    ends and its joiners wake (their queue address is concrete, so this never
    forks). Ends the process when the thread is main (not in a context)."""
    woken = wake_queue(st, E.thread_queue(st, tid))
    t = st.wthread(tid)
    t.status = ENDED
    t.retval = retval
    t.atomic = 0
    _note(st, "end", tid)
    span = E.span
    if t.ends_process:
        st.add_step(tid, span, f"{t.name} returns: the program ends", op=("end",))
        st.ended = True
        return
    st.add_step(tid, span, f"{t.name} ends" + (f", waking {_names(st, woken)}" if woken else ""), op=("end",))


# ----------------------------------------------------------------------
# helpers


def _names(st: State, tids) -> str:
    return ", ".join(st.threads[t].name for t in tids)


def _note(st: State, op: Op | str, obj, blocked: bool = False) -> None:
    """Record a synchronization of the current event: ``op`` an operation
    (its value is recorded) or a name of the engine's own. With an execution
    graph, what it orders is added to happens-before (:func:`_order`)."""
    if st.weak is not None and not blocked:
        _order(st, op, obj)
    if st.event is not None:
        # (_value_: the enum's value property runs Python code)
        st.event.syncs.append(SyncOp(op if isinstance(op, str) else op._value_, obj, blocked))


# what each synchronization (by the op or name _note records) releases and
# acquires, as keys of the graph's synchronisation objects (obj: its address).
# A lock acquires every earlier unlock of its mutex; a read lock the write
# unlocks, a write lock every unlock; a semaphore's wait every earlier post;
# pthread_once's later callers the first's return. Barriers: _barrier_wait.
_RELEASES = {Op.MUTEX_UNLOCK: ("mutex",), "rwlock_wrunlock": ("rw-w",), "rwlock_rdunlock": ("rw-r",),
             Op.SEM_POST: ("sem",), "once_done": ("once",), Op.BARRIER_WAIT: ("barrier",)}
_ACQUIRES = {Op.MUTEX_LOCK: ("mutex",), Op.RWLOCK_RDLOCK: ("rw-w",), Op.RWLOCK_WRLOCK: ("rw-w", "rw-r"),
             Op.SEM_WAIT: ("sem",), Op.ONCE: ("once",), Op.BARRIER_WAIT: ("barrier",)}


def _order(st: State, op: Op | str, obj) -> None:
    """Happens-before from synchronization in the run's graph: a thread
    starts after what its creator did; a join comes after all the joined
    thread did; the others as _RELEASES and _ACQUIRES say (the rest, and
    the attempts that only looked, order nothing)."""
    g = st.weak
    tid = st.current if st.current is not None else 0
    if op is Op.THREAD_CREATE:
        g = g.spawn(tid, obj)
    elif op is Op.THREAD_JOIN:
        g = g.join(tid, obj)
    for kind in _RELEASES.get(op, ()):
        g = g.release(tid, (kind, obj))
    for kind in _ACQUIRES.get(op, ()):
        g = g.acquire(tid, (kind, obj))
    st.weak = g


def _addr(E: Engine, st: State, tid: int, e, what: str) -> int:
    """The concrete address of a synchronization object (forks per value)."""
    p = E.ev(st, tid, e)
    oid, off = E.resolve(st, p, 0, False)
    if E.context_hooks and not isinstance(p, int):  # a context's symbolic pointer
        return E.context_hooks.sync_address(E, st, oid, off, what)
    return E.concretize(st, p, E.ptr_bits, what)


def _name(E: Engine, st: State, a: int) -> str:
    return lvalue(st, E.layout, a)


def _next(E: Engine, st: State, tid: int, i: ir.Intrinsic, value=None) -> None:
    f = st.wframe(tid)
    if i.dst is not None:
        v = 0 if value is None else value
        f.regs[i.dst.name] = v & mask(bits_of(i.dst.type, E.ptr_bits)) if isinstance(v, int) else v
    f.pc += 1
    if E.record_effects:
        st.add_effect(Effect(tid, f.uid, i, value=value))


# ----------------------------------------------------------------------
# threads


def _create(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    V, pb = E.values, E.ptr_bits
    handle, routine = i.args[0], i.args[2]
    if isinstance(routine, ir.Addr) and routine.kind is ir.ObjKind.FUNCTION:
        name = routine.name
    else:
        name = E.resolve_function(st, E.ev(st, tid, routine))
    f = E.program.function(name)
    if f is None:
        raise EngineLimit(f"thread routine {name} has no body")
    arg = E.ev(st, tid, i.args[3]) if len(i.args) > 3 else 0
    hp = E.ev(st, tid, handle)
    ht = handle.type.pointee if isinstance(handle.type, PtrType) else None
    hsize = ht.size if isinstance(ht, (IntType, PtrType)) else pb // 8
    oid, off = E.resolve(st, hp, hsize, True)
    args = []
    if f.params:
        pt = f.params[0].type
        args.append(V.convert(arg, bits_of(i.args[3].type, pb) if len(i.args) > 3 else pb, bits_of(pt, pb), False))
    new = E.spawn(st, f, args, f.name, ends_process=False)
    st.memory.store(oid, off, hsize, new, V, E.layout)
    E.note_access(st, True, hp, hsize)
    _note(st, Op.THREAD_CREATE, new)
    st.add_step(tid, i.span, f"create {st.threads[new].name}")
    if E.twin_sites:
        cf = st.threads[tid].frames[-1]
        if (cf.func.name, cf.pc) in E.twin_sites and isinstance(oid, int):
            st.twins, twin = twins.created(st.twins, tid, f.name, arg, new, oid)
            if twin is not None:  # it starts once its twin has
                E.counters["twin_waits"] = E.counters.get("twin_waits", 0) + 1
                block(st, new, E.start_queue(st, twin), f"{st.threads[twin].name} to start")
    _next(E, st, tid, i, 0)


def _join(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    V, pb = E.values, E.ptr_bits
    h = i.args[0]
    hv = E.ev(st, tid, h)
    if E.context_hooks and not isinstance(hv, int):  # a handle the context does not know
        target = E.context_hooks.thread_handle(E, st, hv, bits_of(h.type, pb))
    else:
        target = E.concretize(st, hv, bits_of(h.type, pb), "a thread handle")
    if target >= len(st.threads) or target == tid:
        raise LeafReached(Leaf(LeafKind.ERROR, "join of an invalid thread", i.span, tid))
    tt = st.threads[target]
    if tt.status != ENDED:
        _note(st, Op.THREAD_JOIN, target, blocked=True)
        st.add_step(tid, i.span, f"wait for {tt.name} to end")
        block(st, tid, E.thread_queue(st, target), f"{tt.name} to end")
        return
    dest = None
    if len(i.args) > 1:
        rp = E.ev(st, tid, i.args[1])
        null = V.eq(rp, 0, pb)
        if null is not True:
            pick = "ptr" if null is False else E.fork(
                st, lambda: [Option(null, "null"), Option(V.not_(null), "ptr")], exhaustive=True).payload
            if pick == "ptr":
                size = _result_size(i.args[1], pb)
                dest = (rp,) + E.resolve(st, rp, size, True) + (size,)
    if dest is not None:
        rp, oid, off, size = dest
        value = tt.retval
        if size != pb // 8:  # C11's thrd_join stores an int
            value = V.convert(value, value.size() if not isinstance(value, int) else pb, size * 8, True)
        st.memory.store(oid, off, size, value, V, E.layout)
        E.note_access(st, True, rp, size)
    if st.twins is not None:
        st.twins = twins.joined(st.twins, tid, target)
    _note(st, Op.THREAD_JOIN, target)
    st.add_step(tid, i.span, f"join {tt.name}")
    _next(E, st, tid, i, 0)


def _result_size(e, pb: int) -> int:
    """Bytes a join stores through ``e``: a pointer's (pthread_join's void **)
    or an int's (thrd_join's int *)."""
    t = e.type.pointee if isinstance(e.type, PtrType) else None
    return t.size if isinstance(t, IntType) else pb // 8


def _exit(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    v = E.ev(st, tid, i.args[0]) if i.args else 0
    t = st.wthread(tid)
    for f in t.frames:
        st.release(f)
    t.frames = []
    t.ends_process = False  # main calling pthread_exit lets the others run on
    st.add_step(tid, i.span, "pthread_exit")
    end_thread(E, st, tid, v)


def _self(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    _next(E, st, tid, i, tid)


# ----------------------------------------------------------------------
# mutexes


RECURSIVE, ERRORCHECK = 1, 2  # PTHREAD_MUTEX_RECURSIVE, PTHREAD_MUTEX_ERRORCHECK
THRD_BUSY, THRD_TIMEDOUT = 1, 4  # C11's results where POSIX gives EBUSY, ETIMEDOUT
MTX_RECURSIVE = 1  # C11 mtx_init's type bit


def _busy(i: ir.Intrinsic) -> int:
    return THRD_BUSY if i.name.startswith("mtx_") else EBUSY


def _timed_out(i: ir.Intrinsic) -> int:
    return THRD_TIMEDOUT if i.name.startswith(("mtx_", "cnd_")) else ETIMEDOUT


def _mutex_type(E: Engine, st: State, tid: int, attr) -> int:
    """The type a mutex attribute object holds (pthread_mutexattr_settype
    stores it there); 0, normal, for a null attribute."""
    p = E.ev(st, tid, attr)
    null = E.values.eq(p, 0, E.ptr_bits)
    if null is not True and null is not False:
        null = E.fork(st, lambda: [Option(null, True), Option(E.values.not_(null), False)], exhaustive=True).payload
    if null:
        return 0
    v, _, _ = E.load(st, tid, p, IntType(32, True))
    return E.concretize(st, v, 32, "a mutex type")


def _mutex_init(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a mutex address")
    kind = 0
    if i.name == "pthread_mutex_init" and len(i.args) > 1:
        kind = _mutex_type(E, st, tid, i.args[1])
    elif i.name == "mtx_init" and len(i.args) > 1:  # mtx_plain, mtx_timed, mtx_recursive bits
        bits = E.concretize(st, E.ev(st, tid, i.args[1]), 32, "a mutex type")
        kind = RECURSIVE if bits & MTX_RECURSIVE else 0
    st.locks.pop(a, None)
    if kind in (RECURSIVE, ERRORCHECK):
        st.mutex_kinds[a] = (kind, 0)
    else:
        st.mutex_kinds.pop(a, None)
    if E.context_hooks:
        E.context_hooks.lock_initialised(st, a)
    _note(st, i.op, a)
    st.add_step(tid, i.span, f"init mutex {_name(E, st, a)}")
    _next(E, st, tid, i, 0)


def _mutex_destroy(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a mutex address")
    _note(st, i.op, a)
    _next(E, st, tid, i, 0)


def _settle(E: Engine, st: State, a: int) -> None:
    """In a context run, decide who holds the lock at ``a`` if no one did yet."""
    if E.context_hooks:
        E.context_hooks.settle_lock(E, st, a)


def _lock(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a mutex address")
    _settle(E, st, a)
    name = _name(E, st, a)
    owner = st.locks.get(a)
    kind, depth = st.mutex_kinds.get(a, (0, 0))
    if owner == tid and kind == RECURSIVE:
        st.mutex_kinds[a] = (kind, depth + 1)
        _note(st, "mutex_relock", a)  # no other thread could have taken it instead: not an acquisition
        st.add_step(tid, i.span, f"lock {name} again (recursive, held {depth + 2} times)")
        _next(E, st, tid, i, 0)
        return
    if owner == tid and kind == ERRORCHECK and i.op is Op.MUTEX_LOCK:
        raise LeafReached(Leaf(LeafKind.ERROR, "relock of an error-checking mutex this thread holds",
                               i.span, tid))
    if i.op is Op.MUTEX_TRYLOCK:
        if owner is None:
            st.locks[a] = tid
        _note(st, Op.MUTEX_LOCK if owner is None else i.op, a)
        st.add_step(tid, i.span, f"trylock {name}: " + ("locked" if owner is None else "busy"))
        _next(E, st, tid, i, 0 if owner is None else _busy(i))
        return
    if owner is None:
        st.locks[a] = tid
        _note(st, i.op, a)
        st.add_step(tid, i.span, f"lock {name}")
        _next(E, st, tid, i, 0)
        return
    if _gives_up(E, st, i):  # a timed lock
        _note(st, Op.MUTEX_TRYLOCK, a)  # looked and left it as it was
        st.add_step(tid, i.span, f"timedlock {name}: timed out (held by {st.threads[owner].name})")
        _next(E, st, tid, i, _timed_out(i))
        return
    _note(st, i.op, a, blocked=True)
    st.add_step(tid, i.span, f"wait for {name} (held by {st.threads[owner].name})")
    block(st, tid, a, name)


def _unlock(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a mutex address")
    _settle(E, st, a)
    if st.locks.get(a) != tid:
        raise LeafReached(Leaf(LeafKind.ERROR, "unlock of a mutex this thread does not hold", i.span, tid))
    kind, depth = st.mutex_kinds.get(a, (0, 0))
    if depth > 0:  # a recursive mutex stays held until its last unlock
        st.mutex_kinds[a] = (kind, depth - 1)
        _note(st, i.op, a)
        st.add_step(tid, i.span, f"unlock {_name(E, st, a)} (recursive, still held {depth} times)")
        _next(E, st, tid, i, 0)
        return
    chosen = notify_all(E, st, a)
    del st.locks[a]
    woken = wake(st, chosen)
    _note(st, i.op, a)
    st.add_step(tid, i.span, f"unlock {_name(E, st, a)}" + (f", waking {_names(st, woken)}" if woken else ""))
    _next(E, st, tid, i, 0)


# ----------------------------------------------------------------------
# condition variables


def _cond_wait(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    t = st.threads[tid]
    if t.phase == "cond":  # woken: re-acquire the mutex
        m = t.phase_arg
        _settle(E, st, m)
        name = _name(E, st, m)
        if m in st.locks:
            _note(st, Op.MUTEX_LOCK, m, blocked=True)
            st.add_step(tid, i.span, f"woken, wait for {name}")
            block(st, tid, m, name)
            return
        st.locks[m] = tid
        if st.threads[tid].laps:
            awaits.note_wait(st, tid, st.threads[tid].frames[-1].pc)
        w = st.wthread(tid)
        w.phase, w.phase_arg = None, 0
        result = _timed_out(i) if w.timed_out else 0
        w.timed_out = False
        _note(st, Op.MUTEX_LOCK, m)
        st.add_step(tid, i.span, f"woken, lock {name}" + (" (timed out)" if result else ""))
        _next(E, st, tid, i, result)
        return
    c = _addr(E, st, tid, i.args[0], "a condition variable address")
    m = _addr(E, st, tid, i.args[1], "a mutex address")
    _settle(E, st, m)
    if st.locks.get(m) != tid:
        raise LeafReached(Leaf(LeafKind.ERROR, "pthread_cond_wait on a mutex this thread does not hold",
                               i.span, tid))
    spurious = timed_out = _gives_up(E, st, i)  # a timed wait that gives up wakes at once
    pc = t.frames[-1].pc
    if E.free_waits and not timed_out:
        _free_wait(E, st, tid, i, pc, c, m)
        return
    suppressed = anchored = False
    if not spurious and E.spurious_wakeups:
        # woken at once without a signal; when it re-acquires the mutex is up
        # to the schedule, so this covers a spurious wake-up at any time. Any
        # number of times, but not again when the last one changed nothing and
        # nothing the thread read since has changed (symex/awaits.py); without
        # that rule, once per thread and run
        if E.awaits:
            anchored = True
            suppressed = awaits.judge(E, st, tid, pc)[0] == awaits.UNCHANGED
            if not suppressed:
                spurious = _either(E, st)
        elif not t.spurious:
            spurious = _either(E, st)
    chosen = notify_all(E, st, m)
    if anchored:  # (after the forks)
        awaits.anchor(E, st, tid, pc)
        if suppressed:
            E.counters["spurious_suppressed"] = E.counters.get("spurious_suppressed", 0) + 1
    del st.locks[m]
    woken = wake(st, chosen)
    cname, mname = _name(E, st, c), _name(E, st, m)
    _note(st, Op.MUTEX_UNLOCK, m)
    _note(st, i.op, c, blocked=not spurious)  # a spurious wake-up learns of no signal
    waking = f", waking {_names(st, woken)}" if woken else ""
    w = st.wthread(tid)
    if timed_out:
        st.add_step(tid, i.span, f"timed wait on {cname} (unlock {mname}{waking}), timed out")
        w.timed_out, w.atomic = True, 0
    elif spurious:
        st.add_step(tid, i.span, f"wait on {cname} (unlock {mname}{waking}), woken spuriously")
        w.spurious, w.atomic = True, 0
    else:
        st.add_step(tid, i.span, f"wait on {cname} (unlock {mname}{waking})")
        block(st, tid, c, f"a signal on {cname}")  # w stays this run's copy of the thread
    w.phase, w.phase_arg = "cond", m


def _judge_wait(E: Engine, st: State, tid: int, pc: int) -> tuple[int, tuple]:
    """:func:`awaits.judge` of the round to the free wait at ``pc``; at a
    first call, with ``guard_waits``, the round of its loop's guard
    (:func:`awaits.judge_guard`, counted as ``guard_waits``). Not for a wait
    that wakes spuriously: there the first call's wake-up is the one that
    stands for a wake-up at any later point."""
    kind, reads = awaits.judge(E, st, tid, pc)
    if kind == awaits.NO_ROUND and E.guard_waits:
        kind, reads = awaits.judge_guard(E, st, tid, pc)
        if kind == awaits.UNCHANGED:
            E.counters["guard_waits"] = E.counters.get("guard_waits", 0) + 1
    return kind, reads


def _free_wait(E: Engine, st: State, tid: int, i: ir.Intrinsic, pc: int, c: int, m: int) -> None:
    """A wait that returns whenever the schedule has its thread re-acquire
    ``m`` (module docstring, ``Engine.free_waits``); after a futile round
    the thread first awaits a change of what it read."""
    kind, reads = _judge_wait(E, st, tid, pc)
    chosen = notify_all(E, st, m)  # (forks only on symbolic queue addresses)
    awaits.anchor(E, st, tid, pc)
    del st.locks[m]
    wake(st, chosen)
    _note(st, Op.MUTEX_UNLOCK, m)
    cname, mname = _name(E, st, c), _name(E, st, m)
    w = st.wthread(tid)
    w.phase, w.phase_arg, w.atomic = "cond", m, 0
    if kind == awaits.UNCHANGED:
        E.counters["free_wait_awaits"] = E.counters.get("free_wait_awaits", 0) + 1
        # (nothing changed since its last wait: it returns once something it read has)
        awaits.block(E, st, tid, reads, i.span, f"wait on {cname} (unlock {mname}), woken spuriously once "
                                                "{} changes")  # (phase_arg m: awaits.wake sends it to re-acquire)
        w.waits_for = f"a signal on {cname}"  # (what a deadlock's message says, as with signals)
        return
    E.counters["free_waits"] = E.counters.get("free_waits", 0) + 1
    # (a return without a signal is a POSIX execution whether or not one came)
    st.add_step(tid, i.span, f"wait on {cname} (unlock {mname}), woken spuriously")


def _signal(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    c = _addr(E, st, tid, i.args[0], "a condition variable address")
    if i.op is Op.COND_SIGNAL:
        k = notify_one(E, st, c)
        chosen: tuple[int, ...] = () if k is None else (k,)
    else:
        chosen = notify_all(E, st, c)
    woken = wake(st, chosen)
    _note(st, i.op, c)
    verb = "signal" if i.op is Op.COND_SIGNAL else "broadcast"
    st.add_step(tid, i.span, f"{verb} {_name(E, st, c)}" + (f", waking {_names(st, woken)}" if woken else " (no waiter)"))
    _next(E, st, tid, i, 0)


def _cond_init(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a condition variable address")
    _note(st, i.op, a)
    _next(E, st, tid, i, 0)


# ----------------------------------------------------------------------
# barriers


def _barrier_init(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a barrier address")
    ce = i.args[2] if len(i.args) > 2 else i.args[-1]
    n = E.values.convert(E.ev(st, tid, ce), bits_of(ce.type, E.ptr_bits), 32, False)
    st.barriers[a] = (n, 0)
    _note(st, i.op, a)
    st.add_step(tid, i.span, f"init barrier {_name(E, st, a)} for ", ("v", n, IntType(32, False)), " threads")
    _next(E, st, tid, i, 0)


def _barrier_wait(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    V = E.values
    a = _addr(E, st, tid, i.args[0], "a barrier address")
    entry = st.barriers.get(a)
    if entry is None and E.context_hooks:  # a barrier initialised before the context
        entry = E.context_hooks.barrier_entry(E, st, a)
    if entry is None:
        raise LeafReached(Leaf(LeafKind.ERROR, "wait on a barrier not initialised", i.span, tid))
    n, arrived = entry
    last = V.eq(n, arrived + 1, 32)
    is_last = E.fork(st, lambda: [Option(last, True), Option(V.not_(last), False)], exhaustive=True).payload
    name = _name(E, st, a)
    if is_last:
        chosen = notify_all(E, st, a)
        st.barriers[a] = (n, 0)
        woken = wake(st, chosen)
        _note(st, i.op, a)
        if st.weak is not None:  # the waiters leave after every arrival
            for w in woken:
                st.weak = st.weak.acquire(w, ("barrier", a))
        st.add_step(tid, i.span, f"barrier {name}: last to arrive" + (f", waking {_names(st, woken)}" if woken else ""))
        _next(E, st, tid, i, -1)
        return
    st.barriers[a] = (n, arrived + 1)
    if st.weak is not None:  # (its arrival is ordered before every departure)
        st.weak = st.weak.release(tid, ("barrier", a))
    _note(st, i.op, a, blocked=True)
    st.add_step(tid, i.span, f"barrier {name}: wait ({arrived + 1} arrived)")
    _next(E, st, tid, i, 0)
    block(st, tid, a, f"barrier {name}")


def _barrier_destroy(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a barrier address")
    _note(st, i.op, a)
    _next(E, st, tid, i, 0)


# ----------------------------------------------------------------------
# timed waits, semaphores, reader-writer locks


def _either(E: Engine, st: State) -> bool:
    """Fork into both ways of a choice no value decides (False first)."""
    return E.fork(st, lambda: [Option(True, False), Option(True, True)]).payload


def _gives_up(E: Engine, st: State, i: ir.Intrinsic) -> bool:
    """A wait that would block: with a deadline it may also give up now
    (forks); without one it never does."""
    return ir.has_deadline(i) and _either(E, st)


def _sem_init(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a semaphore address")
    v = E.concretize(st, E.ev(st, tid, i.args[2]), 32, "a semaphore's initial value")
    st.sems[a] = v
    _note(st, i.op, a)
    st.add_step(tid, i.span, f"init semaphore {_name(E, st, a)} to {v}")
    _next(E, st, tid, i, 0)


def _sem_value(E: Engine, st: State, tid: int, i: ir.Intrinsic, a: int) -> int:
    v = st.sems.get(a)
    if v is None:
        if E.context_hooks:
            raise EngineLimit("a semaphore initialised before the context is not modelled")
        raise LeafReached(Leaf(LeafKind.ERROR, f"{i.name or i.op.value} on a semaphore not initialised",
                               i.span, tid))
    return v


def _sem_wait(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a semaphore address")
    v = _sem_value(E, st, tid, i, a)
    name = _name(E, st, a)
    if v > 0:
        st.sems[a] = v - 1
        _note(st, Op.SEM_WAIT, a)
        st.add_step(tid, i.span, f"sem_wait {name} ({v} -> {v - 1})")
        _next(E, st, tid, i, 0)
        return
    if i.op is Op.SEM_TRYWAIT or _gives_up(E, st, i):
        _note(st, Op.SEM_TRYWAIT, a)  # looked and left it as it was
        verb = "sem_trywait" if i.op is Op.SEM_TRYWAIT else "sem_timedwait"
        st.add_step(tid, i.span, f"{verb} {name}: " + ("busy" if i.op is Op.SEM_TRYWAIT else "timed out"))
        _next(E, st, tid, i, -1)
        return
    _note(st, Op.SEM_WAIT, a, blocked=True)
    st.add_step(tid, i.span, f"wait for {name} (0)")
    block(st, tid, a, f"semaphore {name}")


def _sem_post(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a semaphore address")
    v = _sem_value(E, st, tid, i, a)
    st.sems[a] = v + 1
    woken = wake(st, notify_all(E, st, a))
    _note(st, i.op, a)
    st.add_step(tid, i.span, f"sem_post {_name(E, st, a)} ({v} -> {v + 1})"
                + (f", waking {_names(st, woken)}" if woken else ""))
    _next(E, st, tid, i, 0)


def _sem_getvalue(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a semaphore address")
    v = _sem_value(E, st, tid, i, a)
    p = E.ev(st, tid, i.args[1])
    oid, off = E.resolve(st, p, 4, True)
    st.memory.store(oid, off, 4, v, E.values, E.layout)
    E.note_access(st, True, p, 4)
    _note(st, i.op, a)
    st.add_step(tid, i.span, f"sem_getvalue {_name(E, st, a)}: {v}")
    _next(E, st, tid, i, 0)


def _sem_destroy(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a semaphore address")
    _sem_value(E, st, tid, i, a)
    del st.sems[a]
    _note(st, i.op, a)
    _next(E, st, tid, i, 0)


def _rwlock_init(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a rwlock address")
    st.rwlocks.pop(a, None)
    _note(st, i.op, a)
    if i.op is Op.RWLOCK_INIT:
        st.add_step(tid, i.span, f"init rwlock {_name(E, st, a)}")
    _next(E, st, tid, i, 0)


def _rwlock_settle(E: Engine, st: State, a: int) -> None:
    """In a context run, decide who holds the rwlock at ``a`` if no one did yet."""
    if E.context_hooks:
        E.context_hooks.settle_rwlock(E, st, a)


def _rwlock_lock(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a rwlock address")
    _rwlock_settle(E, st, a)
    writer, readers = st.rwlocks.get(a, (None, ()))
    read = i.op in (Op.RWLOCK_RDLOCK, Op.RWLOCK_TRYRDLOCK)
    name = _name(E, st, a)
    verb = "rdlock" if read else "wrlock"
    if writer is None and (read or not readers):
        st.rwlocks[a] = (None, tuple(sorted(readers + (tid,)))) if read else (tid, ())
        _note(st, Op.RWLOCK_RDLOCK if read else Op.RWLOCK_WRLOCK, a)
        st.add_step(tid, i.span, f"{verb} {name}")
        _next(E, st, tid, i, 0)
        return
    held = f"held by {st.threads[writer].name}" if writer is not None \
        else f"read by {_names(st, sorted(set(readers)))}"
    tried = i.op in (Op.RWLOCK_TRYRDLOCK, Op.RWLOCK_TRYWRLOCK)
    if tried or _gives_up(E, st, i):
        _note(st, Op.RWLOCK_TRYRDLOCK if read else Op.RWLOCK_TRYWRLOCK, a)  # only looked
        st.add_step(tid, i.span, f"{'try' if tried else 'timed '}{verb} {name}: "
                    + ("busy" if tried else "timed out") + f" ({held})")
        _next(E, st, tid, i, EBUSY if tried else _timed_out(i))
        return
    _note(st, Op.RWLOCK_RDLOCK if read else Op.RWLOCK_WRLOCK, a, blocked=True)
    st.add_step(tid, i.span, f"wait for {name} to {'read' if read else 'write'} ({held})")
    block(st, tid, a, f"rwlock {name}")


def _rwlock_unlock(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a rwlock address")
    _rwlock_settle(E, st, a)
    writer, readers = st.rwlocks.get(a, (None, ()))
    if writer == tid:
        writer, op = None, "rwlock_wrunlock"
    elif tid in readers:
        k = readers.index(tid)
        readers, op = readers[:k] + readers[k + 1:], "rwlock_rdunlock"
    elif E.context_hooks and writer is None:
        # a context run does not know who held rwlocks when it started: this
        # thread held it for reading then (no writer could hold it beside)
        op = "rwlock_rdunlock"
    else:
        raise LeafReached(Leaf(LeafKind.ERROR, "unlock of a rwlock this thread does not hold", i.span, tid))
    st.rwlocks[a] = (writer, readers)
    woken = wake(st, notify_all(E, st, a)) if not readers else []
    _note(st, op, a)
    st.add_step(tid, i.span, f"unlock {_name(E, st, a)}" + (f", waking {_names(st, woken)}" if woken else ""))
    _next(E, st, tid, i, 0)


def _once(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    """ONCE of pthread_once/call_once (see :class:`distaff.analysis.ir.Op`)."""
    a = _addr(E, st, tid, i.args[0], "a once control address")
    name = _name(E, st, a)
    if a not in st.onces:
        st.onces[a] = tid
        _note(st, "once_start", a)
        st.add_step(tid, i.span, f"{i.name} {name}: first, runs the routine")
        _next(E, st, tid, i, 1)
        return
    runner = st.onces[a]
    if runner is None:
        _note(st, i.op, a)
        st.add_step(tid, i.span, f"{i.name} {name}: already done")
        _next(E, st, tid, i, 0)
        return
    _note(st, i.op, a, blocked=True)
    st.add_step(tid, i.span, f"wait for {st.threads[runner].name} to finish {i.name} {name}")
    block(st, tid, a, f"{i.name} {name}")


def _once_done(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    a = _addr(E, st, tid, i.args[0], "a once control address")
    st.onces[a] = None
    woken = wake(st, notify_all(E, st, a))
    _note(st, "once_done", a)
    st.add_step(tid, i.span, f"{i.name} {_name(E, st, a)}: done" + (f", waking {_names(st, woken)}" if woken else ""))
    _next(E, st, tid, i)


# ----------------------------------------------------------------------
# atomic regions


def _atomic(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    t = st.wthread(tid)
    ev = st.event
    if E.commuting_rmws and i.op is Op.ATOMIC_BEGIN and t.atomic == 0 and ev is not None:
        f = t.frames[-1]  # an update only when the region is the event's global operation
        ev.update = E.update_kind(f.func, f.pc) if not (ev.accesses or ev.syncs) else ""
    t.atomic = t.atomic + 1 if i.op is Op.ATOMIC_BEGIN else max(0, t.atomic - 1)
    _note(st, i.op, tid)
    _next(E, st, tid, i)


def run(E: Engine, st: State, tid: int, i: ir.Intrinsic) -> None:
    h = _OPS.get(i.op)
    if h is None:
        raise EngineLimit(f"operation {i.op.value} is not supported")
    h(E, st, tid, i)


_OPS = {
    Op.THREAD_CREATE: _create,
    Op.THREAD_JOIN: _join,
    Op.THREAD_EXIT: _exit,
    Op.THREAD_SELF: _self,
    Op.MUTEX_INIT: _mutex_init,
    Op.MUTEX_DESTROY: _mutex_destroy,
    Op.MUTEX_LOCK: _lock,
    Op.MUTEX_TRYLOCK: _lock,
    Op.MUTEX_UNLOCK: _unlock,
    Op.COND_INIT: _cond_init,
    Op.COND_DESTROY: _cond_init,
    Op.COND_WAIT: _cond_wait,
    Op.COND_SIGNAL: _signal,
    Op.COND_BROADCAST: _signal,
    Op.BARRIER_INIT: _barrier_init,
    Op.BARRIER_DESTROY: _barrier_destroy,
    Op.BARRIER_WAIT: _barrier_wait,
    Op.ATOMIC_BEGIN: _atomic,
    Op.ATOMIC_END: _atomic,
    Op.SEM_INIT: _sem_init,
    Op.SEM_DESTROY: _sem_destroy,
    Op.SEM_WAIT: _sem_wait,
    Op.SEM_TRYWAIT: _sem_wait,
    Op.SEM_POST: _sem_post,
    Op.SEM_GETVALUE: _sem_getvalue,
    Op.RWLOCK_INIT: _rwlock_init,
    Op.RWLOCK_DESTROY: _rwlock_init,
    Op.RWLOCK_RDLOCK: _rwlock_lock,
    Op.RWLOCK_WRLOCK: _rwlock_lock,
    Op.RWLOCK_TRYRDLOCK: _rwlock_lock,
    Op.RWLOCK_TRYWRLOCK: _rwlock_lock,
    Op.RWLOCK_UNLOCK: _rwlock_unlock,
    Op.ONCE: _once,
    Op.ONCE_DONE: _once_done,
}
