"""A run the unwind bound cut vouches for its bound (optimisation
``cut_summaries``, :mod:`distaff.analysis.summaries.guided`): in dpor-ag the
deepening's shallow passes, whose runs nearly all stop a thread at the bound,
prune with their summaries; the verdicts stay those without it, a check whose
runs are cut at the full bound still says "bounded", never "holds"."""

from __future__ import annotations

from dataclasses import replace

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Status
from tests.explore.expectations import PROGRAMS

# (bound 4: the lost update is found at 4 either way; without cut summaries its
# passes at 1 and 2 cost seconds, at the default 8 half a minute)
GUIDED = Options(mode="dpor-ag", workers=1, unwind=4, timeout_s=120, findings=False,
                 optimisations=(("plain_first", False),))
OFF = replace(GUIDED, optimisations=GUIDED.optimisations + (("cut_summaries", False),))


def results(name: str, options: Options) -> list[AssertionResult]:
    path = PROGRAMS / name
    return [r for r in check_text(path.read_text(), str(path), options) if isinstance(r, AssertionResult)]


@pytest.mark.parametrize("name,status", [
    ("bounds/lost_update_rounds.c", Status.VIOLATED),  # found at bound 4, after passes at 1 and 2 that cut
    ("loop_cut.c", Status.BOUNDED),  # cut at every bound: never a proof
])
def test_cut_runs_prune_and_the_verdict_is_the_same(name, status):
    [on] = results(name, GUIDED)
    [off] = results(name, OFF)
    assert on.status is off.status is status
    assert on.stats.counter("ag_cut_summaries") >= 1 and off.stats.counter("ag_cut_summaries") == 0
    if status is Status.VIOLATED:
        assert on.trace is not None and on.trace.steps


def test_the_shallow_passes_of_a_lost_update_prune_instead_of_giving_way():
    [on] = results("bounds/lost_update_rounds.c", GUIDED)
    [off] = results("bounds/lost_update_rounds.c", OFF)
    assert on.stats.counter("deepening_passes") == 3  # bounds 1 and 2 ran to their end, 4 found it
    assert on.stats.counter("ag_pruned_summary") >= 1
    assert on.stats.counter("deepening_runs") + on.stats.runs < (off.stats.counter("deepening_runs") + off.stats.runs) / 10
