"""Limits that hold on the command line: ``--max-memory MB`` gives each
sub-check that much address space (in a process of its own, or in the
command's process capped for its first 0.1 s); one that needs more stops
there, and its assertion is undecided ("memory limit"), never a crash of the
whole check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOG = ROOT / "tests" / "programs" / "limits" / "memory_hog.c"


def distaff(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "distaff", *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=240)


def test_a_sub_check_over_its_memory_limit_is_undecided():
    p = distaff("check", "--max-memory", "300", "--timeout", "120", str(HOG))
    assert p.returncode == 3, p.stdout + p.stderr
    assert "warning: assertion `y != 12345` undecided (memory limit of 300 MB reached)" in p.stdout
    assert "Traceback" not in p.stderr and p.stderr == ""
    p = distaff("check", "--max-memory", "300", "--timeout", "120", "--format", "json", str(HOG))
    doc = json.loads(p.stdout)
    [a] = doc["files"][0]["assertions"]
    assert (a["status"], a["reason"]) == ("unknown", "memory-limit") and doc["options"]["max_memory_mb"] == 300


def test_a_program_within_its_memory_limit_is_decided_as_without_one():
    racy = str(ROOT / "examples" / "racy_counter.c")
    limited, free = distaff("check", "--max-memory", "1500", racy), distaff("check", racy)
    assert limited.returncode == free.returncode == 1
    assert limited.stdout.splitlines()[:-1] == free.stdout.splitlines()[:-1]  # all but the timed summary
