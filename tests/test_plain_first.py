"""dpor-ag with no summary text to print (the command line without
``--summaries``) explores with plain DPOR first, for a second at most
(optimisation ``plain_first``, :func:`distaff.analysis.subcheck._plain_first`):
same verdicts, the plain exploration's runs when it decided, the guided one's
when it gave way, and no search for findings after a plain exploration that
ran to its end."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from distaff.analysis import subcheck
from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Finding, FindingsSearch, SearchEnd, Status
from distaff.server import cli

ROOT = Path(__file__).resolve().parents[1]
LOCKED = ROOT / "examples" / "locked_counter.c"
RACY = ROOT / "examples" / "racy_counter.c"
DEADLOCK = ROOT / "examples" / "deadlock.c"
PRODCONS = ROOT / "tests" / "programs" / "prodcons.c"
CAS = ROOT / "tests" / "programs" / "spin" / "cas_counter.c"  # 30 runs in dpor, 15 in dpor-ag
SEQLOCK = ROOT / "tests" / "programs" / "spin" / "seqlock.c"  # 3,965 runs in dpor, 52 in dpor-ag

QUIET = Options(mode="dpor-ag", workers=1, summary_text=False)
GUIDED_ONLY = replace(QUIET, optimisations=(("plain_first", False),))


def items(path: Path, options: Options) -> tuple[list[AssertionResult], list[Finding], FindingsSearch]:
    out = list(check_text(path.read_text(), str(path), options))
    results = [i for i in out if isinstance(i, AssertionResult)]
    findings = [i for i in out if isinstance(i, Finding)]
    (search,) = [i for i in out if isinstance(i, FindingsSearch)]
    return results, findings, search


@pytest.mark.parametrize("path,status", [(LOCKED, Status.HOLDS), (RACY, Status.VIOLATED), (PRODCONS, Status.HOLDS),
                                         (CAS, Status.HOLDS)])
def test_a_small_program_is_decided_by_plain_dpor_with_its_runs(path, status):
    (quiet,), _, _ = items(path, QUIET)
    (plain,), _, _ = items(path, replace(QUIET, mode="dpor"))
    (guided,), _, _ = items(path, GUIDED_ONLY)
    assert quiet.status is plain.status is guided.status is status
    assert quiet.mode == "dpor-ag"  # the mode asked for, decided the cheaper way
    assert quiet.stats.counter("plain_first_decided") == 1
    assert quiet.stats.runs == plain.stats.runs
    assert guided.stats.counter("plain_first_decided") == guided.stats.counter("plain_first_runs") == 0
    if status is Status.VIOLATED:
        assert quiet.trace is not None and quiet.trace.steps


def test_a_plain_exploration_to_its_end_makes_the_findings_search_unneeded():
    _, _, search = items(CAS, QUIET)
    assert search.end is SearchEnd.COVERED
    _, _, search = items(CAS, GUIDED_ONLY)
    assert search.end is SearchEnd.FINISHED  # a pruned exploration misses deadlocks: the search runs


def test_the_deadlock_is_still_reported():
    (quiet,), findings, _ = items(DEADLOCK, QUIET)
    assert quiet.status is Status.HOLDS and quiet.stats.counter("plain_first_decided") == 1
    assert [f.kind.value for f in findings] == ["deadlock"]


@pytest.mark.parametrize("cap_s", [0.002, 1e-6])  # the second ends before any run does, as on a slow machine
def test_past_its_time_the_plain_exploration_gives_way_to_the_guided_one(monkeypatch, cap_s):
    monkeypatch.setattr(subcheck, "PLAIN_FIRST_S", cap_s)
    (quiet,), _, _ = items(SEQLOCK, QUIET)
    (guided,), _, _ = items(SEQLOCK, GUIDED_ONLY)
    assert quiet.status is guided.status is Status.HOLDS
    assert quiet.stats.counter("plain_first_decided") == 0
    # what the plain exploration spent is counted, its time even when no run ended in it (a slow machine)
    assert quiet.stats.counter("plain_first_ms") >= round(cap_s * 1000)
    assert "plain_first_runs" in dict(quiet.stats.counters)
    assert (quiet.stats.runs, quiet.stats.pruned_runs) == (guided.stats.runs, guided.stats.pruned_runs)


def test_the_editor_and_the_api_keep_their_summaries():
    (shown,), _, _ = items(LOCKED, replace(QUIET, summary_text=True))
    assert shown.summaries and shown.stats.counter("plain_first_decided") == 0


def test_a_run_limit_is_the_guided_explorations(capsys):
    (limited,), _, _ = items(SEQLOCK, replace(QUIET, max_runs=3))
    assert limited.stats.runs <= 3 and limited.stats.counter("plain_first_decided") == 0


def test_the_command_line_says_how_it_was_decided(capsys):
    cli.main(["check", "--format", "json", str(LOCKED)])
    (j,) = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    assert j["status"] == "holds" and j["mode"] == "dpor-ag"
    assert j["stats"]["counters"]["plain_first_decided"] == 1
