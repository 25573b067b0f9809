"""Rendering check results as text, JSON and SARIF (hand-built results)."""

import re
from dataclasses import replace

from distaff.analysis.check import Options
from distaff.analysis.report import (
    Finding, FindingKind, Reason, Status, stats_from_json, trace_from_json,
)
from distaff.server import render, wording
from distaff.server.render import FileReport
from tests.cli.reports import PATH, RACE_TRACE, deadlock, holds, syntax, unknown, violated

GCC_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): (?P<msg>.+)$")
OPTIONS = Options(timeout_s=5.0)


def report(*items, time_s=0.41, positions=()):
    return FileReport(
        PATH,
        tuple(i for i in items if not isinstance(i, Finding)),
        tuple(i for i in items if isinstance(i, Finding)),
        time_s, positions,
    )


def parsed(lines):
    """GCC-style lines (all but the summary) as match objects."""
    out = [GCC_LINE.match(line) for line in lines[:-1]]
    assert all(out), [line for line, m in zip(lines, out) if not m]
    return out


def test_violation_is_an_error_line_followed_by_its_inputs_and_schedule():
    lines = render.text_lines(report(violated(25)), OPTIONS)
    rows = parsed(lines)
    assert lines[0] == "prog.c:25:5: error: assertion `hits == 2` can fail with n = 3"
    assert [r["sev"] for r in rows[1:]] == ["note"] * (1 + len(RACE_TRACE.steps))
    assert rows[1]["msg"] == "input n = 3" and rows[1]["line"] == "20"
    assert [r["msg"] for r in rows[2:]] == [f"[{s.thread}] {s.action}" for s in RACE_TRACE.steps]
    assert [int(r["line"]) for r in rows[2:]] == [s.span.line for s in RACE_TRACE.steps]


def test_a_proof_and_a_bounded_answer_read_differently():
    exact = render.text_lines(report(holds(30)), OPTIONS)[0]
    bounded = render.text_lines(report(holds(30, bounded=True)), OPTIONS)[0]
    assert exact == "prog.c:30:5: note: assertion `a <= b` holds for all interleavings under sequential consistency: 7 runs, 2 pruned"
    # not a note: a bounded search is not a proof, and says which loop the bound stopped
    assert bounded == ("prog.c:30:5: warning: assertion `a <= b` has no violation within unwind 8, not a proof "
                       "(unwind 8 stopped main's loop at line 20; checked on 7 paths): "
                       "7 runs, 2 pruned, 2 cut by the bound")
    unreached = unknown(30, Reason.BOUND, "unwind 8 stopped main's loop at line 20; a larger --unwind may reach it")
    assert render.text_lines(report(unreached), OPTIONS)[0] == (
        "prog.c:30:5: warning: assertion `x != 3` undecided (not reached within the bound: unwind 8 stopped "
        "main's loop at line 20; a larger --unwind may reach it): 2 runs")


def test_undecided_assertions_are_warnings_that_say_why():
    def first(a, options=OPTIONS):
        return render.text_lines(report(a), options)[0]

    assert first(unknown(40)) == "prog.c:40:5: warning: assertion `x != 3` undecided (timeout after 5 s): 2 runs"
    assert "(run limit of 9 reached)" in first(unknown(40, Reason.MAX_RUNS), Options(max_runs=9))
    assert "not checked (the file has syntax errors)" in first(
        unknown(40, Reason.SKIPPED, "the file has syntax errors"))
    assert "not checked (cancelled)" in first(unknown(40, Reason.CANCELLED))
    assert not first(unknown(40)).startswith("prog.c:40:5: note")


def test_findings_carry_their_kind_once():
    dl = render.text_lines(report(deadlock(12)), OPTIONS)
    assert dl[0] == "prog.c:12:5: warning: deadlock: threads t#1, u#2 wait for each other"
    assert dl[1:3] == ["prog.c:12:5: note: [t#1] lock a", "prog.c:18:5: note: [u#2] lock b"]
    assert wording.finding_message(syntax())[1] == "syntax error: unexpected '}'"
    already = Finding(FindingKind.SYNTAX, syntax().span, "syntax error: missing ';'")
    assert wording.finding_message(already) == ("error", "syntax error: missing ';'")
    div = Finding(FindingKind.ERROR, syntax().span, "division by zero")
    assert wording.finding_message(div) == ("error", "division by zero")
    unsup = Finding(FindingKind.UNSUPPORTED, syntax().span, "setjmp")
    assert wording.finding_message(unsup) == ("warning", "unsupported: setjmp")


