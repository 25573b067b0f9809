"""Assertion-guided pruning on top of DPOR: mode ``dpor-ag`` (Algorithm 2).

:class:`AssertionGuided` is :class:`~distaff.analysis.explore.dpor.Dpor` plus:

* **summaries**: when a node leaves the explorer's stack, its weakest
  precondition (:mod:`distaff.analysis.summaries.wp`) is merged into PS of its
  global control state (:mod:`distaff.analysis.summaries.keys`): the conjunction of
  its explored children's at an interleaving node (line 8), their disjunction
  at a branch node (line 15). Leaves: ``true`` at a normal end, at a
  pruned or sleep-blocked run's end and at a run the bound cut (optimisation
  ``cut_summaries``, counted as ``ag_cut_summaries``; off: ``false``, as
  before: a pass claims nothing beyond its bound, a state of the same control
  state -- back-edge counts included -- that the summary covers takes the
  paths explored from where it was learned and is cut where they were, and
  the pass that learned it already knows it was cut, so a pass whose every
  run cuts a worker at bound 1 still prunes), ``false`` at a deadlock (met
  again wherever it occurs), ``!c`` where another
  assertion ``c`` failed or an ``assume(c)`` could not hold, and at a
  run-time error the condition under which that instruction fails that way
  (a summary covering it only hides occurrences of a finding already
  reported; ``false`` when the error is not one arithmetic check). At every interleaving node whose control state has a summary usable
  under its sleep set, the run is pruned when ``pcon && !PS[s][M]`` is
  unsatisfiable (:mod:`distaff.analysis.summaries.evaluate`); the pruned node's
  precondition is PS[s] itself;
* **RVar/WVar** (§5.2): every event's footprint is recorded for the control
  states of the nodes above it; pruning at a node adds the backtracking its
  skipped events would have caused: for each recorded event and each latest
  earlier event of the run it races with (one that does not happen before
  its thread's position), the node before that earlier event gets the
  sequence a race reversal would give it -- the events after it that do not
  depend on it, then a step of the recorded event's thread -- and that
  thread's step alone (every enabled thread when that one cannot run there);
* **slicing** (:mod:`distaff.analysis.summaries.slicing`): Type A stops at
  interleaving points, Type B one-sided branches.

Why ``runs`` can exceed dpor's (Table 2: peterson 182 vs 172, sigma_locked
10 vs 6, stack_cas 21 vs 18, reorder_4 10 vs 9). This is inherent in §5.2,
not a miscount:

* a pruned run is a run. Pruning at a node does not remove the branches
  above it: RVar/WVar hands the nodes above the backtracking the skipped
  subtree's races would have caused, so the explored tree keeps about as
  many leaves as dpor's, but most of them are cut short at the first
  summary hit (stack_cas: dpor 18 full runs; dpor-ag 1 full run, 17 pruned
  by a summary, 3 sleep-blocked). The saving is in the length of the runs
  and the subtrees below them, not in their number;
* RVar/WVar over-approximates. A recorded event is placed at its thread's
  position after the current prefix: its record keeps which threads'
  positions it happened after (``covers``), not the events in between, so it
  is taken to race with prefix events that in the pruned subtree came before
  it (a lock its thread had to take first, say); and the inserted sequence
  ends with "a step of that thread", not the event itself, whose
  predecessors are unknown. Optimal DPOR would start none of these
  branches; here they end sleep-blocked (``dpor_sleep_blocked``:
  sigma_locked 4, stack_cas 3, dpor 0) or pruned (reorder_4: 13 sequences
  inserted against dpor's 10). Dropping them is unsound: an event that did
  race would lose its reversal. Keeping exact happens-before per control
  state would mean storing the subtree's traces, not its footprints.

Optimisations by name (``Options.optimisations``): ``summaries``,
``rvar_wvar`` (off: a pruned run makes every earlier node explore every
enabled thread -- sound and costly), ``slicing``, ``instance_memo`` (a
summary instantiated under constant values once per check: counted as
``ag_instance_hits``), ``prune_check_limit`` (a check that the path
condition implies a summary stops at :data:`PRUNE_CHECK_RLIMIT` of z3's
work, and its control state is explored from then on: counted as
``ag_prune_gave_up``), ``unread_summaries`` (on:
when no summary text is asked for, the nodes left once no node may take
another option learn nothing: no later node would consult it); bounds
``summary_table_size`` and ``summary_max_size`` (integers; 0 or absent: no
bound; a size bound costs a walk of every summary added, 14 % of Table 2's
time at 20,000 nodes, where no summary comes near: at most 810). Counted: ``ag_pruned_summary``, ``ag_pruned_type_a``,
``ag_type_b``, ``ag_type_b_reopened``, ``ag_prune_checks``,
``ag_wp_false``, ``ag_wp_skipped`` (pieces not walked back: their node's
summary is false anyway), ``ag_wp_simplify_hits`` (preconditions whose
simplified form was remembered), ``ag_summaries_unread``, ``ag_rvar_wvar_races``
and the table's counts;
once the summaries are printed (:meth:`AssertionGuided.statement_summaries`),
``summary_simplified`` (statements whose summary reads shorter simplified)
and ``summary_simplify_ms`` (the time spent simplifying).
"""

