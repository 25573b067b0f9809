"""Budgets that hold on every path: a sub-check that does not heed its
deadline (a z3 phase that ignores interrupts, simulated by a sleep that never
polls) is stopped by its runner, so a check with a time budget ends within
about half a second of it, in a forked process (under a memory cap) and on a
thread (without one); a sub-check over its memory cap is undecided with
reason memory-limit. The command line has a default memory cap and ends
within its ``--timeout``."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from distaff.analysis import check as engine
from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Reason, Status
from tests.explore.expectations import PROGRAMS

THREE = PROGRAMS / "limits" / "three_timeouts.c"  # three sites whose checks never finish on their own


def _deaf(program, site, options, cancel, context):
    """A sub-check stuck where nothing polls its budget or its cancel token."""
    time.sleep(60)
    raise AssertionError("not stopped")


def _greedy(program, site, options, cancel, context):
    """A sub-check that needs more memory than its cap."""
    hog = bytearray(3 << 30)
    return hog


def verdicts(options: Options) -> tuple[list[AssertionResult], float]:
    program = parse_program(THREE.read_text(), str(THREE))
    t0 = time.monotonic()
    out = [r for r in check(program, options) if isinstance(r, AssertionResult)]
    return out, time.monotonic() - t0


@pytest.mark.parametrize("memory,workers,trial", [(2048, 1, 0.0), (2048, 2, 0.0), (0, 1, 0.1), (2048, 1, 0.2)],
                         ids=["forked", "forked-two-workers", "thread", "trial-then-spawned"])
def test_a_sub_check_that_ignores_its_deadline_is_stopped(monkeypatch, memory, workers, trial):
    """(A deaf sub-check in the trial, this process's first ``trial``
    seconds, does not end when stopped: the pool spawns its processes then,
    and they check the rest.)"""
    monkeypatch.setattr(engine, "run", _deaf)
    monkeypatch.setattr(engine, "POOL_AFTER_S", trial)
    out, took = verdicts(Options(total_timeout_s=1.0, max_memory_mb=memory, workers=workers, findings=False))
    # every assertion is answered, undecided for the time, and the check ends
    # within the budget and the runner's grace (noise on a shared machine aside)
    assert sorted(r.span.line for r in out) == [26, 27, 28]
    assert all(r.status is Status.UNKNOWN and r.reason is Reason.TIMEOUT for r in out)
    assert took < 1.0 + engine.GRACE_S + 1.0, took


def test_a_sub_check_over_its_memory_cap_is_undecided_memory_limit(monkeypatch):
    monkeypatch.setattr(engine, "run", _greedy)
    out, _ = verdicts(Options(max_memory_mb=512, findings=False))
    assert len(out) == 3
    assert all(r.status is Status.UNKNOWN and r.reason is Reason.MEMORY for r in out), [r.message for r in out]


@pytest.mark.parametrize("workers", ["1", "auto"])
def test_the_command_line_ends_within_its_timeout(workers):
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "distaff", "check", "--timeout", "3", "--workers", workers,
                           "--format", "json", str(THREE)], capture_output=True, text=True)
    took = time.monotonic() - t0
    assert proc.returncode == 3, proc.stderr  # undecided
    assert '"reason": "timeout"' in proc.stdout
    # the interpreter's start and the imports come on top of the budget
    assert took < 3 + 1 + 2.0, took


def test_the_command_line_caps_memory_by_default_and_says_so():
    out = subprocess.run([sys.executable, "-m", "distaff", "check", "--help"], capture_output=True, text=True).stdout
    assert f"default {engine.DEFAULT_MEMORY_MB}" in " ".join(out.split())
    doc = subprocess.run([sys.executable, "-m", "distaff", "check", "--format", "json",
                          str(PROGRAMS / "racy_counter.c")], capture_output=True, text=True).stdout
    assert f'"max_memory_mb": {engine.DEFAULT_MEMORY_MB}' in doc
