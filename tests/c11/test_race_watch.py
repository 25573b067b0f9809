"""Under C11 a program whose atomics are all seq_cst is explored as under
sequential consistency (RC11's DRF-SC) and watched for data races on the
way (distaff.analysis.explore.races.watches_races): the same runs, the same
pruning, the same verdicts, and the races its runs show; a silent store (one
that writes what memory holds) is a write to the race detector."""

from __future__ import annotations

from pathlib import Path

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Finding, FindingKind

ROOT = Path(__file__).resolve().parents[2]


def _check(path: Path, model: str, **kw):
    text = path.read_text()
    items = list(check_text(text, str(path), Options(mode="dpor-ag", memory_model=model, timeout_s=60, **kw)))
    results = [(r.span.line, r.status, r.stats.runs, r.stats.pruned_runs) for r in items if isinstance(r, AssertionResult)]
    races = {tuple(sorted(s.span.line for s in f.trace.steps if s.action.endswith("[data race]")))
             for f in items if isinstance(f, Finding) and f.kind is FindingKind.DATA_RACE}
    return results, races


@pytest.mark.parametrize("name", ["examples/reorder.c", "bench/table2/programs/fib_race_ok.c",
                                  "bench/table2/programs/dekker.c"])
def test_the_same_runs_and_pruning_as_under_sc_and_the_races_besides(name):
    sc, sc_races = _check(ROOT / name, "sc")
    rc11, rc11_races = _check(ROOT / name, "rc11")
    assert rc11 == sc
    assert any(pruned for *_, pruned in sc), sc  # summaries pruned: the guided exploration ran
    assert not sc_races and rc11_races  # (each of these programs races on plain ints)


def test_the_races_are_those_reported_races_find():
    path = ROOT / "examples/reorder.c"
    _, watched = _check(path, "rc11")
    _, reported = _check(path, "sc", report_races=True)
    assert watched == reported == {(23, 29), (24, 29), (23, 30), (24, 30)}


def test_a_store_of_the_value_memory_holds_races_all_the_same():
    path = ROOT / "tests/programs/c11/silent_store_race.c"
    results, races = _check(path, "rc11")
    assert [status.name for _, status, *_ in results] == ["HOLDS"]
    assert races == {(15, 22)}