from __future__ import annotations

from typing import Any

import z3

from distaff.analysis import ir
from distaff.analysis.explore import vclock
from distaff.analysis.explore.dependence import Footprint, silent_as_writes
from distaff.analysis.explore.dpor import Dpor, DporNode, Step, pending_step
from distaff.analysis.explore.reduction import Node
from distaff.analysis.report import StatementSummary
from distaff.analysis.summaries import cprint
from distaff.analysis.summaries.evaluate import InstanceMemo, ReadsMemo, instantiate, memory_reads
from distaff.analysis.summaries.keys import control_state
from distaff.analysis.summaries.slicing import SliceGuide
from distaff.analysis.summaries.table import SummaryTable
from distaff.analysis.summaries.variables import Variables
from distaff.analysis.summaries.wp import WeakestPreconditions, unsupported_reason
from distaff.analysis.symex.pivots import BRANCH_PIVOT, INTERLEAVE_PIVOT, Leaf, LeafKind
from distaff.analysis.symex.state import State

# what printing one sub-check's summaries may do (statement_summaries): parts
# printed, statements simplified; a work budget, not a time, so that the editor
# and the command line show the same whatever the load (of the examples and
# Table 2, szymanski's sub-checks reach the 1,000 parts, in about 0.5 s each);
# the time is a safety net
PRINT_PARTS, SIMPLIFY_STATEMENTS, PRINT_SAFETY_S = 1000, 40, 5.0

# z3's resource count one check that the path condition implies a summary may
# spend (optimisation prune_check_limit): past it the node is explored, not
# pruned, and its control state is not checked again in this sub-check. A
# deterministic count, not a time, so runs are the same on any machine (some
# 15-30 ms of z3's time on a loaded 2-core machine). An implication over
# several symbolic inputs can cost seconds in the incremental solver where
# exploring the subtree costs a few plain runs: regress's array_max_lock_ok
# made 0.6 s checks, 91 runs in 127 s; with the limit, 192 runs in 8-13 s
PRUNE_CHECK_RLIMIT = 50_000

# operations whose forks are choices the program cannot tell apart by value
_CHOICE_OPS = frozenset({
    ir.Op.BARRIER_WAIT, ir.Op.THREAD_JOIN, ir.Op.COND_SIGNAL, ir.Op.COND_WAIT,
    ir.Op.SEM_WAIT, ir.Op.RWLOCK_RDLOCK, ir.Op.RWLOCK_WRLOCK, ir.Op.MUTEX_LOCK,
})
_TAINTING = frozenset({LeafKind.ERROR, LeafKind.CUT, LeafKind.DEADLOCK, LeafKind.STOPPED, LeafKind.INFEASIBLE})


