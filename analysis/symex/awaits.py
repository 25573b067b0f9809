"""Awaits: rounds of a loop that change nothing are explored once.

Most concurrent C waits by spinning (``while (!ready);``, Peterson's and
Dekker's locks, test-and-set and ticket locks, a seqlock reader that
retries). An iteration that writes nothing another thread can see, keeps its
registers and its locks, and whose exit test failed, changed nothing: running
it again with the same values read would do the same. So it is not explored
again: the thread *awaits* until another thread's step changes one of the
values it read, then runs the loop again (as Nidhugg's await transformation
and GenMC's blocked spin loops do). Spin loops then need no unwind bound, and
a program whose threads only spin like this has a finite state space: a proof.

How a thread keeps track. It holds *laps*: for each *anchor* it passed -- a
loop head it came to (by a back edge, or entering the loop: the first
iteration is a round too), or a condition wait it called -- the values
of the registers live there, the locks it held, and every value it has read
from shared memory since (object, offset, size, value). A step that may change
anything else drops every lap (:func:`drop`): a store of a value the memory did
not already hold, an allocation, an input, a thread, semaphore or barrier
operation, a lock operation where a try-lock could see it, a read through an
address not known without solving. A lock or unlock, and a condition wait,
are part of a round when the thread ends it holding what it held at its start
and no try-lock or timed lock in the program can tell the difference.

Back at an anchor with a lap there (:func:`judge`), the round was futile:

* ``UNCHANGED``: every location read still holds what was read. At a loop head
  the thread awaits (:func:`block`: blocked, phase ``await``) -- unless it holds
  a lock or is inside an atomic region, where the others could not run or a
  round is how the lock gets released; then the round counts against the bound
  as before. At a condition wait it may not wake spuriously this time: only a
  signal wakes it. A free wait (:mod:`distaff.analysis.symex.sync`) awaits,
  and does so from its first call when it returns straight to its loop's
  guard and the guard's round is ``UNCHANGED`` (:func:`judge_guard`); it
  returns as soon as what it watches changes (:func:`wake_waits`).
* ``CHANGED``: some location changed since it was read; the next round may see
  something new. It does not count against the bound (each such round needs
  another thread's step). Plain DPOR parks the thread for the rest of the run
  (:func:`park`: the run in which it reads the new value is a reversal of a
  race of its round); dpor-ag lets it go round again and leaves the round out
  of the run (DPOR's ghost rounds: the engine marks the round's last event). A round through a condition wait that returned
  does not count either (it needed a signal, or a spurious wake-up that saw a
  change).

An awaiting thread goes round again only when no thread can run and one of
its watched locations holds something other than what it read (:func:`wake`):
the reads of its futile round race with every later write to them, and the
reversals of those races are the runs in which it reads the new values, at
whatever point; rounds in between would only read what one of them reads.
In plain DPOR (the engine's ``park_futile``) it does not go round even then:
the run ends there, pruned, for the round it would run is one of those
reversals' (:func:`parked`). A
run in which no thread can run and an awaiting thread's values are unchanged
is *stuck*: a thread spins forever, reported like a deadlock. Sound for violations (every run is a real execution:
the rounds left out are repeats of one that was run) and for proofs (an
execution with more futile rounds ends in a state a run without them reaches).

Switchable as the optimisation ``awaits``; counted as ``await_blocks``,
``await_wakes``, ``await_free_rounds`` and ``spurious_suppressed``. (Ending
the run at a futile round while others can run, as Nidhugg's spin assumes do,
explored fewer runs in mode dpor but many more in dpor-ag, whose summaries a
run cut short vouches for nothing, and cannot tell two threads spinning on each
other are stuck.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from distaff.analysis import ir
from distaff.analysis.record import Record
from distaff.analysis.symex.state import BLOCKED, ENABLED, State
from distaff.analysis.symex.trace import lvalue
from distaff.analysis.symex.values import Val

if TYPE_CHECKING:
    from distaff.analysis.symex.engine import Engine

NO_ROUND: Final = 0  # no lap at the anchor, or one that changed something
UNCHANGED: Final = 1
CHANGED: Final = 2
WAITED: Final = 3  # futile, through a condition wait that returned

# built-ins a round may contain without changing anything but registers
# (locks and condition waits only where no try-lock can observe them)
NEUTRAL_OPS: Final = frozenset({ir.Op.ASSERT, ir.Op.ASSUME, ir.Op.ATOMIC_BEGIN, ir.Op.ATOMIC_END,
                                ir.Op.THREAD_SELF, ir.Op.FENCE})
LOCK_OPS: Final = frozenset({ir.Op.MUTEX_LOCK, ir.Op.MUTEX_UNLOCK, ir.Op.COND_WAIT})
# operations whose presence in a program makes a held lock observable
_OBSERVING: Final = frozenset({ir.Op.MUTEX_TRYLOCK})


@dataclass(frozen=True, slots=True, init=False)
class Lap(Record):
    """A round in progress: the thread passed the anchor (``frame`` uid,
    ``pc``) with ``regs`` in the registers live there and ``locks`` held,
    and has read ``reads`` ((object id, offset, size, value, C type), oldest first)
    since, changing nothing else. ``waited``: a condition wait returned in it.
    ``start``: the index of the event the thread was in when it passed the
    anchor (the round's visible steps are its events after that one)."""

    frame: int
    pc: int
    regs: tuple
    locks: tuple
    reads: tuple = ()
    waited: bool = False
    start: int = 0

    def __init__(self, frame: int, pc: int, regs: tuple, locks: tuple, reads: tuple = (),
                 waited: bool = False, start: int = 0) -> None:
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "pc", pc)
        object.__setattr__(self, "regs", regs)
        object.__setattr__(self, "locks", locks)
        object.__setattr__(self, "reads", reads)
        object.__setattr__(self, "waited", waited)
        object.__setattr__(self, "start", start)


