"""Dynamic partial order reduction: mode ``dpor``.

Optimal DPOR with wakeup trees and sleep sets (Abdulla, Aronis, Jonsson,
Sagonas, POPL 2014), over the explorer's interleaving pivot points: at most
one complete run per Mazurkiewicz trace (equivalence class of runs that differ
only in the order of independent steps, :mod:`distaff.analysis.explore.dependence`).

How it sits on the explorer (:mod:`distaff.analysis.explore.reduction`):

* every scheduling point is a node (``pivot_on_single``), so each event of a
  run has the node it started at (``origin``);
* ``on_event`` appends the event with its vector clock (happens-before:
  program order, dependence, thread creation, and the wake-up of a thread
  blocked on a condition variable or barrier by the step that woke it), and
  looks for races with earlier events: for each, the reversing sequence
  ``notdep(e).e'`` goes into the wakeup tree of the node before ``e`` unless a
  thread asleep there, or a sequence already in the tree, covers it;
* ``next_choice`` at an interleaving node takes the next root child of its
  wakeup tree; a finished child's thread goes to sleep, with the footprints
  of the steps it took from there, and stays asleep in the nodes below until
  a dependent step is taken;
* branch pivots (local branches on symbolic data) are explored in full; the
  wakeup tree and sleep set of an interleaving node reach every branch of the
  step taken from it. Sleep sets remember every footprint a thread's step
  had across those branches, so a thread wakes when any of them conflicts.

Runs that end early (a run-time error, a cut, an infeasible assume, another
assertion failing, the process exiting) leave other threads' next steps
untaken: each enabled thread's pending step races with the last event, so it
is scheduled before that event in another run (its footprint is unknown, so
it counts as dependent with everything). The thread whose step ended the run
(an assumption that failed, an abort) sleeps at its node, if at all, as one
whose step is unknown: nothing after that step was explored, so it covers no
race below. A run in which every enabled thread is asleep (sleep-set blocked)
ends too: the sleeping threads are covered by their sleep, but a lock attempt
parked behind a holder is not, and its race with the holder's acquisition is
reversed as at any run's end (``blocked_races``).

Observers (mode ``rf``; after Aronis, Jonsson, Lang and
Sagonas, "Optimal dynamic partial order reduction with observers", TACAS
2018, and Nidhugg's implementation of it): two *blind* writes of a byte --
steps that write it and neither reads it, with no synchronization object in
common (:meth:`Dependence.blind_race`) -- are ordered only when a later read
of the run reads the second one (an *observer*): otherwise either order
leaves every read as it was, and the runs that differ only there are one
reads-from class. Whether a write is observed is known only once the run is
over, so with observers the races are found at the run's end
(``_observed_races``): each step's clock is rebuilt over the whole run
without the unobserved edges, and each race is reversed. The reversal of an
observed pair of writes ends with the first write and then the observer
(which now reads it), and every wakeup sequence gets its clocks from its own
steps (``_within``): a pair that only a read of the run outside the sequence
ordered is unordered in it, and a sleeping thread or a wakeup-tree branch
whose blind write precedes such a pair covers it (``weak_initial``). During
the run the clocks are DPOR's, and a sleeping thread wakes at any conflicting step, blind writes included: the
paper's sleep sets let such a writer sleep on until a read would tell the
orders apart, which reduces more. A run in which no step met another
thread's blind write has the same happens-before either way: its races are
the ones found online, and the pass at its end is skipped. Counted:
``rf_unobserved_pairs`` (pairs of blind writes a run left unordered, over all
runs), ``rf_runs_without_blind_writes``.

A store of what the memory holds already (an exchange that writes back the
1 a test-and-set lock holds, a flag set again) is a read for the dependence
(``silent_stores``, counted as such): either order of two of them, or of one
and a read, leaves every value as it was, and against a write that changes the
value it still conflicts as the read it is. In another order it may change
the value: then it is a write there, in that run's footprints.

Ghost rounds. A round of a loop that changed nothing though what it read
changed meanwhile -- a compare-and-swap that failed because another thread
wrote first -- is marked by the engine (``Event.ghost_from``,
:mod:`distaff.analysis.symex.awaits`). Taking it out of the run leaves a run
of the program that ends in the same state, so the round's steps become
ghosts (``Step.ghost``): later steps neither race with them nor are ordered
after them. Their own races with earlier steps were reversed when they were
logged (a round put before the write it read from may succeed there). Not
for a round that used a synchronization object beyond an atomic region.
The same switch covers *futile firsts*: the engine remembers the values a
one-event round of a loop read when it changed nothing (``futile``, keyed by
loop head, concrete live registers and locks held). A race whose
reversal would run such a round first where it would read exactly those
values -- a test-and-set's exchange before the release it read from -- is no
race, as an unlock and the next lock are none: the round is not enabled
there, so the scan goes on to the earlier step that does race (the exchange
that took the lock). Counted as ``dpor_futile_skipped``; not with observers.
(Ending the run at a ghost round, as Nidhugg's spin assumes end an
execution, loses traces here: the run after the round is a run without it,
and only its races reach some orders -- cas_counter_ok without twins reached
24 of the 90 orders of its six increments.) Parking instead (the engine's
``park_futile``, this reduction's and rf's, not dpor-ag's): the thread whose
round failed runs no more in this run, the others go on to their ends, and
the round's steps stay ordinary steps that race with the later writes. Every
order is then some race's reversal (cas_counter_ok without twins: all 90,
in 963 runs where going round again took 3,832), and a run that ends with a
thread parked is pruned, as Nidhugg's await-blocked executions are
(:func:`distaff.analysis.symex.awaits.park`).

Switchable (``Options.optimisations``): ``ghost_rounds``, ``silent_stores`` (off: every store
is a write), ``sleep_sets`` (off: a node still
never re-explores its own finished children), ``wakeup_trees`` (off: source
sets -- only the first initial of a reversing sequence is added),
``dpor_order`` (off: a node with a free choice takes its lowest thread),
``dpor_step_index`` (off: each event is compared with every earlier event of
the run, not only those sharing a conflict key, :mod:`distaff.analysis.explore.steplog`),
``footprint_memo`` (off: each event's footprint and conflict keys are made
afresh, :meth:`Dependence.footprint`), ``commuting_rmws`` (off: an atomic
add whose old value is unused is a read and a write like any other,
:mod:`distaff.analysis.symex.rmw`).
Counted:
``dpor_races``, ``dpor_inserted``, ``dpor_covered``, ``dpor_sleep_blocked``, ``ghost_rounds``, ``ghost_steps``,
``dpor_wakeup_skipped``, ``dpor_candidates`` (earlier events an event was compared with),
``footprint_hits``, ``dpor_order_holder`` (free choices that let a lock's
holder go on), ``dpor_order_futile`` (free choices that passed over a thread
whose next round could only fail), ``commuting_rmws`` (dependence checks two commuting updates
passed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from distaff.analysis import ir
from distaff.analysis.explore import vclock
from distaff.analysis.explore.dependence import Dependence, Footprint, moved_first, only_looks, silent_as_writes
from distaff.analysis.explore.reduction import Node, Reduction
from distaff.analysis.explore.steplog import StepLog
from distaff.analysis.explore.wakeup import WakeupNode, insert
from distaff.analysis.ir import Op, type_size
from distaff.analysis.record import Record
from distaff.analysis.symex.pivots import INTERLEAVE_PIVOT, Leaf, LeafKind
from distaff.analysis.symex.awaits import UNCHANGED, compare as awaits_compare, round_key as awaits_round_key
from distaff.analysis.symex.state import BLOCKED, ENABLED, Event, State


@dataclass(slots=True, init=False)
class Step(Record):
    """An event of the current run: thread ``tid``'s ``seq``-th (from 1),
    with its footprint, vector clock and the threads it woke for real.
    ``sclock`` is the clock through program order, thread creation, joins
    and barrier rounds only: what stays ordered whatever the schedule (not
    the wake-up by a signal: another schedule may have another signal wake
    the waiter)."""

    index: int
    tid: int
    seq: int
    fp: Footprint
    clock: tuple[int, ...] | None
    wakes: tuple = ()
    sclock: tuple[int, ...] = ()  # happens-before through edges no schedule can reverse
    ghost: bool = False  # in a round that changed nothing (see ghost rounds in the module docstring)
    next_round: tuple | None = None  # the thread's next step begins a loop round (Event.next_round)

    def __init__(self, index: int, tid: int, seq: int, fp: Footprint, clock: tuple[int, ...] | None,
                 wakes: tuple = (), sclock: tuple[int, ...] = (), ghost: bool = False,
                 next_round: tuple | None = None) -> None:
        self.index = index
        self.tid = tid
        self.seq = seq
        self.fp = fp
        self.clock = clock
        self.wakes = wakes
        self.sclock = sclock
        self.ghost = ghost
        self.next_round = next_round


# what a node has before on_pivot gives it its own (only ever read: a node is
# written to only after on_pivot gave it fresh ones)
_NO_SLEEP: Final[dict[int, list[Footprint] | None]] = {}
_NO_WUT: Final[list[WakeupNode]] = []
_NO_FIRST: Final[dict[int, list[Footprint]]] = {}


class DporNode:
    """What DPOR keeps at an interleaving node (its ``store``): the sleep set
    (thread -> the footprints of its steps explored from here, None when one
    was unknown) and the sleep set it came with, the wakeup tree, the thread
    being explored, the first footprint of each thread explored from here,
    and the wakeup subtree of the child being explored."""

    __slots__ = ("sleep", "sleep_in", "wut", "current", "first", "child_wut")

    def __init__(self) -> None:
        self.sleep: dict[int, list[Footprint] | None] = _NO_SLEEP
        self.sleep_in: dict[int, list[Footprint] | None] = _NO_SLEEP
        self.wut: list[WakeupNode] = _NO_WUT
        self.current: int | None = None
        self.first: dict[int, list[Footprint]] = _NO_FIRST
        self.child_wut: list[WakeupNode] = _NO_WUT


def dpor_node(node: Node) -> DporNode:
    """DPOR's record at ``node``: its store, which :meth:`Dpor.new_store` made."""
    st: DporNode = node.store
    return st