def _meet(a: tuple, b: tuple) -> tuple:
    """The element-wise minimum of two clocks (the weaker happens-before)."""
    n = max(len(a), len(b))
    a = a + (0,) * (n - len(a))
    b = b + (0,) * (n - len(b))
    return tuple(min(x, y) for x, y in zip(a, b))


def _add(into: dict, key, fp, clock) -> None:
    old = into.get(key)
    into[key] = (fp, clock if old is None or old[1] == clock else _meet(old[1], clock))


def _merge(into: dict, other: dict) -> None:
    for key, (fp, clock) in other.items():
        _add(into, key, fp, clock)


def _limit(options, name: str) -> int | None:
    if options is None:
        return None
    v = dict(options.optimisations).get(name)
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        return None
    return v


def _sleep_tag(sleep: dict) -> frozenset | None:
    """The sleep set as a hashable set of ``(thread, footprint keys)``; None
    when a footprint is not known exactly."""
    out = []
    for q, fps in sleep.items():
        if fps is None:
            return None
        keys = []
        for f in fps:
            k = f.key
            if k is None:
                return None
            keys.append(k)
        out.append((q, tuple(sorted(keys, key=repr))))
    return frozenset(out)


class GuidedNode(DporNode):
    """What dpor-ag keeps at a node besides DPOR's: the preconditions its
    children handed up (option -> (precondition, accesses)), the record of
    the events below it, its control state's key (None: no summary), a type
    B branch's held-back options and whether a run below was tainted, and the
    last sequence number of each thread before it."""

    __slots__ = ("wps", "acc", "key", "type_b", "tainted", "last_seq")

    def __init__(self) -> None:
        super().__init__()
        self.wps: dict = {}
        self.acc: dict = {}
        self.key: Any = None
        self.type_b: list[int] | None = None
        self.tainted = False
        self.last_seq: tuple | None = None


def guided_node(node: Node) -> GuidedNode:
    """dpor-ag's record at ``node``: its store, which :meth:`AssertionGuided.new_store` made."""
    st: GuidedNode = node.store
    return st