def locks_observable(program: ir.Program) -> bool:
    """Whether a try-lock or a timed lock could see that a round held a lock."""
    for f in program.functions:
        for i in f.body:
            if type(i) is ir.Intrinsic and (i.op in _OBSERVING or (i.op is ir.Op.MUTEX_LOCK and ir.has_deadline(i))):
                return True
    return False


def same(a: Val, b: Val) -> bool:
    """The two values are the same (the same constant, or the same term)."""
    if a is b:
        return True
    if isinstance(a, int) or isinstance(b, int):
        return isinstance(a, int) and isinstance(b, int) and a == b
    return bool(a.eq(b))


def drop(st: State, tid: int) -> None:
    """The thread did something a round may not: it is no longer where it was."""
    if st.threads[tid].laps:
        st.wthread(tid).laps = ()


def note_read(st: State, tid: int, oid: int, off: int, size: int, value: Val, ctype: ir.CType) -> None:
    """The thread read ``value`` (of C type ``ctype``) from shared memory:
    every lap watches it."""
    t = st.wthread(tid)
    read = (oid, off, size, value, ctype)
    t.laps = tuple(Lap(lap.frame, lap.pc, lap.regs, lap.locks, lap.reads + (read,), lap.waited, lap.start) for lap in t.laps)


def note_wait(st: State, tid: int, pc: int) -> None:
    """The condition wait at ``pc`` of the thread's top frame returned: the
    rounds of the loops around it needed a signal (or a spurious wake-up that
    may see something new). The wait's own lap is not one of them."""
    t = st.wthread(tid)
    uid = t.frames[-1].uid
    t.laps = tuple(lap if (lap.frame == uid and lap.pc == pc) else
                   Lap(lap.frame, lap.pc, lap.regs, lap.locks, lap.reads, True, lap.start) for lap in t.laps)


def held(st: State, tid: int) -> tuple:
    """The mutexes ``tid`` holds, in address order."""
    return tuple(sorted(a for a, owner in st.locks.items() if owner == tid)) if st.locks else ()


def compare(st: State, reads: tuple) -> int:
    """``UNCHANGED`` when every location read still holds what was read,
    ``CHANGED`` when one holds another value (another thread wrote it: a
    round only ever stores what a location already holds), ``NO_ROUND``
    when that cannot be told without solving."""
    mem = st.memory
    kind = UNCHANGED
    for oid, off, size, value, _ in reads:
        now = mem.peek(oid, off, size)
        if now is None:
            return NO_ROUND
        if not same(now, value):
            kind = CHANGED
    return kind


def judge(E: Engine, st: State, tid: int, pc: int) -> tuple[int, tuple]:
    """The thread is at the anchor ``pc`` of its top frame: what the round
    since it last passed there was (``NO_ROUND``, ``UNCHANGED``, ``CHANGED``,
    ``WAITED``) and what it read. Changes nothing (an instruction forks
    before it changes the state: :func:`anchor` starts the next lap)."""
    lap = lap_at(st, tid, pc)
    if lap is None:
        return NO_ROUND, ()
    f = st.threads[tid].frames[-1]
    regs = tuple(f.regs.get(r) for r in E.live_at(f.func, pc))
    if lap.locks != held(st, tid) or len(lap.regs) != len(regs) or \
            not all(same(a, b) for a, b in zip(lap.regs, regs)):
        return NO_ROUND, ()
    return (WAITED if lap.waited else compare(st, lap.reads)), lap.reads


