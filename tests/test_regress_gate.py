"""The regression gate's slice for CI (the whole corpus: bench/regress_bench.py).

Every program of ``bench/regress/programs`` that the last release answered
within ``QUICK_S`` (its committed baseline, ``bench/regress/baseline.json``)
is checked as the command line checks it: never a wrong answer; an answer the
last release got right is still decided and right; and none takes ten times
as long (past a floor that start-up noise stays under)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.regress_bench import BASELINE, PROGRAMS, SLOW_FACTOR, header, judge, run

ROOT = Path(__file__).resolve().parent.parent
QUICK_S = 4.0
FLOOR_S = 6.0  # a fresh interpreter on a busy CI machine

_baseline = json.loads(BASELINE.read_text())["results"] if BASELINE.exists() else {}
SLICE = sorted(name for name, r in _baseline.items() if r["time_s"] <= QUICK_S and (PROGRAMS / name).exists())


def test_the_baseline_covers_the_corpus_and_the_slice_is_a_real_share_of_it():
    names = {p.name for p in PROGRAMS.glob("*.c")}
    assert set(_baseline) == names
    assert len(SLICE) >= 20


@pytest.mark.parametrize("name", SLICE)
def test_no_answer_is_lost_wrong_or_ten_times_slower(name):
    path = PROGRAMS / name
    meta = header(path.read_text())
    now = run(None, path, 30.0)
    took = now["time_s"]
    before = _baseline[name]
    assert judge(meta["EXPECT"], now) != "wrong", (now, meta)
    if judge(meta["EXPECT"], before) == "correct" and not before.get("unsound"):
        assert judge(meta["EXPECT"], now) == "correct", (before, now)
        assert took <= max(FLOOR_S, SLOW_FACTOR * before["time_s"]), (before, now)