def test_output_is_in_source_order_whatever_order_results_came_in():
    items = [unknown(40), deadlock(12), holds(30), violated(25)]
    forward = render.text_lines(report(*items), OPTIONS)
    backward = render.text_lines(report(*reversed(items)), OPTIONS)
    assert forward == backward
    heads = [m for m in parsed(forward) if m["sev"] != "note" or "assertion" in m["msg"]]
    assert [int(m["line"]) for m in heads] == [12, 25, 30, 40]


def test_summary_counts_statuses_findings_runs_and_time():
    lines = render.text_lines(report(violated(25), holds(30), deadlock(12)), OPTIONS)
    assert lines[-1] == (
        "prog.c: 2 assertions: 1 violated, 1 holds; 1 deadlock; 10 runs (8 full, 2 pruned), 0.41 s"
    )
    assert not GCC_LINE.match(lines[-1])
    one = render.summary_line(report(holds(30), positions=((25, 9), (36, 9))))
    assert one == "prog.c (from 25:9, 36:9): 1 assertion: 1 holds; 7 runs (5 full, 2 pruned), 0.41 s"


def test_context_labels_every_assertion_of_a_context_check():
    line = render.text_lines(report(holds(30), positions=((25, 9),)), OPTIONS)[0]
    assert line.endswith("[context: 25:9]")


def test_json_has_every_assertion_once_with_the_issue_3_fields():
    items = [violated(25), holds(30, bounded=True), unknown(40), deadlock(12), syntax(3)]
    doc = render.json_document([report(*items)], OPTIONS, "9.9")
    assert doc["version"] == 2 and len(doc["files"]) == 1
    f = doc["files"][0]
    assert f["path"] == PATH
    assert [(a["line"], a["status"]) for a in f["assertions"]] == [
        (25, "violated"), (30, "bounded"), (40, "unknown")]
    for a in f["assertions"]:
        assert {"line", "column", "status", "reached_paths", "stats"} <= a.keys()
        assert ("counterexample" in a) == (a["status"] == "violated")
    assert f["assertions"][1]["stops"] == [{"function": "main", "line": 20, "what": "loop", "times": 2}]
    assert f["assertions"][2]["reason"] == "timeout"
    assert [(x["kind"], x["line"]) for x in f["findings"]] == [("syntax", 3), ("deadlock", 12)]
    assert "trace" in f["findings"][1] and "trace" not in f["findings"][0]
    assert set(f["stats"]) >= {"runs", "full_runs", "pruned_runs", "bound_cuts", "solver_calls", "time_s"}
    assert f["stats"]["runs"] == 3 + 7 + 2 and f["stats"]["time_s"] == 0.41


def test_json_counterexample_reads_back_as_the_same_trace():
    doc = render.json_document([report(violated(25))], OPTIONS, "9.9")
    a = doc["files"][0]["assertions"][0]
    assert trace_from_json(a["counterexample"]) == RACE_TRACE
    assert stats_from_json(a["stats"]) == violated(25).stats


def test_sarif_has_the_required_fields_and_the_schedule_as_thread_flows():
    log = render.sarif_log([report(violated(25), holds(30), deadlock(12))], OPTIONS, "9.9")
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-schema-2.1.0.json")
    (run,) = log["runs"]
    assert run["tool"]["driver"]["name"] == "distaff"
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        assert result["message"]["text"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    by_rule = {r["ruleId"]: r for r in run["results"]}
    bad = by_rule["assertion-violated"]
    assert bad["level"] == "error" and bad["kind"] == "fail"
    assert by_rule["assertion-holds"]["kind"] == "pass" and "codeFlows" not in by_rule["assertion-holds"]
    flows = bad["codeFlows"][0]["threadFlows"]
    assert [f["id"] for f in flows] == ["main", "visit#1", "visit#2"]
    orders = sorted(loc["executionOrder"] for f in flows for loc in f["locations"])
    assert orders == list(range(1, len(RACE_TRACE.steps) + 1))
    second = next(loc for f in flows for loc in f["locations"] if loc["executionOrder"] == 2)
    assert second["location"]["message"]["text"] == "[visit#1] read hits == 0"
    assert by_rule["deadlock"]["level"] == "warning"


def test_sarif_uris_are_relative_references_or_file_uris():
    assert render.artifact_uri("dir/my prog.c") == "dir/my%20prog.c"
    assert render.artifact_uri("/tmp/a.c") == "file:///tmp/a.c"


def test_status_order_drives_the_summary():
    r = report(holds(30), unknown(40), violated(25))
    assert ": 1 violated, 1 unknown, 1 holds;" in render.summary_line(r)
    assert Status.VIOLATED > Status.UNKNOWN > Status.HOLDS
