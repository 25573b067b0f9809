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