# the synchronization a ghost round may use: an atomic region (a compare-and-swap)
_REGION_OPS: Final = frozenset({"atomic_begin", "atomic_end"})
# leaves at which the run stops with the last step's thread: a failed
# assumption, a run-time error, another assertion failing (an abort)
_RUN_KILLERS: Final = frozenset({LeafKind.INFEASIBLE, LeafKind.ERROR, LeafKind.STOPPED})


def pending_step(tid: int, fp: Footprint | None = None) -> Step:
    """A thread's next step that the run did not take (footprint unknown
    unless given)."""
    return Step(-1, tid, 0, fp or Footprint.pending(tid), None)


_SYNC_NOTES = {
    Op.MUTEX_LOCK: ("mutex_lock",), Op.MUTEX_TRYLOCK: ("mutex_lock", "mutex_trylock"),
    Op.MUTEX_UNLOCK: ("mutex_unlock",), Op.COND_SIGNAL: ("cond_signal",),
    Op.COND_BROADCAST: ("cond_broadcast",), Op.BARRIER_WAIT: ("barrier_wait",),
    # a wait that takes one depends on every other operation on the semaphore
    Op.SEM_WAIT: ("sem_wait",), Op.SEM_TRYWAIT: ("sem_wait",), Op.SEM_POST: ("sem_post",),
    Op.RWLOCK_WRLOCK: ("rwlock_wrlock",), Op.RWLOCK_TRYWRLOCK: ("rwlock_wrlock",),
    Op.RWLOCK_UNLOCK: ("rwlock_wrunlock", "rwlock_rdunlock"),
}


