"""The malloc thresholds set for z3's contexts (analysis/symex/heap.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CALL = "from distaff.analysis.symex.heap import keep_heap; print(keep_heap(), keep_heap())"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_the_thresholds_are_set_once_and_can_be_left_alone():
    env = {k: v for k, v in os.environ.items() if k != "DISTAFF_KEEP_HEAP"}
    out = subprocess.run([sys.executable, "-c", CALL], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["True", "True"]
    out = subprocess.run([sys.executable, "-c", CALL], capture_output=True, text=True, check=True,
                         env={**env, "DISTAFF_KEEP_HEAP": "0"})
    assert out.stdout.split() == ["False", "False"]



def test_the_collector_is_quiet_while_explorations_run_and_restored_after(monkeypatch):
    import gc
    import threading

    from distaff.analysis.symex.heap import EXPLORE_THRESHOLDS, quiet_collector
    monkeypatch.delenv("DISTAFF_QUIET_GC", raising=False)
    before = gc.get_threshold()
    assert before != EXPLORE_THRESHOLDS
    seen = []
    entered, leave = threading.Event(), threading.Event()

    def other():
        with quiet_collector():
            entered.set()
            leave.wait(5)
        seen.append(gc.get_threshold())

    with quiet_collector():
        assert gc.get_threshold() == EXPLORE_THRESHOLDS
        t = threading.Thread(target=other)
        t.start()
        entered.wait(5)
    # the other exploration still runs: its thresholds stay
    assert gc.get_threshold() == EXPLORE_THRESHOLDS
    leave.set()
    t.join(5)
    assert seen == [before] and gc.get_threshold() == before


def test_the_collector_can_be_left_alone(monkeypatch):
    import gc

    from distaff.analysis.symex.heap import quiet_collector
    monkeypatch.setenv("DISTAFF_QUIET_GC", "0")
    before = gc.get_threshold()
    with quiet_collector():
        assert gc.get_threshold() == before
    assert gc.get_threshold() == before
