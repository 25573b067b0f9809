"""Programs in the styles of concurrent libraries (tests/programs/realworld/):
an intrusive list with container_of, a seqlock with kernel-style macros, a
Michael-Scott queue, a Chase-Lev deque, an MCS lock, a flat-combining
counter and a queued spin lock on a 64-bit word, each with a broken variant.
Each lowers with no finding, and gets the verdicts and findings its header
states in every mode, at the header's unwind bound. The correct ones run
natively without failing an assertion too."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, Reason, Status
from tests.explore.expectations import PROGRAMS, read

REALWORLD = sorted(p.name for p in (PROGRAMS / "realworld").glob("*.c"))
MODES = ("baseline", "dpor", "dpor-ag")
# baseline explores every interleaving of every step: past this many runs
# per assertion it stops (undecided, max-runs), and that row is not compared
BASELINE_CAP = 2000
STATUS = {"holds": (Status.HOLDS, None), "bounded": (Status.BOUNDED, None), "violated": (Status.VIOLATED, None),
          "unreachable": (Status.UNREACHABLE, None), "bound-reached": (Status.UNKNOWN, Reason.BOUND)}
CC = shutil.which("cc") or shutil.which("gcc")

_cache: dict = {}


def run(name: str, mode: str):
    key = (name, mode)
    if key not in _cache:
        exp = read(f"realworld/{name}")
        path = PROGRAMS / "realworld" / name
        options = Options(mode=mode, timeout_s=120, unwind=exp.unwind or Options().unwind,
                          max_runs=BASELINE_CAP if mode == "baseline" else None)
        program = parse_program(path.read_text(), str(path))
        items = list(check(program, options))
        _cache[key] = ([i for i in items if isinstance(i, AssertionResult)],
                       [i for i in items if isinstance(i, Finding)])
    return _cache[key]


def test_there_is_a_program_in_each_style_with_a_broken_variant():
    stems = {n.removesuffix(".c") for n in REALWORLD}
    assert {"list_container_of", "seqlock", "ms_queue", "chase_lev", "mcs_lock", "flat_combining",
            "qspinlock"} <= stems
    for stem in stems - {s for s in stems if s.endswith("_bad")}:
        assert f"{stem}_bad" in stems, stem
        exp = read(f"realworld/{stem}_bad.c")
        assert "violated" in {exp.verdict, *exp.verdicts.values()}, stem
    text = " ".join((PROGRAMS / "realworld" / n).read_text() for n in REALWORLD)
    for construct in ("container_of", "typeof(", "offsetof(", "READ_ONCE", "WRITE_ONCE", '("" ::: "memory")',
                      "atomic_uint_fast64_t", "atomic_int_fast64_t", "_Atomic(struct", "atomic_flag",
                      "_explicit(", "atomic_thread_fence", "return (struct request)", "static struct pair snapshot(",
                      "union {", "__builtin_expect"):
        assert construct in text, construct


@pytest.mark.parametrize("name", REALWORLD)
def test_lowers_with_no_unsupported_construct(name):
    path = PROGRAMS / "realworld" / name
    program = parse_program(path.read_text(), str(path))
    assert program.findings == ()
    assert program.assertions()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", REALWORLD)
def test_verdicts_and_findings_as_the_header_says(name, mode):
    exp = read(f"realworld/{name}")
    results, findings = run(name, mode)
    assert results
    for r in results:
        if mode == "baseline" and r.reason is Reason.MAX_RUNS:
            continue
        want = exp.verdict_at(r.span.line)
        assert want is not None, f"{name}:{r.span.line} has no expected verdict"
        status, reason = STATUS[want]
        assert r.status is status, (name, mode, r.span.line, r.status, r.reason, r.message)
        if reason is not None:
            assert r.reason is reason, (name, mode, r.span.line, r.message)
        if status is Status.VIOLATED:
            assert r.trace is not None and r.trace.steps
    reported = sorted((f.kind.value, f.span.line) for f in findings)
    if exp.no_findings:
        assert reported == []
    capped = any(r.reason is Reason.MAX_RUNS for r in results)  # (baseline) not every finding met
    for kind, line, start in [] if capped else exp.findings:
        match = [f for f in findings if f.kind.value == kind and (line is None or f.span.line == line)]
        assert match, (kind, line, reported)
        assert any(f.message.startswith(start) for f in match), [f.message for f in match]
    assert {k for k, _ in reported} <= {k for k, _, _ in exp.findings}


@pytest.mark.parametrize("name", REALWORLD)
def test_the_reductions_agree_with_each_other(name):
    dpor, dpor_findings = run(name, "dpor")
    ag, ag_findings = run(name, "dpor-ag")
    assert [(r.id, r.status, r.reason) for r in dpor] == [(r.id, r.status, r.reason) for r in ag]
    def places(findings):
        return sorted((f.kind.value, f.span.line, f.span.col) for f in findings)

    assert places(dpor_findings) == places(ag_findings)


@pytest.mark.skipif(CC is None, reason="no C compiler to run the programs natively")
@pytest.mark.parametrize("name", [n for n in REALWORLD if not n.endswith("_bad.c")])
def test_the_correct_programs_run_natively_without_failing(name):
    with tempfile.TemporaryDirectory() as d:
        exe = Path(d) / "p"
        subprocess.run([CC, "-std=gnu11", "-O1", "-w", "-pthread", "-o", str(exe),
                        str(PROGRAMS / "realworld" / name)], check=True)
        for _ in range(20):
            done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=20)
            assert done.returncode == 0, done.stderr
