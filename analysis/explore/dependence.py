"""Footprints of scheduling steps and when two steps are dependent.

A :class:`Footprint` is what partial order reduction needs to know about one
event of a run (:class:`distaff.analysis.symex.state.Event`): which bytes it read and
wrote (addresses possibly symbolic), which synchronization objects it used,
whether it ended the process. Two events of different threads are
*dependent* when swapping them may change the outcome:

* memory: overlapping bytes, at least one written. Addresses are compared by
  object id first (pointers carry it in their high bits); different concrete
  objects never overlap, the same object with concrete offsets overlaps when
  the byte ranges meet, anything symbolic may alias and counts as dependent;
* synchronization: any two operations on the same mutex, condition variable,
  barrier, semaphore or rwlock (the global wait queue is FIFO per address, so
  operations on one queue address do not commute), except two that only look
  at the object: a lock attempt or semaphore wait that blocked, a trylock,
  trywait or timed wait that gave up, ``sem_getvalue`` change nothing, so
  two of them commute (were they dependent, a blocked attempt would stand
  between a lock and a later attempt in happens-before and hide the race
  that matters, the one with the lock that made both attempts block); and
  two read locks of one rwlock that were granted commute;
* threads: a create with every event of the created thread, a join with
  every event of the joined thread;
* the event that ends the process (``exit``, ``main`` returning), and one
  whose assumption narrowed symbolic inputs (a step of another thread before
  it may see inputs it rules out), with every event of another thread, and an *unknown* footprint (an event cut short
  before its visible operation completed) with everything.

Dependence orders events (happens-before). A *race* is a dependent pair whose
order could have been the other way round: :func:`races` leaves out the pairs
that can never be reversed -- a create before the created thread's events, the
joined thread's events before the join, and the mutex and rwlock pairs that
are never enabled together (an unlock with the next lock: the second lock can
only run once the mutex is free, so the reversal that matters is lock against
lock, as Flanagan and Godefroid's co-enabledness says; a read unlock and a
read lock are enabled together, and race).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from distaff.analysis.record import Record
from distaff.analysis.symex.memory import PointerLayout
from distaff.analysis.symex.state import Event
from distaff.analysis.symex.values import Values

_FAMILIES = {
    "mutex": ("mutex_lock", "mutex_trylock", "mutex_unlock", "mutex_init", "mutex_destroy", "mutex_relock"),
    "cond": ("cond_wait", "cond_signal", "cond_broadcast", "cond_init", "cond_destroy"),
    "barrier": ("barrier_init", "barrier_wait", "barrier_destroy"),
    "sem": ("sem_init", "sem_destroy", "sem_wait", "sem_trywait", "sem_post", "sem_getvalue"),
    "once": ("once", "once_start", "once_done"),
    # an unlock is noted as the kind of lock it gave back
    "rwlock": ("rwlock_init", "rwlock_destroy", "rwlock_rdlock", "rwlock_wrlock", "rwlock_tryrdlock",
               "rwlock_trywrlock", "rwlock_rdunlock", "rwlock_wrunlock"),
}
# bytes per memory block of a conflict key
BLOCK = 8

# the kinds of memory access each kind conflicts with (Dependence._conflict_keys):
# a read with writes, a write with both
_CONFLICTING = {"r": ("w",), "w": ("r", "w")}

_FAMILY = {op: name for name, ops in _FAMILIES.items() for op in ops}

# operations that leave their object as it was: a failed try, a timed wait
# that gave up (both noted as the try), a value read
_LOOK_OPS = frozenset({"mutex_trylock", "sem_trywait", "sem_getvalue", "rwlock_tryrdlock", "rwlock_trywrlock"})
# operations that block while the object is taken; blocked, they only looked
_ACQUIRE_OPS = frozenset({"mutex_lock", "sem_wait", "rwlock_rdlock", "rwlock_wrlock", "once"})
_SETUP_OPS = frozenset({"mutex_init", "mutex_destroy", "rwlock_init", "rwlock_destroy"})
# what a look may become when a reversal runs it first
_MOVED = {"mutex_trylock": "mutex_lock", "sem_trywait": "sem_wait",
          "rwlock_tryrdlock": "rwlock_rdlock", "rwlock_trywrlock": "rwlock_wrlock"}


def family(op: str) -> str | None:
    """Which kind of synchronization object ``op`` works on (None: not an object)."""
    return _FAMILY.get(op)


@dataclass(frozen=True, slots=True, init=False)
class Footprint(Record):
    """The visible part of one event of thread ``tid``: ``reads``/``writes``
    are ``(address, size)`` pairs, ``syncs`` ``(op, obj, blocked)`` triples
    (``op`` an :class:`distaff.analysis.ir.Op` value, ``"end"`` or ``"exit"``).
    ``creates``/``joins`` are the thread ids created and joined. ``exit``: the
    event ended the process. ``unknown``: what the event did is not known
    (dependent with everything). ``silent``: those of ``reads`` that were
    stores of what the memory held (see :func:`moved_first`). ``update``: the
    event is an atomic update of the one location it reads (``reads[0]``) and
    writes that commutes with any other of the same kind there
    (``Event.update``), silent or not."""

    tid: int
    reads: tuple = ()
    writes: tuple = ()
    syncs: tuple = ()
    creates: tuple = ()
    joins: tuple = ()
    exit: bool = False
    unknown: bool = False
    silent: tuple = ()
    update: str = ""

    def __init__(self, tid: int, reads: tuple = (), writes: tuple = (), syncs: tuple = (),
                 creates: tuple = (), joins: tuple = (), exit: bool = False, unknown: bool = False,
                 silent: tuple = (), update: str = "") -> None:
        object.__setattr__(self, "tid", tid)
        object.__setattr__(self, "reads", reads)
        object.__setattr__(self, "writes", writes)
        object.__setattr__(self, "syncs", syncs)
        object.__setattr__(self, "creates", creates)
        object.__setattr__(self, "joins", joins)
        object.__setattr__(self, "exit", exit)
        object.__setattr__(self, "unknown", unknown)
        object.__setattr__(self, "silent", silent)
        object.__setattr__(self, "update", update)

    @staticmethod
    def pending(tid: int) -> "Footprint":
        """The next step of a thread that has not run it: anything may happen."""
        return Footprint(tid, unknown=True)

    @property
    def key(self) -> tuple | None:
        """A hashable, solver-free description, or None when an address is symbolic."""
        for a, _ in self.reads + self.writes:
            if not isinstance(a, int):
                return None
        return (self.tid, self.reads, self.writes, tuple((o, b) for o, b, _ in self.syncs),
                self.creates, self.joins, self.exit, self.unknown, self.silent, self.update)


def silent_as_writes(fp: Footprint) -> Footprint:
    """``fp`` with its silent stores (read where they ran) as the writes they
    may be where the memory held something else."""
    return replace(fp, writes=fp.writes + fp.silent, silent=()) if fp.silent else fp


def moved_first(fp: Footprint) -> Footprint:
    """The footprint a step may have when a reversal runs it before the step
    it raced with: a lock attempt that blocked may then take the mutex, and
    a store that wrote what the memory held (``silent``, read there) may
    write something new."""
    fp = silent_as_writes(fp)
    if not any(_looks(op, b) for op, _, b in fp.syncs):
        return fp
    syncs = tuple((_MOVED.get(op, op), o, False) if _looks(op, b) else (op, o, b) for op, o, b in fp.syncs)
    return replace(fp, syncs=syncs)


def footprint_of(event: Event, ended: bool) -> Footprint:
    """The footprint of an engine :class:`~distaff.analysis.symex.state.Event`;
    ``ended``: the process ended with it."""
    reads, writes, syncs, creates, joins, silent = [], [], [], [], [], []
    for a in event.accesses:
        (writes if a.write else reads).append((a.addr, a.size))
        if a.silent:
            silent.append((a.addr, a.size))
    for s in event.syncs:
        if s.op == "thread_create":
            creates.append(s.obj)
        elif s.op == "thread_join":
            joins.append(s.obj)
        elif s.op == "assume":  # it narrowed the inputs: as the process's end (symex.intrinsics.assume)
            ended = True
        syncs.append((s.op, s.obj, s.blocked))
    unknown = not (reads or writes or syncs or ended)
    # an update commutes as a whole: its memory is the read and the write (or
    # silent store) of one concrete location (its synchronizations, a thread's
    # end after it, are dependent by their own rules)
    update = event.update if event.update and reads and isinstance(reads[0][0], int) and not ended \
        and all(x == reads[0] for x in reads + writes) else ""
    return Footprint(event.tid, tuple(reads), tuple(writes), tuple(syncs), tuple(creates), tuple(joins),
                     ended, unknown, tuple(silent), update)


# distinct footprints :meth:`Dependence.footprint` remembers before it starts afresh
MEMO_LIMIT = 50_000
_UNSEEN = object()


class Dependence:
    """Dependence and races between footprints of one check (the pointer
    layout tells object ids from offsets).

    With ``memo`` (optimisation ``footprint_memo``), :meth:`footprint` gives
    events alike (same thread, accesses and synchronizations, all at
    concrete addresses) one :class:`Footprint` object, whose conflict keys
    are then computed once: a run repeats a few accesses many times.
    ``hits`` counts the events served from the memo."""

    def __init__(self, layout: PointerLayout, V: Values, memo: bool = True):
        self.layout = layout
        self.values = V
        self._split: dict = {}
        self.checks = 0
        self.memo = memo
        self.hits = 0
        self.commuted = 0  # memory overlaps waived: two updates that commute (Footprint.update)
        self._footprints: dict = {}  # event description -> Footprint
        self._keys: dict = {}  # id of a remembered Footprint -> its conflict keys

    def footprint(self, event: Event, ended: bool) -> Footprint:
        """:func:`footprint_of`, remembered (see the class docstring)."""
        if not self.memo:
            return footprint_of(event, ended)
        accesses = []
        for a in event.accesses:
            if type(a.addr) is not int:  # a z3 address compares by building a term, not by value
                return footprint_of(event, ended)
            accesses.append((a.write, a.addr, a.size, a.silent))
        syncs = []
        for s in event.syncs:
            if type(s.obj) is not int:
                return footprint_of(event, ended)
            syncs.append((s.op, s.obj, s.blocked))
        key = (event.tid, ended, tuple(accesses), tuple(syncs), event.update)
        fp = self._footprints.get(key)
        if fp is not None:
            self.hits += 1
            return fp
        if len(self._footprints) >= MEMO_LIMIT:
            self._footprints.clear()
            self._keys.clear()
        fp = self._footprints[key] = footprint_of(event, ended)
        self._keys[id(fp)] = self._conflict_keys(fp)
        return fp

    # ------------------------------------------------------------------ memory

    def _parts(self, a):
        """(object id, offset) of an address; either may be a z3 term."""
        if isinstance(a, int):
            return a >> self.layout.off_bits, a & ((1 << self.layout.off_bits) - 1)
        key = a.get_id()
        hit = self._split.get(key)
        if hit is None:
            V = self.values
            oid = V.simplified(self.layout.obj(a, V))
            off = V.simplified(self.layout.off(a, V))
            hit = self._split[key] = (a, oid, off)
        return hit[1], hit[2]

    def overlap(self, a, n: int, b, m: int) -> bool:
        """May ``[a, a+n)`` and ``[b, b+m)`` share a byte?"""
        if isinstance(a, int) and isinstance(b, int):
            return a < b + m and b < a + n
        oa, fa = self._parts(a)
        ob, fb = self._parts(b)
        if isinstance(oa, int) and isinstance(ob, int) and oa != ob:
            return False
        if isinstance(fa, int) and isinstance(fb, int) and isinstance(oa, int) and isinstance(ob, int):
            return fa < fb + m and fb < fa + n
        return True

    def _overlap_any(self, xs: tuple, ys: tuple) -> bool:
        """May an access of ``xs`` share a byte with one of ``ys``?"""
        for a, n in xs:
            for b, m in ys:
                if self.overlap(a, n, b, m):
                    return True
        return False

    def _memory(self, x: Footprint, y: Footprint) -> bool:
        if x.update and x.update == y.update and x.reads[0] == y.reads[0]:
            self.commuted += 1
            return False  # two updates that commute (footprint_of)
        return self._overlap_any(x.writes, y.writes) or self._overlap_any(x.writes, y.reads) \
            or self._overlap_any(x.reads, y.writes)

    # ------------------------------------------------------------------ conflict keys

    def conflict_keys(self, fp: Footprint):
        """:meth:`_conflict_keys`, computed once for a remembered footprint."""
        # remembered footprints are alive, so no other object has their id
        keys = self._keys.get(id(fp), _UNSEEN)
        return self._conflict_keys(fp) if keys is _UNSEEN else keys

    def _conflict_keys(self, fp: Footprint):
        """``(register, query)``: the keys a step with footprint ``fp`` is
        filed under, and the keys under which every step that may be
        dependent with ``fp`` is filed (:class:`distaff.analysis.explore.steplog.StepLog`);
        None when ``fp`` may conflict with anything. Memory is keyed by
        ``BLOCK``-byte blocks of an object when the offset is concrete, by the
        whole object when it is not, and by the kind of access (a read asks
        for writes only; ``_CONFLICTING``); synchronization by family and object;
        threads by id (a step is filed under its own thread, ``T``, and the
        threads it creates or joins, ``t``; it asks for the steps that created
        or joined its thread and the steps of the threads it creates or joins)."""
        if fp.unknown or fp.exit:
            return None
        others = fp.creates + fp.joins
        reg = [("T", fp.tid)] + [("t", c) for c in others]
        qry = [("t", fp.tid)] + [("T", c) for c in others]
        for op, o, _ in fp.syncs:
            f = family(op)
            if f is not None:
                if not isinstance(o, int):
                    return None
                reg.append(("s", f, o))
                qry.append(("s", f, o))
        off_bits = self.layout.off_bits
        last_off = (1 << off_bits) - 1
        for kind, accesses in (("r", fp.reads), ("w", fp.writes)):
            asks = _CONFLICTING[kind]  # a read asks only for writes
            for a, n in accesses:
                oid, off = self._parts(a)
                if not isinstance(oid, int):
                    return None
                end = off + max(n, 1) - 1 if isinstance(off, int) else None
                if end is not None and end > last_off:
                    return None  # runs past its object: leave it to the full scan
                if end is not None and end // BLOCK - off // BLOCK < 64:
                    reg.append(("O" + kind, oid))
                    qry.extend(("M" + k, oid) for k in asks)
                    for b in range(off // BLOCK, end // BLOCK + 1):
                        reg.append(("m" + kind, oid, b))
                        qry.extend(("m" + k, oid, b) for k in asks)
                else:  # a symbolic offset (or a large copy): the whole object
                    reg += [("O" + kind, oid), ("M" + kind, oid)]
                    qry.extend(("O" + k, oid) for k in asks)
        return tuple(dict.fromkeys(reg)), tuple(dict.fromkeys(qry))

    # ------------------------------------------------------------------ dependence

    def dependent(self, x: Footprint, y: Footprint) -> bool:
        """Do the events of different threads ``x`` and ``y`` fail to commute?"""
        self.checks += 1
        if x.tid == y.tid:
            return True
        if x.unknown or y.unknown or x.exit or y.exit:
            return True
        if y.tid in x.creates or x.tid in y.creates or y.tid in x.joins or x.tid in y.joins:
            return True
        for op1, o1, b1 in x.syncs:
            f1 = family(op1)
            if f1 is None:
                continue
            for op2, o2, b2 in y.syncs:
                if family(op2) == f1 and o1 == o2 and not (_looks(op1, b1) and _looks(op2, b2)) \
                        and not _both_read(op1, b1, op2, b2):
                    return True
        return self._memory(x, y)

    def race(self, earlier: Footprint, later: Footprint) -> bool:
        """Is the dependent pair ``earlier`` before ``later`` (different threads)
        one whose order a different schedule could reverse?"""
        if earlier.tid == later.tid:
            return False
        if earlier.unknown or later.unknown or earlier.exit or later.exit:
            return True
        if later.tid in earlier.creates or earlier.tid in later.joins:
            return False
        return self._sync_race(earlier, later) or self._memory(earlier, later)

    def blind_race(self, earlier: Footprint, later: Footprint) -> bool:
        """Are two steps of different threads dependent only because both
        write a byte that neither reads -- no synchronization object, thread
        or read in common? Their order then matters only to a later read
        that reads the second one's write: an observer."""
        if earlier.unknown or later.unknown or earlier.exit or later.exit:
            return False
        if later.tid in earlier.creates or earlier.tid in later.joins or earlier.tid in later.creates \
                or later.tid in earlier.joins:
            return False
        for op1, o1, _ in earlier.syncs:
            f1 = family(op1)
            if f1 is not None and any(family(op2) == f1 and o2 == o1 for op2, o2, _ in later.syncs):
                return False
        if self._overlap_any(earlier.reads, later.writes) or self._overlap_any(later.reads, earlier.writes):
            return False
        return self._overlap_any(earlier.writes, later.writes)

    def _sync_race(self, earlier: Footprint, later: Footprint) -> bool:
        """Do the steps' synchronizations race (:meth:`race`)?"""
        for op1, o1, b1 in earlier.syncs:
            f1 = family(op1)
            if f1 is None:
                continue
            for op2, o2, b2 in later.syncs:
                if family(op2) != f1 or o1 != o2:
                    continue
                if (_looks(op1, b1) and _looks(op2, b2)) or _both_read(op1, b1, op2, b2):
                    continue  # they commute
                if f1 in ("mutex", "rwlock") and not _lock_race(op1, op2):
                    continue
                return True
        return False


