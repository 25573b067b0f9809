"""The regression gate's slice for CI (the whole corpus: bench/regress_bench.py).

Every program of ``bench/regress/programs`` that the last release answered
within ``QUICK_S`` (its committed baseline, ``bench/regress/baseline.json``)
is checked as the command line checks it: never a wrong answer; an answer the
last release got right is still decided and right; and none takes ten times
as long (past a floor that start-up noise stays under)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.regress_bench import BASELINE, PROGRAMS, SLOW_FACTOR, answer_of, header, judge

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
    argv = [sys.executable, "-m", "distaff", "check", "--timeout", "30", "--format", "json", str(path)]
    if meta["PROPERTY"] == "unreach-call":
        argv[4:4] = ["--property", "unreach-call"]
    t0 = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120)
    took = time.monotonic() - t0
    now = {"answer": answer_of(json.loads(proc.stdout), meta["PROPERTY"]), "time_s": took}
    before = _baseline[name]
    assert judge(meta["EXPECT"], now) != "wrong", (now, meta)
    if judge(meta["EXPECT"], before) == "correct" and not before.get("unsound"):
        assert judge(meta["EXPECT"], now) == "correct", (before, now)
        assert took <= max(FLOOR_S, SLOW_FACTOR * before["time_s"]), (before, now)