def wait_head(func: ir.Function, pc: int) -> int | None:
    """The loop head the condition wait at ``pc`` of ``func`` goes straight
    back to when it returns, through jumps only (``while (guard) wait(c, m);``),
    else None."""
    body = func.body
    nxt, seen = pc + 1, 0
    while nxt < len(body) and seen < len(body):
        i = body[nxt]
        if type(i) is not ir.Jump:
            return None
        if i.target <= pc:
            return i.target
        nxt, seen = i.target, seen + 1
    return None


def judge_guard(E: Engine, st: State, tid: int, pc: int) -> tuple[int, tuple]:
    """The thread calls the condition wait at ``pc`` of its top frame with no
    round of its own there to judge (:func:`judge` said ``NO_ROUND``: its first
    call since it came to the loop). When the wait returns straight to its
    loop's head (:func:`wait_head`, the return value not live there) and the
    round since the thread passed that head is ``UNCHANGED`` (the guard read
    what memory still holds, registers and locks as they were), a return now
    would only run that round again and come back here as it is:
    ``UNCHANGED`` with what the round read, as if the round after the return
    had been run. ``NO_ROUND`` otherwise."""
    f = st.threads[tid].frames[-1]
    key = (f.func.name, pc)
    heads = E.wait_heads
    if key in heads:
        head = heads[key]
    else:
        head = heads[key] = wait_head(f.func, pc)
        i = f.func.body[pc]
        if head is not None and type(i) is ir.Intrinsic and i.dst is not None and i.dst.name in E.live_at(f.func, head):
            head = heads[key] = None
    if head is None:
        return NO_ROUND, ()
    kind, reads = judge(E, st, tid, head)
    return (kind, reads) if kind == UNCHANGED else (NO_ROUND, ())


def anchor(E: Engine, st: State, tid: int, pc: int) -> None:
    """A new lap starts at ``pc`` of the thread's top frame (replacing the
    one there; a thread keeps a few anchors at once: a wait inside a loop)."""
    t = st.threads[tid]
    f = t.frames[-1]
    regs = tuple(f.regs.get(r) for r in E.live_at(f.func, pc))
    others = tuple(lap for lap in t.laps if lap.frame != f.uid or lap.pc != pc)[-2:]
    # (an event whose global operation is still to come is part of the round)
    start = st.event_count - 1 if st.event is None or not st.seen_global else st.event.index
    lap = Lap(f.uid, pc, regs, held(st, tid), (), False, start)
    st.wthread(tid).laps = others + (lap,)
    ev = st.event
    key = round_key(f.func.name, lap) if ev is not None else None
    if key is not None:
        if st.seen_global:
            ev.next_round = key
        else:
            ev.round_key = key


def round_key(func: str, lap: Lap) -> tuple | None:
    """What decides a one-event round of a loop of registers and shared
    memory (``ir.register_loop``) at ``lap``, with the values it reads: the
    loop head, the registers live there (when all are concrete) and the
    locks held, whichever thread runs it. None: not concrete."""
    if not all(r is None or type(r) is int for r in lap.regs):
        return None
    return (func, lap.pc, lap.regs, lap.locks)


def lap_at(st: State, tid: int, pc: int) -> Lap | None:
    """The thread's lap at ``pc`` of its top frame."""
    t = st.threads[tid]
    uid = t.frames[-1].uid
    for lap in t.laps:
        if lap.frame == uid and lap.pc == pc:
            return lap
    return None


def one_event(st: State, tid: int, lap: Lap) -> bool:
    """Was the round since ``lap`` one event of ``tid`` (the one in progress)?"""
    node = st.events
    while node is not None:
        ev, node = node
        if ev.index <= lap.start:
            return True
        if ev.tid == tid:
            return False
    return True


def block(E: Engine, st: State, tid: int, reads: tuple, span: ir.Span, text: str = "") -> None:
    """The thread awaits a change of what it read (its round was futile).
    ``text``: the trace's words for it, ``{}`` standing for what is watched."""
    w = st.wthread(tid)
    w.status = BLOCKED
    w.phase = "await"
    w.watch = reads
    names = watched_names(E, st, reads)
    w.waits_for = f"{names} to change" if names else "a change"
    st.awaiting += 1
    st.add_step(tid, span, text.format(names or "something") if text else
                f"spins: nothing changed since the last round; waits for {w.waits_for}")


def in_wait(t) -> bool:
    """An awaiting thread inside a condition wait (``sync``'s free waits),
    which re-acquires its mutex when it goes on, not a spinning one."""
    f = t.frames[-1] if t.frames else None
    if f is None or f.pc >= len(f.func.body):
        return False
    i = f.func.body[f.pc]
    return type(i) is ir.Intrinsic and i.op is ir.Op.COND_WAIT and t.phase_arg != 0


