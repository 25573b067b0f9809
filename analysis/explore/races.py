"""Data-race warnings: unordered conflicting accesses on an explored run.

Contract (``Options.report_races``; off, nothing here runs and the engine
records accesses exactly as before):

* A *data race* is a pair of memory accesses of one run by different threads
  whose byte ranges overlap, at least one a write, neither inside an atomic
  region (``__VERIFIER_atomic_*`` functions, ``atomic_begin``/``end``, the
  lowered ``__sync_*``/``__atomic_*`` builtins), and not ordered by
  happens-before of *synchronization only* -- unlike DPOR's relation
  (:mod:`distaff.analysis.explore.dependence`), data dependences order nothing here.
* Happens-before is computed with vector clocks (:mod:`distaff.analysis.explore.vclock`)
  over the run's events, each event one tick of its thread: create -> the
  child's first step; the child's end -> the join that returns; unlock (and
  the unlock inside ``cond_wait``) -> every later lock of that mutex;
  signal/broadcast on ``c`` -> the return of a wait on ``c`` begun before it
  (every such signal, since which one woke the waiter is not recorded: this
  may hide a race when several waiters share a condition variable and the
  signalling thread holds no mutex); barrier: every arrival -> every
  departure of that round; ``sem_post`` -> every later ``sem_wait`` that takes
  from that semaphore (a post may not be the one a wait took: this may hide a
  race, as for signals); a write unlock of a rwlock -> every later lock of
  it, a read unlock -> every later write lock (readers order nothing between
  themselves). Atomic regions order like C11 sequentially
  consistent atomics: a region that writes a location releases to every later
  region that reads it (message passing through an atomic flag is not a race).
* Detection runs when a run ends (any leaf: its prefix really executes),
  over the whole run, so every racing pair of the run is found, not only
  adjacent ones. Concrete addresses overlap when their byte ranges meet;
  when either is symbolic the solver must show they can overlap under the
  path condition of the second access (an unknown answer reports nothing).
  Runs of a depth-first search share prefixes: the detector keeps its state
  for the events of the last run with an undo trail, and a run is scanned
  from where it leaves the last one (optimisation ``race_prefix_reuse``,
  counted as ``races_events_reused``; off, every run is scanned from its
  start).
  Each pair of statements (the two spans, unordered) is reported once per
  exploration as a :class:`~distaff.analysis.report.Finding` of kind DATA_RACE at
  the second access. Which run shows a pair first differs between modes, so
  a run showing the two statements in source order is preferred: one showing
  them the other way round is held back until the exploration ends
  (:meth:`RaceDetector.flush`) and reported only if no run showed them in
  source order. Its trace is the run up to the second access (the two
  racing steps carry :data:`RACE_MARK`), with the schedule and choices of
  the whole run, so a replay re-executes the run that showed it
  (:func:`replayed` cuts it again). :func:`finding_key` is the key that
  deduplicates races across the sub-checks of one check.
* Modes: every race of a run is also a race of every run equivalent to it
  (same events, dependent ones in the same order -- synchronization on one
  object and conflicting atomic regions are dependent for DPOR), and DPOR
  explores a run of every equivalence class, so baseline and ``dpor`` report
  the same pairs (the run shown for a pair, and so which access comes second,
  may differ when an exploration stops early at a violation before it met a
  run showing the pair in source order). ``dpor-ag`` prunes runs it has not
  executed, so with ``report_races`` its summary pruning and slicing are off
  (:func:`exploration_options`): ``dpor-ag`` then explores what ``dpor``
  does, and reports the same races.
* Under C11 (``memory_model`` rc11, :func:`watches_races`) every exploration
  looks for races on its runs without switching any pruning off: a sub-check
  reports the races of the runs it explores, and one that explored every run
  (plain DPOR to its end) or the search for findings after the assertions
  reports all of them. Twins are explored up to their permutation, and a
  permuted run races on the same pair of statements; a silent store
  (``silent_stores``: one that writes what memory holds, noted as a read for
  DPOR) is a write here, and ordering it against reads changes no value read,
  so no branch taken and no synchronisation: DPOR's runs with these
  optimisations meet every racing pair of statements its runs without them
  meet.
* Counted in the statistics: ``races_checked`` (accesses checked against
  the run's earlier ones), ``races_found`` (findings reported),
  ``races_solver_queries`` (overlap queries on symbolic addresses),
  ``races_unknown`` (queries the solver could not answer; nothing reported)
  and ``races_internal_errors`` (runs whose scan failed: a bug, reported as
  no race rather than stopping the check).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from distaff.analysis import ir
from distaff.analysis.explore import vclock
from distaff.analysis.ir import IntType
from distaff.analysis.options import GUIDED_MODES
from distaff.analysis.record import Record
from distaff.analysis.report import Finding, FindingKind, Trace
from distaff.analysis.symex.pivots import BudgetExpired
from distaff.analysis.symex.solver import SolverUnknown
from distaff.analysis.symex.state import PlacedAccess, State
from distaff.analysis.symex.trace import build_trace, lvalue, model_value, small_model

RACE_MARK = " [data race]"  # appended to the actions of the two racing steps of a race's trace


def exploration_options(options):
    """The options an exploration runs with: ``options`` itself, except that
    reporting races in mode ``dpor-ag`` switches summary pruning and slicing
    off (see the module docstring)."""
    if getattr(options, "report_races", False) and options.mode in GUIDED_MODES:
        return replace(options, optimisations=tuple(options.optimisations)
                       + (("summaries", False), ("slicing", False)))
    return options


def watches_races(options) -> bool:
    """Whether an exploration with ``options`` looks for races on its runs:
    it reports them (``report_races``), or it reads memory as C11 does
    (``memory_model`` rc11), which leaves a program with a data race
    undefined. Under C11 an exploration keeps all its pruning and reports the
    races of the runs it explores (module docstring)."""
    return bool(options.report_races) or options.memory_model == "rc11"


def _writes(a: PlacedAccess) -> bool:
    """Whether an access writes: a silent store (noted as a read for DPOR) does."""
    return a.write or a.silent


def finding_key(f: Finding) -> tuple:
    """What makes two race findings the same: the two racing statements."""
    if f.kind is FindingKind.DATA_RACE and f.trace is not None:
        spans = frozenset(s.span for s in f.trace.steps if s.action.endswith(RACE_MARK))
        if spans:
            return (f.kind, spans)
    return (f.kind, f.span, f.message)


@dataclass(slots=True, init=False)
class _Seen(Record):
    """An access remembered for the rest of the run: its epoch (thread, the
    event's number in that thread) and the access."""

    tid: int
    seq: int
    access: PlacedAccess

    def __init__(self, tid: int, seq: int, access: PlacedAccess) -> None:
        self.tid = tid
        self.seq = seq
        self.access = access


class RaceDetector:
    """Finds the data races of each run of one exploration (module docstring).
    The engine must record where each access was made
    (``placed_accesses``); ``on_run`` is called at every leaf and returns the
    new findings."""

    def __init__(self, engine, reuse_prefixes: bool = True):
        self.E = engine
        self.reuse_prefixes = reuse_prefixes
        self.last: _Run | None = None  # the state after the last run's events, kept for reuse
        self.reported: set = set()
        self.held: dict = {}  # pair -> finding showing it against source order
        self.counters: dict[str, int] = {}

    def count(self, name: str, n: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + n

    # ------------------------------------------------------------------

    def flush(self) -> list[Finding]:
        """The races held back and never shown in source order (call once, at the end)."""
        out = [f for key, f in self.held.items() if key not in self.reported]
        self.held.clear()
        self.count("races_found", len(out))
        return out

    def on_run(self, st: State) -> list[Finding]:
        """Scan the run ending in ``st``: the races it shows first."""
        try:
            if not self.reuse_prefixes:
                run = _Run(self, st)
                for cell in reversed(_cells(st.events)):
                    run.push(cell)
                return run.found
            run = self.last if self.last is not None else _Run(self, st)
            self.last = None  # until the scan below finishes: a failure leaves no half state
            run.st, run.found = st, []
            suffix, keep = [], 0
            cell = st.events
            while cell is not None:
                i = run.position.get(id(cell))
                if i is not None and run.cells[i] is cell:
                    keep = i + 1
                    break
                suffix.append(cell)
                cell = cell[1]
            run.undo_to(keep)
            self.count("races_events_reused", keep)
            for cell in reversed(suffix):
                run.push(cell)
            self.last = run
            return run.found
        except BudgetExpired:
            raise
        except Exception:  # noqa: BLE001 - a warning must never take the check down
            self.count("races_internal_errors")
            return []


_MISSING = object()


def _cells(events) -> list:
    """The cells of a persistent list of events, newest first."""
    out = []
    while events is not None:
        out.append(events)
        events = events[1]
    return out


class _Run:
    """The happens-before state of one run, built event by event. Every
    change to its tables goes through :meth:`put`/:meth:`pop`, which record
    the old value on a trail, so that :meth:`undo_to` can go back to the
    state after any earlier event of the run."""

    def __init__(self, det: RaceDetector, st: State):
        self.det, self.st, self.E = det, st, det.E
        self.trail: list = []  # (table, key, old value or _MISSING)
        self.cells: list = []  # the events cells scanned, oldest first
        self.marks: list[int] = []  # trail length before each of them
        self.position: dict[int, int] = {}  # id of a scanned cell -> its index
        self.clocks: dict[int, tuple] = {}
        self.seq: dict[int, int] = {}
        self.pending: dict[int, tuple] = {}  # joined into the thread's clock at its next event
        self.locks: dict = {}
        self.ends: dict[int, tuple] = {}
        self.arrived: dict = {}  # barrier -> join of this round's arrivals
        self.waiting_at: dict = {}  # barrier -> threads waiting there
        self.waiting_on: dict[int, tuple] = {}  # thread -> (condition, index of its wait)
        self.signals: dict = {}  # condition -> [(event index, clock)]
        self.released: dict = {}  # location written in an atomic region -> clock
        self.by_object: dict = {}  # object id (None: not known) -> {key: _Seen}
        self.found: list[Finding] = []

    def put(self, table: dict, key, value) -> None:
        self.trail.append((table, key, table.get(key, _MISSING)))
        table[key] = value

    def pop(self, table: dict, key, default=None):
        if key not in table:
            return default
        value = table[key]
        self.trail.append((table, key, value))
        del table[key]
        return value

    def undo_to(self, k: int) -> None:
        """Back to the state after the first ``k`` scanned events."""
        if k >= len(self.cells):
            return
        mark = self.marks[k]
        trail = self.trail
        while len(trail) > mark:
            table, key, old = trail.pop()
            if old is _MISSING:
                del table[key]
            else:
                table[key] = old
        for cell in self.cells[k:]:
            del self.position[id(cell)]
        del self.cells[k:], self.marks[k:]

    def push(self, cell) -> None:
        """Scan the event of ``cell``, the next of the run."""
        self.marks.append(len(self.trail))
        self.position[id(cell)] = len(self.cells)
        self.cells.append(cell)
        self.event(cell[0])

    def event(self, ev) -> None:
        t = ev.tid
        n = self.seq.get(t, 0) + 1
        self.put(self.seq, t, n)
        c = self.clocks.get(t, ())
        if t in self.pending:
            c = vclock.join(c, self.pop(self.pending, t))
        c = vclock.tick(c, t, n)
        syncs = ev.syncs
        atomic = False
        for s in syncs:  # acquisitions come before the event's accesses
            if not s.blocked:
                c = self.acquire(t, s.op, s.obj, c)
            atomic = atomic or s.op == "atomic_begin"
        for a in ev.accesses:
            if not isinstance(a, PlacedAccess):
                continue
            if a.atomic or atomic:
                c = self.atomic_access(a, c)
            else:
                self.access(a, t, n, c)
        for s in syncs:  # releases after them (a thread's last accesses before its end)
            self.release(t, s.op, s.obj, s.blocked, ev.index, c)
        self.put(self.clocks, t, c)

    # ------------------------------------------------------------------ synchronization

    def acquire(self, t: int, op: str, obj, c: tuple) -> tuple:
        if op == "mutex_lock":
            c = vclock.join(c, self.locks.get(obj, ()))
            w = self.pop(self.waiting_on, t)
            if w is not None:  # the lock that ends a condition wait
                for index, sc in self.signals.get(w[0], ()):
                    if index > w[1]:
                        c = vclock.join(c, sc)
        elif op == "once":  # a pthread_once that returns: after its routine
            c = vclock.join(c, self.locks.get(("once", obj), ()))
        elif op in ("sem_wait", "rwlock_rdlock"):  # after the posts, the write unlocks before it
            c = vclock.join(c, self.locks.get(obj, ()))
        elif op == "rwlock_wrlock":  # after every unlock before it, read unlocks too
            c = vclock.join(vclock.join(c, self.locks.get(obj, ())), self.locks.get(("read", obj), ()))
        elif op == "thread_join":
            c = vclock.join(c, self.ends.get(obj, ()))
        elif op == "barrier_wait":  # the last arrival: every arrival before every departure
            c = vclock.join(c, self.pop(self.arrived, obj, ()))
            for w in self.pop(self.waiting_at, obj, ()):
                self.put(self.pending, w, vclock.join(self.pending.get(w, ()), c))
        return c

    def release(self, t: int, op: str, obj, blocked: bool, index: int, c: tuple) -> None:
        if op in ("mutex_unlock", "sem_post", "rwlock_wrunlock"):
            self.put(self.locks, obj, vclock.join(self.locks.get(obj, ()), c))
        elif op == "once_done":
            self.put(self.locks, ("once", obj), c)
        elif op == "rwlock_rdunlock":  # readers do not order each other
            self.put(self.locks, ("read", obj), vclock.join(self.locks.get(("read", obj), ()), c))
        elif op == "thread_create":
            self.put(self.pending, obj, vclock.join(self.pending.get(obj, ()), c))
        elif op == "end":
            self.put(self.ends, obj, c)
        elif op == "barrier_wait" and blocked:
            self.put(self.arrived, obj, vclock.join(self.arrived.get(obj, ()), c))
            self.put(self.waiting_at, obj, self.waiting_at.get(obj, ()) + (t,))
        elif op == "cond_wait" and blocked:
            self.put(self.waiting_on, t, (obj, index))
        elif op in ("cond_signal", "cond_broadcast"):
            self.put(self.signals, obj, self.signals.get(obj, ()) + ((index, c),))

    def atomic_access(self, a: PlacedAccess, c: tuple) -> tuple:
        if not isinstance(a.addr, int):
            return c
        if _writes(a):
            self.put(self.released, a.addr, vclock.join(self.released.get(a.addr, ()), c))
            return c
        return vclock.join(c, self.released.get(a.addr, ()))

    # ------------------------------------------------------------------ accesses

    def object_of(self, addr):
        E = self.E
        if isinstance(addr, int):
            return addr >> E.layout.off_bits
        hi = E.values.simplified(E.values.extract(addr, E.ptr_bits - 1, E.layout.off_bits))
        return hi if isinstance(hi, int) else None

    def access(self, a: PlacedAccess, t: int, n: int, c: tuple) -> None:
        det = self.det
        det.count("races_checked")
        oid = self.object_of(a.addr)
        if oid is None:
            groups = list(self.by_object.values())
        else:
            groups = [self.by_object.get(oid, {}), self.by_object.get(None, {})]
        for group in groups:
            for seen in group.values():
                b = seen.access
                if seen.tid == t or not (_writes(a) or _writes(b)) or vclock.covers(c, seen.tid, seen.seq):
                    continue
                key = frozenset((a.span, b.span))
                in_order = _source_order(b.span) <= _source_order(a.span)
                if key in det.reported or (not in_order and key in det.held):
                    continue
                overlap = self.overlap(b, a)
                if overlap is False:
                    continue
                if overlap is not True and not self.may_hold(overlap, a.pc):
                    continue
                if in_order:
                    det.reported.add(key)
                    det.count("races_found")
                    self.found.append(self.finding(b, a, overlap))
                else:
                    det.held[key] = self.finding(b, a, overlap)
        group = self.by_object.get(oid)
        if group is None:
            group = {}
            self.put(self.by_object, oid, group)
        addr_key = a.addr if isinstance(a.addr, int) else a.addr.get_id()
        self.put(group, (t, a.span, _writes(a), addr_key, a.size), _Seen(t, n, a))

    def overlap(self, x: PlacedAccess, y: PlacedAccess):
        """When do the byte ranges of ``x`` and ``y`` meet: True, False or a condition."""
        if isinstance(x.addr, int) and isinstance(y.addr, int):
            return x.addr < y.addr + y.size and y.addr < x.addr + x.size
        V, pb = self.E.values, self.E.ptr_bits
        return V.and_(V.lt(x.addr, V.add(y.addr, y.size, pb), pb, False),
                      V.lt(y.addr, V.add(x.addr, x.size, pb), pb, False))

    def may_hold(self, cond, pc) -> bool:
        import z3

        self.det.count("races_solver_queries")
        self.E.budget.poll()
        try:
            return self.E.solver.is_sat(pc, [self.E.item(cond)])
        except (SolverUnknown, z3.Z3Exception):
            self.det.count("races_unknown")
            return False

    # ------------------------------------------------------------------ the finding

    def finding(self, first: PlacedAccess, second: PlacedAccess, overlap) -> Finding:
        E, st = self.E, self.st
        model = None
        if overlap is not True:  # inputs that make the addresses meet, on the whole run if it can
            model = E.solver.model(st.pc, [E.item(overlap)]) or E.solver.model(second.pc, [E.item(overlap)])
        if model is None:
            model = small_model(E, st)
        trace = build_trace(st, E.layout, model)
        trace = _cut(trace, [_position(first.steps), _position(second.steps)], first.tid, second.tid)
        # a scalar of the access's size names the element or field, not the whole object
        where = lvalue(st, E.layout, model_value(model, second.addr), IntType(8 * second.size, True))
        threads = st.threads

        def side(a: PlacedAccess) -> str:
            verb = "write" if _writes(a) else "read"
            return f"{verb} at line {a.span.line} (thread {threads[a.tid].name})"

        message = f"data race on `{where}`: {side(first)} and {side(second)}"
        return Finding(FindingKind.DATA_RACE, second.span, message, trace)


def _source_order(span: ir.Span) -> tuple:
    return (span.file, span.line, span.col, span.end_line, span.end_col)


def _position(steps) -> int:
    """The index in the run's steps of the step recorded after ``steps``."""
    n = 0
    while steps is not None:
        n += 1
        steps = steps[1]
    return n


def _cut(trace: Trace, positions: Sequence[int], first_tid: int, second_tid: int) -> Trace:
    """``trace`` up to the second racing step, both racing steps marked."""
    steps = list(trace.steps)
    k1, k2 = positions
    if k2 >= len(steps) or steps[k2].tid != second_tid:
        return trace
    marked = {k2}
    if k1 < len(steps) and steps[k1].tid == first_tid:
        marked.add(k1)
    out = [replace(s, action=s.action + RACE_MARK) if i in marked else s for i, s in enumerate(steps[:k2 + 1])]
    return replace(trace, steps=tuple(out))


def replayed(trace: Trace, stored: Trace) -> Trace:
    """A replay of a race's run (``trace``, the whole run) cut and marked as
    the race's ``stored`` trace is."""
    steps = list(trace.steps[:len(stored.steps)])
    for i, s in enumerate(stored.steps[:len(steps)]):
        if s.action.endswith(RACE_MARK) and not steps[i].action.endswith(RACE_MARK):
            steps[i] = replace(steps[i], action=steps[i].action + RACE_MARK)
    return replace(trace, steps=tuple(steps))
