"""A run the unwind bound cut vouches for its bound (optimisation
``cut_summaries``, :mod:`distaff.analysis.summaries.guided`): in dpor-ag the
deepening's shallow passes, whose runs nearly all stop a thread at the bound,
prune with their summaries; the verdicts stay those without it, a check whose
runs are cut at the full bound still says "bounded", never "holds"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Status
from tests.explore.expectations import PROGRAMS

# two workers each add to a count in a nondeterministic number of rounds by a
# separate load and store: the update lost three rounds deep is found at bound 4
LOST_UPDATE = PROGRAMS.parents[1] / "bench" / "regress" / "programs" / "symloop_lost_update_bad.c"

# (bound 4: the lost update is found at 4 either way; without cut summaries its
# passes at 1 and 2 cost seconds, at the default 8 half a minute)
GUIDED = Options(mode="dpor-ag", workers=1, unwind=4, timeout_s=120, findings=False,
                 optimisations=(("plain_first", False),))
OFF = replace(GUIDED, optimisations=GUIDED.optimisations + (("cut_summaries", False),))


def results(path: Path, options: Options) -> list[AssertionResult]:
    return [r for r in check_text(path.read_text(), str(path), options) if isinstance(r, AssertionResult)]


@pytest.mark.parametrize("path,status", [
    (LOST_UPDATE, Status.VIOLATED),  # found at bound 4, after passes at 1 and 2 that cut
    (PROGRAMS / "loop_cut.c", Status.BOUNDED),  # cut at every bound: never a proof
], ids=["lost_update", "loop_cut"])
def test_cut_runs_prune_and_the_verdict_is_the_same(path, status):
    [on] = results(path, GUIDED)
    [off] = results(path, OFF)
    assert on.status is off.status is status
    assert on.stats.counter("ag_cut_summaries") >= 1 and off.stats.counter("ag_cut_summaries") == 0
    if status is Status.VIOLATED:
        assert on.trace is not None and on.trace.steps


def test_the_shallow_passes_of_a_lost_update_prune_instead_of_giving_way():
    [on] = results(LOST_UPDATE, GUIDED)
    [off] = results(LOST_UPDATE, OFF)
    assert on.stats.counter("deepening_passes") == 3  # bounds 1 and 2 ran to their end, 4 found it
    assert on.stats.counter("ag_pruned_summary") >= 1
    assert on.stats.counter("deepening_runs") + on.stats.runs < (off.stats.counter("deepening_runs") + off.stats.runs) / 10