def peek_footprint(E, st: State, tid: int, regions: dict) -> Footprint:
    """The footprint of ``tid``'s next step, read off its next instruction
    without running it when that is a global access or synchronization at an
    address known without forking (the rest of a step is thread-local);
    unknown otherwise. ``regions`` keeps what :func:`atomic_region` found
    per function and pc."""
    t = st.threads[tid]
    if not t.frames:
        return Footprint.pending(tid)
    f = t.frames[-1]
    if f.pc >= len(f.func.body):
        return Footprint.pending(tid)
    i = f.func.body[f.pc]
    if isinstance(i, (ir.Load, ir.Store)) and i.kind is ir.Kind.GLOBAL:
        a = E.peek(st, tid, i.addr)
        if a is None:
            return Footprint.pending(tid)
        acc = ((a, type_size(i.type)),)
        return Footprint(tid, reads=acc) if isinstance(i, ir.Load) else Footprint(tid, writes=acc)
    if isinstance(i, ir.Intrinsic) and i.op is Op.ATOMIC_BEGIN:
        key = (f.func.name, f.pc)
        if key not in regions:
            regions[key] = atomic_region(f.func.body, f.pc)
        return _atomic_footprint(E, st, tid, regions[key])
    if isinstance(i, ir.Intrinsic) and i.op is Op.THREAD_JOIN and _null_arg(i.args[1:]):
        h = E.peek(st, tid, i.args[0])
        return Footprint(tid, joins=(h,)) if h is not None else Footprint.pending(tid)
    if isinstance(i, ir.Return) and len(t.frames) == 1:
        if t.ends_process:
            return Footprint(tid, exit=True)
        if i.value is None or not ir.regs_of(i.value):
            return Footprint(tid, syncs=(("end", tid, False),))
    if isinstance(i, ir.Intrinsic) and i.op in _SYNC_NOTES and t.phase is None:
        a = E.peek(st, tid, i.args[0])
        if a is None:
            return Footprint.pending(tid)
        return Footprint(tid, syncs=tuple((op, a, False) for op in _SYNC_NOTES[i.op]))
    return Footprint.pending(tid)


# wakeup sequences longer than this keep the run's clocks (Dpor._within)
WITHIN_LIMIT: Final = 64


def _seen_within(steps: list) -> list:
    """For each of ``steps`` (in order), the bytes it wrote that a later one
    of them read from it (the newest write of the byte before the read), as
    byte -> the position of the first such read; from the first step whose
    footprint is unknown or whose address is not concrete on, None (every
    write counts as observed)."""
    last: dict[int, int] = {}  # byte -> position of its newest write
    seen: list = []
    blind = False
    for i, s in enumerate(steps):
        fp = s.fp
        if blind or fp.unknown or any(not isinstance(a, int) for a, _ in fp.reads + fp.writes):
            if not blind:  # the writes so far may be read by this step
                seen = [None] * len(seen)
            blind = True
            seen.append(None)
            continue
        seen.append({})
        for a, n in fp.reads:
            for b in range(a, a + n):
                w = last.get(b)
                if w is not None and b not in seen[w]:
                    seen[w][b] = s.index
        for a, n in fp.writes:
            for b in range(a, a + n):
                last[b] = i
    return seen


def _wrote_seen(fp: Footprint, seen: dict) -> bool:
    """Did a step of footprint ``fp`` write one of the bytes ``seen``?"""
    for a, n in fp.writes:
        if not isinstance(a, int) or any(b in seen for b in range(a, a + n)):
            return True
    return False


def _first_reader(fp: Footprint, seen: dict[int, int]) -> int:
    """The index of the first read of one of ``fp``'s bytes among ``seen``
    (a later write's observed bytes); -1 when none."""
    first: int = -1
    for a, n in fp.writes:
        if not isinstance(a, int):
            return min(seen.values(), default=-1)
        for b in range(a, a + n):
            r: int = seen.get(b, -1)
            if r >= 0 and (first < 0 or r < first):
                first = r
    return first


def _null_arg(args) -> bool:
    """No argument, or a null constant (a join that stores no result)."""
    if not args:
        return True
    e = args[0]
    while isinstance(e, ir.Cast):
        e = e.arg
    return isinstance(e, ir.Const) and e.value == 0


def _holds_one_of(state: State, memo: list) -> bool:
    """Does ``state``'s memory hold what one of ``memo``'s sets of reads read?"""
    return any(awaits_compare(state, reads) == UNCHANGED for reads in memo)


def _holds_lock(st: State, tid: int) -> bool:
    """Does ``tid`` hold a mutex, or a read or write lock of an rwlock?"""
    for owner in st.locks.values():
        if owner == tid:
            return True
    for writer, readers in st.rwlocks.values():
        if writer == tid or tid in readers:
            return True
    return False


def _waits_for_others(st: State, tid: int) -> bool:
    """Is ``tid``'s next step a join or the end of the process? Such steps are
    taken last when a node may choose freely, so that runs differing only in
    when the joiner got through line up in the same control states."""
    t = st.threads[tid]
    if not t.frames:
        return False
    f = t.frames[-1]
    if f.pc >= len(f.func.body):
        return t.ends_process and len(t.frames) == 1
    i = f.func.body[f.pc]
    if isinstance(i, ir.Intrinsic):
        return i.op in (Op.THREAD_JOIN, Op.EXIT, Op.ABORT)
    return isinstance(i, ir.Return) and t.ends_process and len(t.frames) == 1