def watched_names(E: Engine, st: State, reads: tuple) -> str:
    """``flag`` and ``turn``: the locations an await watches, as C."""
    names: list[str] = []
    for oid, off, _, _, ctype in reads:
        name = f"`{lvalue(st, E.layout, E.layout.make(oid, off), ctype)}`"
        if name not in names:
            names.append(name)
    return " and ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def wake_waits(E: Engine, st: State) -> None:
    """Enable every thread awaiting in a condition wait (:func:`in_wait`)
    whose watched locations no longer hold what it read, as soon as one
    changed: its return, and so its re-acquisition of the mutex, may come at
    any point after the change. (Its futile round read under the mutex, so
    each write that changes what it read comes after those reads, not in a
    race with them that DPOR could reverse; the mutex's next holder may end
    the program before no thread can run.)"""
    for t in st.threads:
        if t.phase == "await" and t.status == BLOCKED and in_wait(t) and compare(st, t.watch) != UNCHANGED:
            _go_on(E, st, t)


def _go_on(E: Engine, st: State, t) -> None:
    """The awaiting thread ``t`` may run again: a spinning one goes round, one
    in a condition wait re-acquires its mutex."""
    w = st.wthread(t.tid)
    w.status = ENABLED
    w.phase = "cond" if in_wait(t) else None
    w.watch = ()
    w.waits_for = ""
    st.awaiting -= 1
    E.counters["await_wakes"] = E.counters.get("await_wakes", 0) + 1


PARKED: Final = "parked"  # the phase of a thread parked by park()


def park(E: Engine, st: State, tid: int) -> None:
    """Thread ``tid``'s round was futile though what it read changed
    (``CHANGED``: a compare-and-swap that failed because another thread wrote
    first). It runs no more in this run (the engine's ``park_futile``, for
    DPOR; counted as ``futile_parks``), and a run that ends with it parked
    ends as pruned, neither a deadlock nor a proof of anything after it: the
    run without the failed round is explored anyway. Its round's reads race
    with the write that made it fail, and the reversal of that race is the
    run in which the thread reads the new value and goes on; the others' steps
    after it, which this run still makes, race with those reads too, so
    every point at which it may read again is some reversal's (as a thread
    blocked at an await whose value another thread changed is in Nidhugg's
    and GenMC's await reduction). Going round again at once instead made a
    run for each point the round could have failed at, each then explored to
    its end: many times the runs of the traces themselves."""
    w = st.wthread(tid)
    w.status = BLOCKED
    w.phase = PARKED
    w.watch = ()
    w.waits_for = "nothing: its round failed, and the run in which it reads again is another"
    E.counters["futile_parks"] = E.counters.get("futile_parks", 0) + 1


def parked(E: Engine, st: State, waiting: list):
    """The first of the ``waiting`` threads (no thread can run) that
    :func:`park` parked, or, with the engine's ``park_futile``, that spins
    awaiting a change that came (:func:`wake` leaves it be): the run ends
    there, pruned (counted as ``futile_run_ends``). None if there is none."""
    for t in waiting:
        if t.phase == PARKED:
            return t
        if E.park_futile and t.phase == "await" and not in_wait(t) and compare(st, t.watch) != UNCHANGED:
            return t
    return None


def wake(E: Engine, st: State) -> bool:
    """No thread can run: enable every awaiting thread whose watched
    locations no longer hold what it read (True if one was). An awaiting
    thread goes round again only then: the reads of its futile round race with
    every later write to what it read, so the runs in which it read the new
    values at any point are the reversals of those races; waiting for the
    others to stop spares the rounds in between, which would read what some
    such run reads. With the engine's ``park_futile`` (plain DPOR) a spinning
    thread does not go round again even then: the run ends, pruned
    (:func:`parked`), for the round it would run is one of those reversals',
    whose runs go on from there (Nidhugg's await-blocked executions end so
    too); the runs in which nothing was left to wake are the complete ones,
    one per trace (Table 2's Szymanski: 46 complete, as Nidhugg's 46 traces,
    where 158 of the 161 runs went on to their ends). A thread awaiting in a
    condition wait is woken as before."""
    woke = False
    for t in st.threads:
        if t.phase == "await" and t.status == BLOCKED and compare(st, t.watch) != UNCHANGED:
            if E.park_futile and not in_wait(t):
                continue
            _go_on(E, st, t)
            woke = True
    return woke


__all__ = ["CHANGED", "Lap", "NO_ROUND", "PARKED", "UNCHANGED", "WAITED", "block", "park", "parked", "drop", "held", "in_wait", "locks_observable",
           "note_read", "note_wait", "judge", "judge_guard", "anchor", "lap_at", "one_event", "round_key", "same",
           "wait_head", "wake", "wake_waits", "compare"]