def only_looks(fp: Footprint) -> bool:
    """Did the step only look at synchronization objects (an attempt that
    blocked, a try that failed), touching no memory? Such a step changes
    nothing a later step of another thread could see: it is dependent with
    an unlock (the unlock decides whether it blocks), but orders nothing
    after it."""
    return bool(fp.syncs) and not (fp.reads or fp.writes or fp.creates or fp.joins or fp.exit or fp.unknown) \
        and all(_looks(op, b) for op, _, b in fp.syncs)


def _looks(op: str, blocked: bool) -> bool:
    """Does the operation leave its object as it was (an attempt that
    blocked, a try that failed)?"""
    return op in _LOOK_OPS or (blocked and op in _ACQUIRE_OPS)


def _both_read(op1: str, b1: bool, op2: str, b2: bool) -> bool:
    """Two read locks granted on one rwlock: either order gives the same state."""
    return op1 == op2 == "rwlock_rdlock" and not b1 and not b2


def _lock_race(op1: str, op2: str) -> bool:
    """May two dependent operations on one mutex or rwlock swap? Only ones
    enabled together: two acquisitions (a blocked attempt counts as one), a
    failed try (always enabled) with anything, init and destroy with
    anything, and a read unlock with a read lock (both enabled while other
    readers hold it). An unlock that frees the lock and the lock waiting for
    it are never enabled together; nor is a recursive relock with another
    thread's lock."""
    if op1 in _LOOK_OPS or op2 in _LOOK_OPS or op1 in _SETUP_OPS or op2 in _SETUP_OPS:
        return True
    if {op1, op2} == {"rwlock_rdunlock", "rwlock_rdlock"}:
        return True
    return op1 in _ACQUIRE_OPS and op2 in _ACQUIRE_OPS
