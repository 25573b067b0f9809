"""The search for deadlocks and run-time errors after the assertions has a
budget of its own and says how it ended, everywhere a result is shown; the
command prints each verdict as it is decided and returns once the search's
budget is spent.

``tests/programs/scale/ifwait_queue4.c`` is the shape that kept the command
running: its assertion fails in the first second, and the search that follows
has hundreds of thousands of runs to go."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import jsonschema

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, FindingsSearch, SearchEnd, Status
from distaff.server import api

ROOT = Path(__file__).resolve().parents[1]
QUEUE = ROOT / "tests" / "programs" / "scale" / "ifwait_queue4.c"
RACY = ROOT / "examples" / "racy_counter.c"
LOCKED = ROOT / "examples" / "locked_counter.c"


def searched(path: Path, options: Options) -> tuple[list, FindingsSearch]:
    items = list(check_text(path.read_text(), str(path), options))
    searches = [i for i in items if isinstance(i, FindingsSearch)]
    assert len(searches) == 1 and items[-1] is searches[0]  # exactly one, after everything else
    return [i for i in items if isinstance(i, AssertionResult)], searches[0]


def test_a_search_past_its_budget_stops_there_and_says_it_was_cut():
    start = time.monotonic()
    [a], search = searched(QUEUE, Options(findings_timeout_s=1.0))
    took = time.monotonic() - start
    assert a.status is Status.VIOLATED
    assert search.end is SearchEnd.CUT and not search.complete
    assert search.budget_s == 1.0 and search.runs > 0
    assert took < 1.0 + 5.0  # the violation takes well under a second


def test_a_search_within_its_budget_finishes_or_is_not_needed():
    _, search = searched(RACY, Options(mode="dpor"))
    assert search.end is SearchEnd.FINISHED and search.complete and search.runs > 0
    # the assertion's check explored every run of a program that holds: nothing left to search
    _, covered = searched(LOCKED, Options(mode="dpor"))
    assert covered.end is SearchEnd.COVERED and covered.runs == 0
    _, off = searched(RACY, Options(findings=False))
    assert off.end is SearchEnd.OFF and not off.complete


def test_the_search_gets_no_more_than_a_sub_check_and_than_the_whole():
    _, search = searched(QUEUE, Options(timeout_s=0.5))  # findings_timeout_s 10 by default
    assert search.end is SearchEnd.CUT and search.budget_s == 0.5
    _, unlimited = searched(QUEUE, Options(findings_timeout_s=None, total_timeout_s=2.0))
    assert unlimited.end is SearchEnd.CUT and unlimited.budget_s is not None and unlimited.budget_s <= 2.0


def test_the_search_in_a_pool_process_says_how_it_ended_too():
    # two workers and the memory cap: the search runs in a forked process
    [a], search = searched(QUEUE, Options(findings_timeout_s=1.0, workers=2, max_memory_mb=2048))
    assert a.status is Status.VIOLATED and search.end is SearchEnd.CUT


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "distaff", "check", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_the_command_says_the_search_was_cut_in_text_json_and_sarif():
    text = run_cli("--findings-timeout", "1", str(QUEUE))
    assert text.returncode == 1, text.stderr
    summary = text.stdout.strip().splitlines()[-1]
    assert "1 violated" in summary
    assert "the search for deadlocks and run-time errors stopped at its time budget of 1.0 s after" in summary

    doc = json.loads(run_cli("--findings-timeout", "1", "--format", "json", str(QUEUE)).stdout)
    jsonschema.validate(doc, api.schema("result"))
    assert doc["options"]["findings_timeout_s"] == 1.0
    search = doc["files"][0]["findings_search"]
    assert (search["end"], search["complete"], search["budget_s"]) == ("cut", False, 1.0)

    log = json.loads(run_cli("--findings-timeout", "1", "--format", "sarif", str(QUEUE)).stdout)
    jsonschema.validate(log, api.schema("sarif"))
    [note] = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["descriptor"]["id"] == "findings-search" and "stopped at its time budget" in note["message"]["text"]


def test_a_finished_search_adds_nothing_to_the_summary_and_says_so_in_json():
    text = run_cli("--mode", "dpor", str(RACY))
    assert "search for deadlocks" not in text.stdout
    doc = json.loads(run_cli("--mode", "dpor", "--format", "json", str(RACY)).stdout)
    assert doc["files"][0]["findings_search"]["end"] == "finished"
    assert doc["files"][0]["findings_search"]["complete"] is True


def test_the_verdict_is_printed_before_the_search_ends():
    proc = subprocess.Popen([sys.executable, "-m", "distaff", "check", "--findings-timeout", "8", str(QUEUE)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        first = proc.stdout.readline()
        running = proc.poll() is None  # the search has seconds to go
        rest, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert "error: assertion `job > 0` can fail" in first
    assert running
    lines = rest.strip().splitlines()
    assert sum("can fail" in line for line in [first, *lines]) == 1  # printed once, not again at the end
    assert "stopped at its time budget of 8.0 s" in lines[-1]


def test_the_flag_takes_seconds_or_none():
    ok = run_cli("--findings-timeout", "none", "--timeout", "1", "--format", "json", str(RACY))
    assert json.loads(ok.stdout)["options"]["findings_timeout_s"] is None
    bad = run_cli("--findings-timeout", "soon", str(RACY))
    assert bad.returncode == 2 and "not a number of seconds: 'soon'" in bad.stderr
    assert "Traceback" not in bad.stderr
