"""Under C11 a program with weak atomics is first explored as under
sequential consistency for up to a second (optimisation ``sc_first``,
distaff.analysis.subcheck): every sequentially consistent execution is one
C11 allows, so a violation found there is the answer, and says so; a bug
only weak memory shows is still found by the execution graphs after it."""

from __future__ import annotations

import json
from pathlib import Path

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Status
from distaff.analysis.subcheck import SC_FIRST_TEXT
from distaff.analysis.symex.c11 import weak_steps
from distaff.server import cli

ROOT = Path(__file__).resolve().parents[2]
LATE_BUMP = ROOT / "tests/programs/c11/tas_late_bump.c"
MP_RELAXED = ROOT / "tests/programs/c11/mp_relaxed.c"


def _results(path: Path, **kw) -> list[AssertionResult]:
    options = Options(memory_model="rc11", timeout_s=60, findings=False, **kw)
    return [r for r in check_text(path.read_text(), str(path), options) if isinstance(r, AssertionResult)]


def test_a_bug_sequential_consistency_shows_is_found_there_and_said_so():
    (r,) = _results(LATE_BUMP)
    assert r.status is Status.VIOLATED
    assert r.message.endswith(SC_FIRST_TEXT), r.message
    assert r.stats.counter("sc_first_decided") == 1
    assert not weak_steps(s.action for s in r.trace.steps)  # an interleaving: every read the latest write


def test_off_the_execution_graphs_find_it_and_their_trace_says_which_write_each_read_saw():
    (r,) = _results(LATE_BUMP, optimisations=(("sc_first", False),))
    assert r.status is Status.VIOLATED
    assert SC_FIRST_TEXT not in r.message
    assert r.stats.counter("sc_first_decided") == 0 and r.stats.counter("graph_rc11") > 0
    assert any("(written at line" in s.action or "(the initial value" in s.action for s in r.trace.steps)


def test_a_bug_only_weak_memory_shows_is_found_after_it():
    (r,) = _results(MP_RELAXED)
    assert r.status is Status.VIOLATED
    assert SC_FIRST_TEXT not in r.message
    assert r.stats.counter("sc_first_runs") > 0 and r.stats.counter("sc_first_decided") == 0
    assert weak_steps(s.action for s in r.trace.steps)


def test_the_command_line_says_it_in_text_and_json(capsys):
    assert cli.main(["check", "--memory-model", "rc11", "--no-findings", str(LATE_BUMP)]) == cli.EXIT_FOUND
    assert f"can fail ({SC_FIRST_TEXT})" in capsys.readouterr().out
    cli.main(["check", "--memory-model", "rc11", "--no-findings", "--format", "json", str(LATE_BUMP)])
    (a,) = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    assert a["status"] == "violated" and SC_FIRST_TEXT in a["message"]
    assert a["stats"]["counters"]["sc_first_decided"] == 1