class AssertionGuided(Dpor):
    """See the module docstring."""

    name = "dpor-ag"
    record_effects = True
    # a store of what the memory held is a read for this run's dependence
    # (and its rounds may be ghosts); the accesses recorded below a control
    # state (RVar/WVar) stand for the events of pruned runs, in which it may
    # change memory, so the record keeps it as the write it may be (_record)
    silent_stores = True
    # a run that ends where a round failed vouches for nothing below it: a
    # summary learned from it would stand for runs explored nowhere (and
    # parking explored more runs here: awaits.park)
    park_futile = False

    def __init__(self, program: Any, options: Any, site: Any) -> None:
        super().__init__(program, options, site)
        on = options.enabled if options is not None else (lambda name: True)
        self.use_summaries = on("summaries")
        self.use_rvar = on("rvar_wvar")
        self.use_slicing = on("slicing")
        self.cut_summaries = on("cut_summaries")
        self.prune_rlimit = PRUNE_CHECK_RLIMIT if on("prune_check_limit") else 0
        self._gave_up: set = set()  # control states whose check stopped at the limit: not checked again
        # what a node learns once the exploration only unwinds is read by
        # nobody but the summaries' texts (optimisation ``unread_summaries``)
        self.skip_unread = on("unread_summaries") and options is not None and not options.summary_text
        self._unwinding = False  # no node on the stack may take another option
        self._chooser: Node | None = None  # the last node found that may
        self.unsupported: str | None = unsupported_reason(program) if program is not None else "no program"
        if self.unsupported:
            self.use_summaries = False
        self.target = program.function(site.func).body[site.pc]
        self.table = SummaryTable(_limit(options, "summary_table_size"), _limit(options, "summary_max_size"))
        self.guide: SliceGuide | None = None
        self._pruned: tuple | None = None  # (precondition, accesses, RVar/WVar) of the run being pruned
        self.stmt: dict = {}  # span -> control states of nodes there (dict: ordered set)
        self._reads: ReadsMemo | None = None  # made on first use (it makes the check's z3 context)
        self._instances = InstanceMemo() if on("instance_memo") else None
        self.stmt_pruned: dict = {}

    def start(self, explorer) -> None:
        super().start(explorer)
        E = explorer.engine
        self.X = Variables(E.values, E.ptr_bits)
        self.W = WeakestPreconditions(E, self.X, self.target)
        if self.use_slicing:
            try:
                self.guide = SliceGuide(self.program, self.site)
            except Exception:  # noqa: BLE001 - slicing is an optimisation: without it, explore more
                self.guide = None
                self.count("ag_slicing_failed")

    def visited_every_state(self) -> bool:
        # a summary or type-A prune, or one side of a type-B branch, skips
        # states that hold no failure of the assertion but may hold a deadlock
        n = self.n
        return not (n.get("ag_pruned_type_a") or n.get("ag_pruned_summary") or n.get("ag_type_b"))

    def counters(self) -> dict[str, int]:
        out = super().counters()
        out.update(self.table.counts)
        if hasattr(self, "W"):
            out["ag_wp_false"] = self.W.bails
            if self.W.simplify_hits:
                out["ag_wp_simplify_hits"] = self.W.simplify_hits
        if self._instances is not None and self._instances.hits:
            out["ag_instance_hits"] = self._instances.hits
        if self.unsupported:
            out["ag_summaries_off"] = 1
        return out

    # ------------------------------------------------------------------ pivots

    def new_store(self) -> GuidedNode:
        return GuidedNode()

    def on_pivot(self, node: Node) -> list[int]:
        self._pruned = None
        st = guided_node(node)
        if node.kind is BRANCH_PIVOT:
            return self._branch(node)
        k = node.event_index
        incoming = {}
        if self.pending is not None and self.pending[0] == k:
            incoming = self.pending[1]
        state = node.state
        if self.guide is not None and self.guide.type_a(state):
            self.count("ag_pruned_type_a")
            self._pruned = (True, frozenset(), {})
            self._note_prune(node)
            return []
        key = control_state(state) if self.use_summaries else None
        st.key = key
        if key is not None:
            tag = _sleep_tag(incoming) or frozenset()
            hit = self.table.usable(key, tag)
            if hit is not None and key not in self._gave_up and self._implied(node, hit, key):
                self.count("ag_pruned_summary")
                entry = self.table.get(key)
                entry.pruned += 1
                self._note_prune(node)
                self.steps.truncate(k)
                del self.origin[k:]
                skipped = self._skipped_races(node, entry.accesses)
                self._pruned = (hit[0], hit[1], skipped)
                return []
        choices = super().on_pivot(node)
        if not choices:
            self._pruned = (True, frozenset(), {})
        return choices

    def _implied(self, node: Node, hit, key) -> bool:
        """Does the path condition imply the summary under the node's memory?"""
        phi, accesses, parts = hit
        self.count("ag_prune_checks")
        E = self.explorer.engine
        reads: list | None = []
        if self._reads is None:
            self._reads = ReadsMemo(self.X)
        for p in parts:
            found = memory_reads(p.phi, self.X, self._reads)
            if found is None:
                reads = None
                break
            reads.extend(found)
        val = instantiate(phi, accesses, node.state, E, self.X, reads, self._instances)
        if val is None or val is False:
            return False
        if val is True:
            return True
        sat = E.solver.is_sat_within(node.state.pc, [E.item(E.values.not_(val))], self.prune_rlimit)
        if sat is None:  # exploring the subtree again is cheaper than proving it need not be
            self.count("ag_prune_gave_up")
            self._gave_up.add(key)
            return False
        return not sat

    def _branch(self, node: Node) -> list[int]:
        g = self.guide
        p = node.pivot
        if g is not None and p.tid is not None and len(p.options) == 2:
            t = node.state.threads[p.tid]
            f = t.frames[-1]
            instr = f.func.body[f.pc] if f.pc < len(f.func.body) else None
            if isinstance(instr, ir.Branch) and {o.payload for _, o in p.options} == {True, False} \
                    and g.type_b(f.func.name, f.pc):
                self.count("ag_type_b")
                st = guided_node(node)
                st.type_b = [1]
                st.tainted = False
                return [0]
        return list(node.options)

    def may_choose(self, node: Node) -> bool:
        st = guided_node(node)
        return bool(st.type_b and st.tainted) or super().may_choose(node)

    def next_choice(self, node: Node) -> int | None:
        st = guided_node(node)
        rest = st.type_b
        if rest and st.tainted and not node.todo:
            node.todo.extend(rest)
            st.type_b = []
            self.count("ag_type_b_reopened")
        return super().next_choice(node)

    # ------------------------------------------------------------------ RVar/WVar
    #
    # Events below a node are kept as (thread, its creators, footprint key) ->
    # (footprint, vector clock) while the node is on the stack (clocks of one
    # prefix), and in the table as (thread, creators, key, covers) -> footprint,
    # ``covers`` being the threads whose position at the node the event
    # happens after: that is what stays true at another node of the same
    # control state, whatever its prefix.

    def _skipped_races(self, node: Node, accesses: dict) -> dict:
        """Backtracking as if the events recorded below this control state had
        happened after the current run's prefix (§5.2); the events, with
        clocks of this prefix, for the nodes above."""
        nthreads = len(node.state.threads)
        k = node.event_index
        prefix = self.steps[:k]
        if not self.use_rvar:
            for n in self.origin[:k]:
                for i in n.options:
                    self.insert_at(n, [pending_step(n.thread_of(i))])
            return {}
        last: dict[int, Step] = {}
        for s in prefix:
            last[s.tid] = s
        out = {}
        for (tid, ancestors, key, covers), fp in accesses.items():
            a = next((x for x in (tid,) + ancestors if x < nthreads), None)
            if a is None:
                continue
            clock, sclock = self._thread_clocks(a, last)
            for u in covers:
                if u in last:
                    clock = vclock.join(clock, last[u].clock)
                    sclock = vclock.join(sclock, last[u].sclock)
            _add(out, (tid, ancestors, key), fp, sclock)
            # as in race detection, only the latest racing events not ordered
            # before one already found (the others follow once that is reversed)
            for j in reversed(self.near(fp, k)):  # only these can race with it
                s = prefix[j]
                if s.tid == a or vclock.covers(clock, s.tid, s.seq) or not self.dep.race(s.fp, fp):
                    continue
                clock = vclock.join(clock, s.clock)
                self.count("ag_rvar_wvar_races")
                # the reversal's sequence: what does not depend on s, then the
                # thread towards the skipped event; and that thread at once, in
                # case those events would keep it waiting. When it cannot run
                # there, every thread that can (Flanagan and Godefroid's rule)
                origin = self.origin[s.index]
                if origin.option_for_thread(a) is not None:
                    notdep = [x for x in prefix[s.index + 1:] if not vclock.covers(x.clock, s.tid, s.seq)]
                    self.insert_at(origin, notdep + [pending_step(a)])
                    self.insert_at(origin, [pending_step(a)])
                else:
                    for i in origin.options:
                        if origin.thread_of(i) != s.tid:
                            self.insert_at(origin, [pending_step(origin.thread_of(i))])
        return out

    def _thread_clocks(self, tid: int, last: dict) -> tuple:
        """(clock, structural clock) of ``tid``'s position after the prefix."""
        s = last.get(tid)
        if s is None:
            s = self.steps.creator(tid)
        return (s.clock, s.sclock) if s is not None else ((), ())

    def _ancestors(self, tid: int) -> tuple:
        out = []
        seen = {tid}
        t = tid
        while True:
            made = self.steps.creator(t)
            parent = made.tid if made is not None else None
            if parent is None or parent in seen:
                return tuple(out)
            out.append(parent)
            seen.add(parent)
            t = parent

    def _record(self, steps, into: dict) -> dict:
        """Add ``steps`` to the raw record ``into``."""
        for s in steps:
            fp = silent_as_writes(s.fp)
            key: Any = fp.key
            if key is None:
                fp, key = Footprint.pending(s.tid), "unknown"
            _add(into, (s.tid, self._ancestors(s.tid), key), fp, s.sclock)
        return into

    def _relative(self, node: Node, acc: dict) -> dict:
        """The raw record ``acc`` of events below ``node`` for the table."""
        st = guided_node(node)
        last = st.last_seq  # the prefix above a node on the stack stays
        if last is None:
            counts: dict[int, int] = {}
            for s in self.steps[: node.event_index]:
                counts[s.tid] = s.seq
            last = st.last_seq = tuple(counts.items())
        out = {}
        memo: dict = {}
        for (tid, ancestors, key), (fp, clock) in acc.items():
            covers = memo.get(clock)
            if covers is None:
                n = len(clock)
                covers = memo[clock] = frozenset([u for u, c in last if u < n and clock[u] >= c])
            out[(tid, ancestors, key, covers)] = fp
        return out

    # ------------------------------------------------------------------ summaries

    def on_run_end(self, leaf: Leaf, state: State) -> None:
        super().on_run_end(leaf, state)
        k = leaf.kind
        if k is LeafKind.VIOLATION:
            return
        cut = state.has_cut()
        if k in _TAINTING or cut:
            for n in self.explorer.stack:
                s = guided_node(n)
                if s.type_b is not None:
                    s.tainted = True
        if not self.explorer.stack:
            return
        if self._unread():
            self._pruned = None
            return
        parent = self.explorer.stack[-1]
        # the run's events go straight into the parent's record (merging is
        # order-free: clocks meet; the newest footprint of a key stays)
        pst = guided_node(parent)
        acc = self._record(self.steps[parent.event_index:], pst.acc)
        if k is not LeafKind.PRUNED:
            for fp in self.blocked_attempts(state):
                last = next((x for x in reversed(self.steps) if x.tid == fp.tid), None)
                _add(acc, (fp.tid, self._ancestors(fp.tid), fp.key), fp, last.sclock if last else ())
        if k is LeafKind.PRUNED:
            phi, accesses, skipped = self._pruned or (False, frozenset(), {})
            _merge(acc, skipped)
        elif k is LeafKind.END or (k is LeafKind.CUT and self.cut_summaries):
            phi, accesses = True, frozenset()
            if k is LeafKind.CUT:
                self.count("ag_cut_summaries")
        elif k is LeafKind.STOPPED:
            phi, accesses = self.W.leaf("stopped", state, leaf.tid), frozenset()
        elif k is LeafKind.INFEASIBLE:
            phi, accesses = self.W.leaf("infeasible", state, state.current), frozenset()
        elif k is LeafKind.ERROR:
            phi, accesses = self.W.error(state, leaf.tid, leaf.message), frozenset()
        else:
            phi, accesses = False, frozenset()
        if cut and not self.cut_summaries:
            phi = False
        self._pruned = None
        self._give(parent, state, phi, accesses)

    def _give(self, parent: Node, state: State, phi, accesses) -> None:
        """Hand the precondition at ``state`` (reached from ``parent`` by its
        current option) to ``parent`` (the caller has added the events below
        to the parent's record)."""
        pst = guided_node(parent)
        if not self.use_summaries or not parent.done:
            return
        wps = pst.wps
        if self._doomed(parent, wps):
            # the node's summary is false whatever this piece gives
            self.count("ag_wp_skipped")
            wps[parent.done[-1]] = (False, frozenset())
            return
        pre, acc2 = self.W.through(parent.state, state, phi)
        wps[parent.done[-1]] = (pre, accesses | acc2)

    def _doomed(self, node: Node, wps: dict) -> bool:
        """Will :meth:`_combine` give ``false`` at ``node`` whatever its
        current child's precondition is?"""
        if node.kind is INTERLEAVE_PIVOT:
            return any(c not in wps or wps[c][0] is False for c in node.done[:-1])
        return self._no_disjunction(node)

    def _no_disjunction(self, node: Node) -> bool:
        """A branch node whose precondition is not the disjunction of its
        children's: a choice by value, one among threads or waiters, or a
        spurious wake-up's."""
        p = node.pivot
        if p.by_value:
            return True
        t = node.state.threads[p.tid] if p.tid is not None else None
        if t is not None and t.frames:
            f = t.frames[-1]
            i = f.func.body[f.pc] if f.pc < len(f.func.body) else None
            # a signal's options overlap (any waiter may be woken), and so do
            # a condition wait's (sleep, or wake spuriously) and a timed
            # wait's (wait, or give up): the disjunction of the children's is
            # not the node's precondition
            if isinstance(i, ir.Intrinsic) and i.op in _CHOICE_OPS:
                return True
        return False

    def _unread(self) -> bool:
        """Will nothing read what the node on top of the stack, or the run
        that just ended below it, hands up? True once no node on the stack
        may take another option (the exploration only unwinds from there to
        its end) when the summaries' texts are not asked for: the table is
        then consulted by no later node. Counted as ``ag_summaries_unread``
        (runs and nodes that hand nothing up)."""
        if not self._unwinding:
            if not self.skip_unread:
                return False
            stack = self.explorer.stack
            c = self._chooser
            if c is not None and c.depth < len(stack) and stack[c.depth] is c and self.may_choose(c):
                return False
            for n in reversed(stack):
                if self.may_choose(n):
                    self._chooser = n
                    return False
            self._unwinding = True
        self.count("ag_summaries_unread")
        return True

    def on_backtrack(self, node: Node) -> None:
        if self._unread():
            return
        st = guided_node(node)
        stack = self.explorer.stack
        parent = stack[-2] if len(stack) >= 2 else None
        acc = st.acc
        phi: z3.BoolRef | bool = False  # (a term once summaries are combined)
        accesses: frozenset = frozenset()
        if self.use_summaries:
            phi, accesses = self._combine(node)
            key = st.key
            if node.kind is INTERLEAVE_PIVOT and key is not None:
                tag = _sleep_tag(st.sleep_in)
                if tag is not None:
                    self.table.add(key, tag, phi, accesses)
                self.table.record_accesses(key, self._relative(node, acc))
                if phi is not False:
                    self._note_node(node, key)
        if parent is not None:
            pst = guided_node(parent)
            into = pst.acc
            _merge(into, acc)
            self._record(self.steps[parent.event_index:node.event_index], into)
            self._give(parent, node.state, phi, accesses)

    def _combine(self, node: Node):
        V = self.values
        st = guided_node(node)
        wps = st.wps
        parts, accesses = [], frozenset()
        for c in node.done:
            got = wps.get(c)
            if got is None:
                if node.kind is INTERLEAVE_PIVOT:
                    return False, frozenset()
                continue
            parts.append(got[0])
            accesses |= got[1]
        if node.kind is INTERLEAVE_PIVOT:
            return (V.and_(*parts) if parts else False), accesses
        if self._no_disjunction(node):
            return False, frozenset()
        return V.or_(*parts), accesses

    # ------------------------------------------------------------------ what the language server shows

    def _spans(self, node: Node) -> list:
        out = []
        for i in node.options:
            t = node.state.threads[node.thread_of(i)]
            if t.frames:
                f = t.frames[-1]
                if f.pc < len(f.func.body):
                    out.append(f.func.body[f.pc].span)
        return out

    def _note_node(self, node: Node, key) -> None:
        for span in self._spans(node):
            # a dict as an ordered set: control states are long tuples, and
            # comparing one with each of a list's was a quadratic cost
            self.stmt.setdefault(span, {})[key] = None

    def _note_prune(self, node: Node) -> None:
        for span in self._spans(node):
            self.stmt_pruned[span] = self.stmt_pruned.get(span, 0) + 1

    def statement_summaries(self, limit: int = 3, parts: int = PRINT_PARTS, simplify: int = SIMPLIFY_STATEMENTS,
                            time_s: float = PRINT_SAFETY_S, deadline: float | None = None) -> list[StatementSummary]:
        """Per source statement, the summaries of the nodes at it, as C (at
        most ``limit`` per statement). Printing stops after ``parts``
        printed parts, and after ``simplify`` statements the rest are not
        simplified: the same text on any machine. ``time_s`` is a safety net
        only (past it, what is left is not printed), and so is ``deadline``
        (a ``time.monotonic()`` instant: the sub-check's own budget, which
        printing must not overrun); a part whose formula has more than
        ``cprint.PRINT_NODES`` distinct terms is not printed (counted as
        ``summary_too_large``)."""
        import time

        E = self.explorer.engine
        printer = cprint.Printer(E, self.program)
        stop = time.monotonic() + time_s
        if deadline is not None:
            stop = min(stop, deadline)
        out = []
        printed: dict = {}
        simplifying = 0.0  # seconds
        # (a total order: spans alike in their start must not come in the order of a set)
        spans = sorted(set(self.stmt) | set(self.stmt_pruned),
                       key=lambda s: (s.file, s.line, s.col, s.end_line, s.end_col))
        for span in spans:
            texts, phis = [], []
            for key in self.stmt.get(span, []):
                e = self.table.get(key)
                if e is None or len(texts) > limit:
                    continue
                for p in e.parts:
                    text = printed.get(id(p))
                    if text is None and (parts <= 0 or time.monotonic() > stop):
                        text = ""
                    if text is None and not printer.small(p.phi):
                        text = ""
                        self.count("summary_too_large")
                    if text is None:
                        parts -= 1
                        try:
                            text = printer.text(p.phi, budget=150)
                        except Exception:  # noqa: BLE001 - a summary we cannot print is left out
                            text = ""
                        printed[id(p)] = text
                    if text and text not in texts:
                        texts.append(text)
                        phis.append(p.phi)
                    if len(texts) > limit:
                        break
            if not texts:
                continue
            if "1" in texts:
                texts = ["1"]
            expr = texts[0] if len(texts) == 1 else " || ".join(f"({t})" for t in texts[:limit])
            if len(texts) > limit:
                expr += " || ..."
            raw = ""
            if texts != ["1"] and len(texts) <= limit and simplify > 0 and time.monotonic() < stop \
                    and all(printer.small(p) for p in phis):
                simplify -= 1
                # the parts' disjunction, shorter: one part may imply another
                whole = phis[0] if len(phis) == 1 else z3.Or(*phis)
                t0 = time.monotonic()
                try:
                    short = printer.text(whole, budget=150, readable_ms=cprint.READABLE_MS)
                except Exception:  # noqa: BLE001 - the form as learned is still there
                    short = ""
                simplifying += time.monotonic() - t0
                if short and short != expr:
                    expr, raw = short, expr
                    self.count("summary_simplified")
            out.append(StatementSummary(span, expr, self.stmt_pruned.get(span, 0), raw))
        self.count("summary_simplify_ms", round(simplifying * 1000))
        return out
