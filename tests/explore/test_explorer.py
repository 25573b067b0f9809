"""The explorer and the reduction protocol: the hooks a DPOR or a summary
plug-in relies on are called as documented, pruning is counted as pruned
runs, options can be added to a node later, and the engine's per-run records
(events, effects, control states) are there."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options
from distaff.analysis.explore.explorer import Explorer
from distaff.analysis.subcheck import explorer_for
from distaff.analysis.explore.reduction import Baseline
from distaff.analysis.frontend import parse_program
from distaff.analysis.symex.pivots import FULL_RUN_LEAVES, PivotKind
from distaff.analysis.symex.state import cons_list
from tests.explore.expectations import PROGRAMS

OPTS = Options(mode="baseline")


def program(name):
    path = PROGRAMS / name
    return parse_program(path.read_text(), str(path))


class Recording(Baseline):
    def __init__(self):
        self.log = []
        self.events = []

    def on_pivot(self, node):
        self.log.append(("pivot", node.depth, node.kind))
        assert node is not None and node.state is not None
        return super().on_pivot(node)

    def on_event(self, event, state):
        self.events.append(event)

    def on_backtrack(self, node):
        self.log.append(("backtrack", node.depth, sorted(node.done)))

    def on_run_end(self, leaf, state):
        self.log.append(("end", leaf.kind))


def test_hooks_are_called_in_order_and_runs_are_counted():
    p = program("reorder.c")
    rec = Recording()
    ex = Explorer(p, OPTS, p.assertions()[0], None, rec)
    res = ex.run()
    ends = [e for e in rec.log if e[0] == "end"]
    assert res.stats.full_runs == sum(1 for _, k in ends if k in FULL_RUN_LEAVES) == 20
    pivots = [e for e in rec.log if e[0] == "pivot"]
    backtracks = [e for e in rec.log if e[0] == "backtrack"]
    assert len(pivots) == len(backtracks)
    # every option of every node was explored (baseline)
    assert all(len(done) >= 2 for _, _, done in backtracks)
    kinds = {k for _, _, k in pivots}
    assert kinds == {PivotKind.INTERLEAVE, PivotKind.BRANCH}
    assert ex.stack == []


def test_events_carry_threads_accesses_and_synchronization():
    p = program("reorder.c")
    rec = Recording()
    Explorer(p, OPTS, p.assertions()[0], None, rec).run()
    writes = [e for e in rec.events if any(a.write for a in e.accesses) and e.func == "writer"]
    assert writes and all(len(e.accesses) == 1 and e.accesses[0].size == 4 for e in writes)
    creates = [s for e in rec.events for s in e.syncs if s.op == "thread_create"]
    assert {s.obj for s in creates} == {1, 2}
    assert all(e.index >= 0 and e.tid in (0, 1, 2) for e in rec.events)


class PruneAfterFirst(Baseline):
    """Explore one run, then prune every interleaving point met again."""

    def __init__(self):
        self.first_done = False

    def on_pivot(self, node):
        if self.first_done and node.kind is PivotKind.INTERLEAVE:
            return []
        return super().on_pivot(node)

    def on_run_end(self, leaf, state):
        self.first_done = True


def test_pruned_runs_are_counted_apart():
    p = program("reorder.c")
    res = Explorer(p, OPTS, p.assertions()[0], None, PruneAfterFirst()).run()
    assert res.stats.pruned_runs > 0 and res.stats.runs == res.stats.full_runs + res.stats.pruned_runs
    assert res.stats.full_runs < 20


class FirstOnlyThenAdd(Baseline):
    """Explore only the first option of interleaving nodes, and add the
    others when backtracking to them (what a DPOR does with backtrack sets)."""

    def __init__(self):
        self.added = 0

    def on_pivot(self, node):
        return list(node.options)[:1] if node.kind is PivotKind.INTERLEAVE else list(node.options)

    def next_choice(self, node):
        if node.kind is PivotKind.INTERLEAVE and not node.store.get("added"):
            node.store["added"] = True
            node.todo.extend(o for o in node.options if o not in node.done)
            self.added += 1
        return super().next_choice(node)


def test_options_added_at_backtrack_are_explored():
    p = program("reorder.c")
    red = FirstOnlyThenAdd()
    res = Explorer(p, OPTS, p.assertions()[0], None, red).run()
    assert red.added > 0 and res.stats.full_runs == 20


class Effects(Baseline):
    record_effects = True
    pivot_on_single = True

    def __init__(self):
        self.keys = set()
        self.effects = 0
        self.singles = 0

    def on_pivot(self, node):
        self.keys.add(node.state.control_key())
        if node.kind is PivotKind.INTERLEAVE and len(node.pivot.options) == 1:
            self.singles += 1
        return super().on_pivot(node)

    def on_run_end(self, leaf, state):
        self.effects = max(self.effects, len(cons_list(state.effects)))


def test_effects_control_keys_and_single_choice_nodes():
    p = program("reorder.c")
    red = Effects()
    res = Explorer(p, OPTS, p.assertions()[0], None, red).run()
    assert res.stats.full_runs == 20  # nodes with one option change nothing
    assert red.singles > 0 and red.effects > 5
    assert len(red.keys) > 5 and all(hash(k) is not None for k in red.keys)


def test_max_runs_stops_with_a_reason():
    from distaff.analysis.report import Reason

    p = program("reorder.c")
    res = explorer_for(p, Options(mode="baseline", max_runs=3), p.assertions()[0]).run()
    assert res.stop is Reason.MAX_RUNS and res.stats.runs == 3


def test_solver_layers_off_change_counts_not_results():
    p = program("heap.c")
    off = Options(mode="baseline", optimisations=(("solver_cache", False), ("solver_independence", False),
                                                  ("solver_incremental", False)))
    a = explorer_for(p, OPTS, p.assertions()[0]).run()
    b = explorer_for(p, off, p.assertions()[0]).run()
    assert a.stats.runs == b.stats.runs and a.reached and b.reached
    assert [f.message for f in a.findings] == [f.message for f in b.findings]
    assert a.stats.counter("solver_cache_hits") > 0 and b.stats.counter("solver_cache_hits") == 0
    assert b.stats.solver_calls > a.stats.solver_calls


def test_an_unknown_mode_is_an_error_not_baseline():
    # a mode nobody registered (a typo, a module that failed to import) must
    # not quietly explore as baseline
    p = program("reorder.c")
    with pytest.raises(ValueError, match="unknown mode 'dpor-agg'"):
        explorer_for(p, Options(mode="dpor-agg"), p.assertions()[0])