def atomic_region(body, start: int) -> tuple | None:
    """The accesses ``(is_load, address expression, size)`` of the atomic
    region starting at ``start`` when each address is fixed before the
    region (no calls, no synchronization, no jumps out, no address computed
    inside it); None otherwise. Static: the same for every state."""
    depth, pc = 0, start
    written: set[str] = set()
    out = []
    while pc < len(body) and pc - start < 200:
        i = body[pc]
        if isinstance(i, ir.Intrinsic):
            if i.op is Op.ATOMIC_BEGIN:
                depth += 1
            elif i.op is Op.ATOMIC_END:
                depth -= 1
                if depth == 0:
                    return tuple(out)
            elif i.op not in (Op.NONDET, Op.ASSUME, Op.ASSERT):
                return None
        elif isinstance(i, ir.Call) or isinstance(i, ir.Return):
            return None
        elif isinstance(i, (ir.Jump, ir.Branch)):
            targets = (i.target,) if isinstance(i, ir.Jump) else (i.then, i.other)
            if any(x <= start or x >= len(body) for x in targets):
                return None
        elif isinstance(i, (ir.Load, ir.Store)):
            if ir.regs_of(i.addr) & written:
                return None
            out.append((isinstance(i, ir.Load), i.addr, type_size(i.type)))
        dst = getattr(i, "dst", None)
        if dst is not None:
            written.add(dst.name)
        pc += 1
    return None


def _atomic_footprint(E, st: State, tid: int, region: tuple | None) -> Footprint:
    """The footprint of an atomic region (:func:`atomic_region`) when every
    address is known without forking; unknown otherwise."""
    if region is None:
        return Footprint.pending(tid)
    reads, writes = [], []
    for is_load, addr, size in region:
        a = E.peek(st, tid, addr)
        if a is None:
            return Footprint.pending(tid)
        (reads if is_load else writes).append((a, size))
    return Footprint(tid, reads=tuple(reads), writes=tuple(writes), syncs=(("atomic_begin", tid, False),))


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed outside the compiled core
class Dpor(Reduction):
    """See the module docstring."""

    name = "dpor"
    pivot_on_single = True
    record_effects = False
    silent_stores = True
    ghost_rounds = True
    park_futile = True

    def __init__(self, program=None, options=None, site=None, observers: bool = False) -> None:
        self.program = program
        self.observers = observers
        # with observers, per step of the run: did it meet a blind write of
        # another thread, and the races DPOR's online pass found for it
        self.blind_at: list[bool] = []
        self.found: list[list[int]] = []
        self.fresh = 0  # the first step of the run not yet looked at for races
        self.blind_run = False  # the run that ended had a blind pair: _observed_races
        self.options = options
        self.site = site
        on = options.enabled if options is not None else (lambda name: True)
        self.use_sleep = on("sleep_sets")
        self.use_wakeup = on("wakeup_trees")
        self.use_order = on("dpor_order")
        self.use_index = on("dpor_step_index")
        self.use_memo = on("footprint_memo")
        self.use_ghosts = on("ghost_rounds")
        self.steps = StepLog(lambda fp: None)  # keyed once the layout is known (start)
        self.origin: list[Node] = []
        self.pending: tuple | None = None  # (event index, sleep, wakeup subtree) for the next node
        self._regions: dict = {}  # (function, pc) -> its atomic_region
        self.n: dict[str, int] = {}

    def start(self, explorer) -> None:
        super().start(explorer)
        E = explorer.engine
        self.layout = E.layout
        self.values = E.values
        self.dep = Dependence(E.layout, E.values, self.use_memo)
        self.steps = StepLog(self.dep.conflict_keys)

    def new_store(self) -> DporNode:
        return DporNode()

    def count(self, name: str, k: int = 1) -> None:
        self.n[name] = self.n.get(name, 0) + k

    def counters(self) -> dict[str, int]:
        out = dict(self.n)
        if hasattr(self, "dep"):
            out["dpor_dependence_checks"] = self.dep.checks
            if self.dep.hits:
                out["footprint_hits"] = self.dep.hits
            if self.dep.commuted:
                out["commuting_rmws"] = self.dep.commuted
        return out

    # ------------------------------------------------------------------ the run

    def _cut(self, k: int) -> None:
        """Keep the run's first ``k`` steps."""
        self.steps.truncate(k)
        if self.observers:
            del self.blind_at[k:]
            del self.found[k:]
            if k < self.fresh:
                self.fresh = k

    def _truncate(self, k: int) -> None:
        self._cut(k)
        del self.origin[k + 1:]
        self.pending = None

    def on_pivot(self, node: Node) -> list[int]:
        if node.kind is not INTERLEAVE_PIVOT:
            return list(node.options)
        k = node.event_index
        self._cut(k)
        del self.origin[k:]
        self.origin.append(node)
        sleep, wut = {}, []
        if self.pending is not None and self.pending[0] == k:
            sleep, wut = self.pending[1], self.pending[2]
        self.pending = None
        st = dpor_node(node)
        st.sleep = sleep
        st.sleep_in = dict(sleep)
        st.wut = wut
        st.current = None
        st.first = {}
        st.child_wut = []
        if not wut:
            p = self._first_choice(node, sleep)
            if p is None:
                self.count("dpor_sleep_blocked")
                return []
            wut.append(WakeupNode(p))
        return list(node.options)

    def _first_choice(self, node: Node, sleep: dict) -> int | None:
        """The thread a node explores first when nothing asks for a particular
        one: any order is correct; this one passes over a thread whose next
        step is a round of its loop known to change nothing with the values
        memory holds now (:meth:`_futile_next`: a test-and-set on a held
        lock, which would only fail and await -- one more run of a trace
        run without the attempt, as a blocked lock attempt is; counted as
        ``dpor_order_futile``), finishes a race before starting
        others (a thread whose next step conflicts with the last step), else
        lets the thread of the last step go on while it holds a lock (another
        thread would only try that lock and block: a blocked attempt is a
        step, and the run with it is one more run of a trace already run
        without it; counted as ``dpor_order_holder``), and leaves joins and
        the end of the process for last, so that different runs meet in the
        same control states more often (``dpor_order``)."""
        awake = [o.payload for _, o in node.pivot.options if o.payload not in sleep]
        if not awake:
            return None
        if not self.use_order or len(awake) == 1:  # (one thread: nothing to order)
            return awake[0]
        free = [t for t in awake if not _waits_for_others(node.state, t)] or awake
        if self.use_ghosts and len(free) > 1:
            hopeful = [t for t in free if not self._futile_next(node.state, t)]
            if hopeful and len(hopeful) < len(free):
                self.count("dpor_order_futile")
                free = hopeful
        if self.steps:
            last = self.steps[-1]
            E = self.explorer.engine
            for t in free:
                if t != last.tid and t not in last.fp.creates:
                    fp = peek_footprint(E, node.state, t, self._regions)
                    if not fp.unknown and self.dep.dependent(last.fp, fp):
                        return t
            if last.tid in free and _holds_lock(node.state, last.tid):
                self.count("dpor_order_holder")
                return last.tid
        return free[0]

    def _futile_next(self, state: State, tid: int) -> bool:
        """Would thread ``tid``'s next step be a one-event round of its loop
        (it is at the loop's head, nothing read since) that reads what such
        a round read when it changed nothing (the engine's ``futile``, as for
        futile firsts)? It would only await there."""
        t = state.threads[tid]
        if not t.laps or not t.frames:
            return False
        f = t.frames[-1]
        lap = t.laps[-1]
        if lap.frame != f.uid or lap.reads:
            return False
        key = awaits_round_key(f.func.name, lap)
        memo = self.explorer.engine.futile.get(key) if key is not None else None
        if not memo:
            return False
        return _holds_one_of(state, memo)

    def next_choice(self, node: Node) -> int | None:
        self._truncate(node.event_index)
        if node.kind is not INTERLEAVE_PIVOT:
            return super().next_choice(node)
        st = dpor_node(node)
        cur = st.current
        if cur is not None:
            fps = st.first.get(cur)
            st.sleep[cur] = fps if fps and not any(f.unknown for f in fps) else None
            wut = st.wut
            for i, child in enumerate(wut):
                if child.tid == cur:
                    del wut[i]
                    break
            st.current = None
        wut = st.wut
        while wut:
            child = wut[0]
            idx = node.option_for_thread(child.tid)
            if idx is None or child.tid in st.sleep:
                self.count("dpor_wakeup_skipped")
                wut.pop(0)
                continue
            st.current = child.tid
            st.child_wut = child.children
            return idx
        return None

    def may_choose(self, node: Node) -> bool:
        if node.kind is not INTERLEAVE_PIVOT:
            return super().may_choose(node)
        # a wakeup-tree child besides the one being explored
        st = dpor_node(node)
        cur = st.current
        return any(c.tid != cur for c in st.wut)

    def near(self, fp: Footprint, k: int) -> list[int]:
        """Ascending indices of the steps before the ``k``-th that may be
        dependent with a step of footprint ``fp`` (all of them without the
        step index, ``dpor_step_index``)."""
        if not self.use_index:
            return list(range(k))
        near = self.steps.candidates(fp)
        return near if len(self.steps) <= k else [j for j in near if j < k]

    def on_event(self, event: Event, state: State) -> None:
        k = event.index
        steps = self.steps
        if k != len(steps):
            self._cut(k)
        if k >= len(self.origin):
            return  # no node before this event (cannot happen with pivot_on_single)
        N = self.origin[k]
        tid = event.tid
        fp = self.dep.footprint(event, state.ended)
        last = steps.last_of(tid)
        base: tuple[int, ...] = ()
        sbase: tuple[int, ...] = ()
        seq = 1
        # (a logged step always has a clock; only a pending one has none)
        if last is not None:
            base, sbase, seq = last.clock or (), last.sclock, last.seq + 1
        else:  # the thread's first event: its creation comes first
            s = steps.creator(tid)
            if s is not None:
                base, sbase = s.clock or (), s.sclock
        woke = steps.woke(tid)
        if woke:
            start = last.index + 1 if last is not None else 0
            for j in woke:
                if j < start:
                    continue
                s = steps.items[j]
                base = vclock.join(base, s.clock)
                if last is None or any(op == "barrier_wait" for op, _, _ in s.fp.syncs):
                    # which signal woke a condition waiter depends on the
                    # schedule; that a barrier round ended first, or that a
                    # twin started first (a thread's first step), does not
                    sbase = vclock.join(sbase, s.sclock)
        dep = self.dep
        clock, sclock = base, sbase
        round_key = None
        if self.use_ghosts:
            round_key = event.round_key if event.round_key is not None else \
                (last.next_round if last is not None else None)
        futile = self.explorer.engine.futile.get(round_key) if round_key is not None and not self.observers \
            else None
        # only steps sharing a conflict key with ``fp`` can be dependent with it
        near = self.near(fp, k)
        n = self.n
        n["dpor_candidates"] = n.get("dpor_candidates", 0) + len(near)
        items = steps.items
        joins = fp.joins
        width = len(clock)
        # the clock and the races in one pass, newest first: the newest
        # dependent step of a thread (a lock's last holder, a joined thread's
        # end) covers its older ones, which then cost a comparison instead of
        # a join. ``acc``: an event it covers happens before the new one, so
        # its clock is already in ``acc``: nothing to reverse, nothing to join
        acc = base
        acc_width = width
        racing = []
        observers = self.observers
        blind = False
        for j in reversed(near):
            s = items[j]
            t = s.tid
            if t == tid or s.ghost:
                continue
            if joins and t in joins:
                sclock = vclock.join(sclock, s.sclock)
            q = s.seq
            # a step that only looked (a blocked attempt) orders nothing
            # after it: through it, a write before the attempt would seem to
            # happen before the unlock that lets the attempt through, and
            # every later read of the unlocking thread, hiding their race
            if (t >= width or clock[t] < q) and dep.dependent(s.fp, fp) and not only_looks(s.fp):
                clock = vclock.join(clock, s.clock)
                width = len(clock)
                if observers and not blind:
                    blind = dep.blind_race(s.fp, fp)
            if (t >= acc_width or acc[t] < q) and dep.race(s.fp, fp):
                if futile and self._futile_first(j, k, fp, futile):
                    # not enabled before s: like an unlock and the next
                    # lock, the race that matters is with an earlier step
                    self.count("dpor_futile_skipped")
                    continue
                racing.append(j)
                acc = vclock.join(acc, s.clock)
                acc_width = len(acc)
                if observers and not blind:
                    blind = dep.blind_race(s.fp, fp)
        wakes = self._wakes(N.state, state, fp)
        if wakes and any(op == "barrier_wait" and not b for op, _, b in fp.syncs):
            # the last arrival at a barrier comes after every other arrival,
            # in whatever order they arrived
            for s in reversed(steps.items):
                if s.tid in wakes:
                    sclock = vclock.join(sclock, s.sclock)
        clock = vclock.tick(clock, tid, seq)
        sclock = vclock.tick(sclock, tid, seq)
        step = Step(k, tid, seq, fp, clock, wakes, sclock)
        if self.use_ghosts:
            step.next_round = event.next_round
        steps.append(step)
        if event.ghost_from >= 0 and self.use_ghosts:
            self._ghost(tid, event.ghost_from)
        if observers:  # the run's end reverses them, or finds them again (on_run_end)
            self.found.append(racing)
            self.blind_at.append(blind)
        else:
            for j in racing:
                self._reverse(j, step)
        st = dpor_node(N)
        first = st.first
        if tid in first:
            first[tid].append(fp)
        else:
            first[tid] = [fp]
        sleep = {}
        if self.use_sleep and st.sleep:
            for q, fps in st.sleep.items():
                if q != tid and fps is not None and not any(dep.dependent(f, fp) for f in fps):
                    sleep[q] = fps
        self.pending = (k + 1, sleep, list(st.child_wut))  # shared below: insert copies

    def _ghost(self, tid: int, start: int) -> None:
        """Thread ``tid``'s events after the ``start``-th, up to the one just
        logged, were a round that changed nothing: later events neither race
        with them nor are ordered after them. Not when one of them used a
        synchronization object (beyond an atomic region)."""
        items = self.steps.items
        round_ = []
        for s in reversed(items):
            if s.index <= start:
                break
            if s.tid != tid:
                continue
            fp = s.fp
            # (a store is a write here only where silent stores are off)
            if fp.writes or fp.creates or fp.joins or fp.exit or fp.unknown or \
                    any(op not in _REGION_OPS for op, _, _ in fp.syncs):
                return
            round_.append(s)
        for s in round_:
            s.ghost = True
        if round_:
            self.count("ghost_rounds")
            self.count("ghost_steps", len(round_))

    def _wakes(self, before: State, after: State, fp: Footprint) -> tuple:
        """Threads blocked before the event and enabled after it, woken by a
        signal, a barrier or a thread's end (not by an unlock: a thread waiting
        for a mutex only waits to be scheduled again)."""
        woken = [t.tid for t in before.threads if t.status == BLOCKED and t.tid < len(after.threads)
                 and after.threads[t.tid].status == ENABLED]
        if not woken:
            return ()
        unlocked = {o for op, o, _ in fp.syncs if op == "mutex_unlock"}
        queues = {t: a for a, t in before.wq}
        return tuple(t for t in woken if queues.get(t) not in unlocked)

    # ------------------------------------------------------------------ races

    def _reverse(self, j: int, later: Step, witness: int = -1) -> None:
        """The events ``steps[j]`` and ``later`` race: schedule ``later``
        (and what it needs that does not need ``steps[j]``) first, at the
        node before ``steps[j]``. With a ``witness`` (two blind writes, the
        step that read ``later``'s write): ``later``, then ``steps[j]``, then
        what the witness needs after it, then the witness, which now reads
        ``steps[j]``'s write -- the order the reversal is about, spelled out
        (Nidhugg's wakeup sequence for an observed race)."""
        self.count("dpor_races")
        e = self.steps[j]
        v = [s for s in self.steps[j + 1:later.index] if not vclock.covers(s.clock, e.tid, e.seq)]
        if witness < 0:
            # the steps before ``later`` see what they saw; ``later`` may not
            v.append(Step(later.index, later.tid, later.seq, moved_first(later.fp), later.clock))
        else:
            w = self.steps[witness]
            taken = {s.index for s in v}
            v += [Step(later.index, later.tid, later.seq, moved_first(later.fp), later.clock, later.wakes, later.sclock), e]
            v += [s for s in self.steps[j + 1:witness]
                  if s.index != later.index and s.index not in taken and vclock.covers(w.clock, s.tid, s.seq)]
            v.append(w)
        if self.blind_run:
            v = self._within(v)
        self.insert_at(self.origin[j], v)

    def _futile_first(self, j: int, k: int, fp: Footprint, memo: list) -> bool:
        """Would the ``k``-th step (footprint ``fp``), run first at the node
        before step ``j`` (after the steps between them that do not happen
        after it), be a one-event round of its loop that reads what such a
        round read that changed nothing (``memo``, from the engine's
        ``futile``)? Then the thread's round is not enabled there (as a lock
        attempt is not while the lock is held): reversing the race leads only
        to an await, and the runs after it are runs without the round."""
        dep = self.dep
        items = self.steps.items
        e = items[j]
        for s in items[j + 1:k]:
            if not vclock.covers(s.clock, e.tid, e.seq) and (dep.dependent(s.fp, fp) or s.fp.unknown or any(
                    dep.overlap(a, n, self.layout.make(oid, off), size)
                    for a, n in s.fp.writes for reads in memo for oid, off, size, _, _ in reads)):
                return False
        return _holds_one_of(self.origin[j].state, memo)

    def insert_at(self, node: Node, v: list) -> bool:
        """Make ``node`` explore ``v`` unless something explored or to be
        explored from it already covers it."""
        st = dpor_node(node)
        for q, fps in st.sleep.items():
            if self.weak_initial(q, fps, v):
                self.count("dpor_covered")
                return False
        if st.current is not None and st.current == v[0].tid and len(v) == 1 and v[0].fp.unknown:
            self.count("dpor_covered")
            return False
        if self.use_wakeup:
            grew = insert(st.wut, v, self._weak_initial_in_tree)
        else:
            grew = False
            if not any(self.initial(c.tid, v) for c in st.wut):
                st.wut.append(WakeupNode(v[0].tid, v[0].fp))
                grew = True
        self.count("dpor_inserted" if grew else "dpor_covered")
        return grew

    def _weak_initial_in_tree(self, tid: int, fps, rest: list) -> bool:
        """:meth:`weak_initial` for a node of a wakeup tree, whose footprint
        was taken in another run (or in another order of the steps before
        it): a store that wrote what memory held there may write here."""
        return self.weak_initial(tid, None if fps is None else [silent_as_writes(f) for f in fps], rest)

    def initial(self, tid: int, rest: list) -> bool:
        """Is the first step of ``tid`` in ``rest`` preceded by none of them?"""
        first = None
        for s in rest:
            if s.tid == tid:
                first = s
                break
        if first is None:
            return False
        for s in rest:
            if s is first:
                return True
            if first.clock is None or vclock.covers(first.clock, s.tid, s.seq):
                return False
        return True

    def weak_initial(self, tid: int, fps, rest: list) -> bool:
        """May a run from here that starts with ``tid`` (whose next step has
        one of the footprints ``fps``) cover ``rest``?"""
        if any(s.tid == tid for s in rest):
            return self.initial(tid, rest)
        if not fps:
            return False
        dep = self.dep
        if not self.observers:
            return not any(dep.dependent(f, s.fp) for f in fps for s in rest)
        # with observers, a write of ``rest`` that nothing in ``rest`` reads
        # afterwards commutes with a blind write of the same bytes
        seen = None
        for i, s in enumerate(rest):
            for f in fps:
                if not dep.dependent(f, s.fp):
                    continue
                if dep.blind_race(f, s.fp):
                    if seen is None:
                        seen = _seen_within(rest)
                    if seen[i] is not None and not _wrote_seen(s.fp, seen[i]):
                        continue
                return False
        return True

    # ------------------------------------------------------------------ observers

    def _observations(self) -> list | None:
        """:func:`_seen_within` the whole run; None when it cannot tell."""
        seen = _seen_within(self.steps.items)
        return None if any(x is None for x in seen) else seen

    def _within(self, v: list) -> list:
        """``v`` with its clocks rebuilt over ``v`` alone: what a wakeup
        sequence orders is what its own steps observe (a pair of writes a
        read of the run ordered may be unordered in ``v``). Past
        ``WITHIN_LIMIT`` steps, the run's clocks stay (they order more)."""
        if len(v) > WITHIN_LIMIT:
            return v
        seen = _seen_within(v)
        dep = self.dep
        out: list[Step] = []
        for i, s in enumerate(v):
            clock: tuple[int, ...] = ()
            for p in out:
                if p.tid == s.tid or s.tid in p.wakes:
                    clock = vclock.join(clock, p.clock)
                    continue
                if only_looks(p.fp) or not dep.dependent(p.fp, s.fp):
                    continue
                if seen[i] is not None and dep.blind_race(p.fp, s.fp) and not _wrote_seen(p.fp, seen[i]):
                    continue
                clock = vclock.join(clock, p.clock)
            out.append(Step(s.index, s.tid, s.seq, s.fp, vclock.tick(clock, s.tid, s.seq), s.wakes, s.sclock))
        return out

    def _observed_races(self) -> None:
        """Happens-before and races of the finished run, with observers: two
        blind writes of a byte (:meth:`Dependence.blind_race`) are ordered
        only when a read saw the later one -- otherwise either order leaves
        every read of the run as it was. Each step's clock is rebuilt over
        the whole run (an observation can come long after the writes), and
        each race is reversed as ``on_event`` does without observers."""
        seen = self._observations()
        items = self.steps.items
        steps = self.steps
        dep = self.dep
        races: list[tuple[int, Step, int]] = []
        last_of: dict[int, Step] = {}
        unobserved = 0
        for k, step in enumerate(items):
            fp = step.fp
            tid = step.tid
            base: tuple[int, ...] = ()
            last = last_of.get(tid)
            if last is not None:
                base = last.clock or ()
            else:
                c = steps.creator(tid)
                if c is not None:
                    base = c.clock or ()
            woke = steps.woke(tid)
            if woke:
                start = last.index + 1 if last is not None else 0
                for j in woke:
                    if start <= j < k:
                        base = vclock.join(base, items[j].clock)
            clock = base
            width = len(clock)
            acc = base
            acc_width = width
            for j in reversed(self.near(fp, k)):
                s = items[j]
                t = s.tid
                if t == tid or s.ghost:
                    continue
                witness = -1
                if seen is not None and dep.blind_race(s.fp, fp):
                    witness = _first_reader(s.fp, seen[k])
                    if witness < 0:
                        unobserved += 1
                        continue  # unobserved: no edge, no race
                q = s.seq
                if (t >= width or clock[t] < q) and dep.dependent(s.fp, fp) and not only_looks(s.fp):
                    clock = vclock.join(clock, s.clock)
                    width = len(clock)
                if (t >= acc_width or acc[t] < q) and dep.race(s.fp, fp):
                    races.append((j, step, witness))
                    acc = vclock.join(acc, s.clock)
                    acc_width = len(acc)
            step.clock = vclock.tick(clock, tid, step.seq)
            last_of[tid] = step
        if unobserved:
            self.count("rf_unobserved_pairs", unobserved)
        for j, later, witness in races:
            self._reverse(j, later, witness)

    # ------------------------------------------------------------------ leaves

    def on_run_end(self, leaf: Leaf, state: State) -> None:
        if self.observers and self.steps:
            # a run with no blind pair of writes has the same happens-before
            # with observers as without: the races found online stand
            self.blind_run = any(self.blind_at)
            if self.blind_run:
                self._observed_races()
            else:
                self.count("rf_runs_without_blind_writes")
                items = self.steps.items
                for k in range(self.fresh, len(items)):
                    for j in self.found[k]:
                        self._reverse(j, items[k])
            self.fresh = len(self.steps)
        if leaf.kind is LeafKind.PRUNED and self.steps:
            # every enabled thread asleep: the run's steps are real, and a
            # lock attempt parked behind a holder still races with the holder's
            # acquisition (the sleeping threads are covered, the parked ones
            # are not: tests/differential/regressions/rf_sleep_blocked_attempt.c)
            self.blocked_races(state)
            return
        if leaf.kind is LeafKind.VIOLATION or not self.steps:
            return
        if leaf.kind in _RUN_KILLERS:
            self.killed(self.steps[-1])
        self.blocked_races(state)
        if leaf.kind is not LeafKind.DEADLOCK:
            self.pending_races(state)

    def killed(self, last: Step) -> None:
        """The run ended at ``last`` (an assumption that failed, an abort):
        nothing after that step was explored, so its thread may not sleep at
        its node with the step's footprint -- a sleeping thread stands for the
        runs that start with its step and go on, and would cover the reversals
        of races below it that no run explored (a sleeping thread whose
        footprint is unknown covers nothing)."""
        st = dpor_node(self.origin[last.index])
        fps = st.first.get(last.tid)
        if fps is not None:
            fps.append(Footprint.pending(last.tid))

    def blocked_attempts(self, state: State) -> list[Footprint]:
        """The lock attempts of threads parked on a held mutex when the run
        ended: the engine parks them without running the attempt, so the
        attempt never became an event."""
        out = []
        E = self.explorer.engine
        for t in state.threads:
            if t.status != BLOCKED or not t.frames or t.phase == "await":  # an await attempts nothing
                continue
            f = t.frames[-1]
            i = f.func.body[f.pc] if f.pc < len(f.func.body) else None
            a = None
            if isinstance(i, ir.Intrinsic) and i.op is Op.COND_WAIT and t.phase == "cond":
                a = t.phase_arg
            elif isinstance(i, ir.Intrinsic) and i.op is Op.MUTEX_LOCK:
                a = E.peek(state, t.tid, i.args[0])
            if isinstance(a, int):
                out.append(Footprint(t.tid, syncs=(("mutex_lock", a, True),)))
        return out

    def blocked_races(self, state: State) -> None:
        """Each parked lock attempt races with the acquisitions of its mutex
        that do not happen before it: in another run it comes first."""
        for fp in self.blocked_attempts(state):
            q = fp.tid
            (_, mutex, _), = fp.syncs
            acc = next((s.clock for s in reversed(self.steps) if s.tid == q), ())
            later = Step(len(self.steps), q, 0, fp, None)
            for s in reversed(self.steps):
                # only an operation on the same mutex can swap with a parked
                # attempt: a step racing with everything (a failing assertion)
                # must neither be reversed here nor hide the real acquisition
                if s.tid == q or not any(o == mutex for _, o, _ in s.fp.syncs):
                    continue
                if not self.dep.race(s.fp, fp):
                    continue
                if not vclock.covers(acc, s.tid, s.seq):
                    self._reverse(s.index, later)
                acc = vclock.join(acc, s.clock)

    def pending_races(self, state: State) -> None:
        """The run ended with threads still able to run: their next steps
        race with the run's last event."""
        last = self.steps[-1]
        N = self.origin[last.index]
        for i in N.options:
            q = N.thread_of(i)
            if q == last.tid or q >= len(state.threads):
                continue
            if state.threads[q].status != ENABLED:
                continue
            # the event that ended the run disabled every other thread: each
            # one's next step races with it, whatever that step touches (the
            # step may lead to others that do conflict with the run's events)
            self.count("dpor_races")
            self.insert_at(N, [pending_step(q)])
