"""The JSON and SARIF distaff writes keep to the JSON Schemas it ships
(server/schemas, read through :func:`distaff.server.api.schema`), on every
example and on programs that bring out each part of the documents; the
schemas reject a document with a key missing or a wrong value; and the Python
API (:func:`distaff.check_source`) gives what the command line prints."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from dataclasses import replace
from functools import cache

import jsonschema
import pytest

import distaff
from distaff import CancelToken, ContextError, FindingKind, Options, Reason, Status, check_source
from distaff.analysis.ir import DataModel
from distaff.analysis.options import MODES
from distaff.analysis.report import SearchEnd
from distaff.server import api, cli, render
from tests.cli.test_cli import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.c"))
PROGRAMS = ROOT / "tests" / "programs"

# A violation whose counterexample has an input (x = 7), and an assertion in a
# local header (its position names the header's file).
INPUTS = """\
#include <assert.h>
#include "check.h"
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    assert(x != 7);
    positive(x > 7 ? 1 : 2);
    return 0;
}
"""
HEADER = "static void positive(int v) { assert(v > 0); }\n"
SYNTAX = "#include <assert.h>\nint main(void) {\n    int x = ;\n    assert(x == 0);\n}\n"
NEVER_REACHED = "#include <assert.h>\nint main(void) {\n    int i = 0;\n    for (;;)\n        i++;\n    assert(i < 0);\n}\n"

# (id, arguments of `distaff check`); "{tmp}" is a folder holding the texts above.
CASES = [(f"example-{p.stem}", [str(p)]) for p in EXAMPLES] + [
    ("two-files", [str(ROOT / "examples" / "deadlock.c"), str(ROOT / "examples" / "reorder.c")]),
    ("inputs-and-header", ["{tmp}/inputs.c"]),
    ("depends-on", [str(PROGRAMS / "extern_writes_through_pointer.c")]),
    ("deadlock", [str(PROGRAMS / "two_failures_and_a_deadlock.c")]),
    ("runtime-error", [str(PROGRAMS / "heap.c")]),
    ("races", ["--races", str(PROGRAMS / "races" / "racy_counter.c")]),
    ("syntax-error", ["{tmp}/syntax.c"]),
    ("syntax-and-unsupported", [str(ROOT / "tests" / "fuzz" / "regressions" / "unterminated.c")]),
    ("timeout", ["--assertion-timeout", "0.3", str(PROGRAMS / "hard_solver.c")]),
    ("max-runs", ["--max-runs", "1", str(ROOT / "examples" / "producer_consumer.c")]),
    ("bound-reached", ["--unwind", "2", "{tmp}/never_reached.c"]),
    ("unreachable", [str(PROGRAMS / "unreach.c")]),
    ("holds-within-bound", [str(PROGRAMS / "loop_cut.c")]),
    ("from-context", ["--unwind", "2", "--from", "27", "--from", "34", str(PROGRAMS / "context" / "handoff.c")]),
    ("naive-context", ["--unwind", "2", "--naive-context", "--from", "27", "--from", "34:5",
                       str(PROGRAMS / "context" / "handoff.c")]),
    ("compile-commands", [str(PROGRAMS / "project" / "src" / "pool.c")]),
    ("link", ["--link", *(str(PROGRAMS / "multi" / "statics" / f) for f in ("main.c", "fast.c", "slow.c"))]),
    ("compile-commands-program", [str(PROGRAMS / "multi" / "tally" / "src" / "worker.c")]),
    ("no-entry", [str(PROGRAMS / "multi" / "unreached" / "retry.c")]),
    ("unreach-call", ["--property", "unreach-call", str(PROGRAMS / "spin_error_call.c")]),
    ("baseline-ilp32", ["--mode", "baseline", "--data-model", "ilp32", "--timeout", "20",
                        str(ROOT / "examples" / "reorder.c")]),
    ("summaries", ["--summaries", str(ROOT / "examples" / "reorder.c")]),
]
CASE_IDS = [case_id for case_id, _ in CASES]
JSON_ONLY = {"summaries"}  # flags that --format sarif refuses


@pytest.fixture(scope="module")
def texts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("texts")
    for name, text in (("inputs.c", INPUTS), ("check.h", HEADER), ("syntax.c", SYNTAX),
                       ("never_reached.c", NEVER_REACHED)):
        (folder / name).write_text(text)
    return folder


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(api.schema(name), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def problems(name: str, document: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(document)]


@cache
def _run(fmt: str, argv: tuple[str, ...]) -> tuple[int, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli.main(["check", "--format", fmt, *argv])
    return status, json.loads(out.getvalue())


def cli_output(fmt: str, case_id: str, tmp) -> tuple[int, dict]:
    """The exit status and document of one case (each run once per format)."""
    argv = dict(CASES)[case_id]
    return _run(fmt, tuple(a.replace("{tmp}", str(tmp)) for a in argv))


# --------------------------------------------------------------------------
# The command line's output


def test_the_schemas_are_valid_draft_2020_12_schemas():
    for name in api.SCHEMAS:
        jsonschema.Draft202012Validator.check_schema(api.schema(name))
    with pytest.raises(ValueError):
        api.schema("nope")


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_json_keeps_to_the_result_schema(case_id, texts):
    status, document = cli_output("json", case_id, texts)
    assert status in (0, 1, 2, 3)
    assert problems("result", document) == []


@pytest.mark.parametrize("case_id", [c for c in CASE_IDS if c not in JSON_ONLY])
def test_sarif_keeps_to_the_sarif_schema(case_id, texts):
    _, log = cli_output("sarif", case_id, texts)
    assert problems("sarif", log) == []
    # what a schema cannot say: each ruleIndex points at its rule, and a code
    # flow numbers its steps 1, 2, ... across the threads
    run = log["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        for flow in result.get("codeFlows", []):
            order = sorted(loc["executionOrder"] for t in flow["threadFlows"] for loc in t["locations"])
            assert order == list(range(1, len(order) + 1))


def test_the_selection_shows_every_verdict_reason_and_finding_the_schema_names(texts):
    seen: dict[str, set] = {"status": set(), "reason": set(), "kind": set(), "keys": set()}
    for case_id in CASE_IDS:
        for file in cli_output("json", case_id, texts)[1]["files"]:
            seen["keys"] |= set(file)
            for a in file["assertions"]:
                seen["status"].add(a["status"])
                seen["reason"].add(a["reason"])
                seen["keys"] |= set(a)
            for f in file["findings"]:
                seen["kind"].add(f["kind"])
                seen["keys"] |= set(f)
    assert seen["status"] == {s.label for s in Status}
    assert {"timeout", "max-runs", "skipped", "bound-reached", "no-entry", None} <= seen["reason"]
    assert {"deadlock", "error", "data-race", "syntax", "unsupported"} <= seen["kind"]
    assert {"counterexample", "trace", "summaries", "depends_on", "file", "from", "context", "ingredients",
            "sha256", "linked", "path"} <= seen["keys"]


def test_the_schemas_enumerate_what_the_code_writes():
    defs = api.schema("result")["$defs"]
    assert set(defs["assertion"]["properties"]["status"]["enum"]) == {s.label for s in Status}
    assert set(defs["assertion"]["properties"]["reason"]["enum"]) == {r.value for r in Reason} | {None}
    assert set(defs["finding"]["properties"]["kind"]["enum"]) == {k.value for k in FindingKind}
    assert set(defs["mode"]["enum"]) == set(MODES)
    assert set(defs["options"]["properties"]["data_model"]["enum"]) == {m.value for m in DataModel}
    assert set(defs["options"]["required"]) == set(render.options_json(Options()))
    assert set(defs["findings_search"]["properties"]["end"]["enum"]) == {e.value for e in SearchEnd}
    sarif = api.schema("sarif")["$defs"]
    assert sarif["ruleId"]["enum"] == [r.id for r in render._RULES]


VIOLATED = ROOT / "examples" / "racy_counter.c"


def _without(document, path):
    *parents, last = path
    for key in parents:
        document = document[key]
    del document[last]


def _set(value):
    def change(document, path):
        *parents, last = path
        for key in parents:
            document = document[key]
        document[last] = value
    return change


def _rename(new):
    def change(document, path):
        *parents, last = path
        for key in parents:
            document = document[key]
        document[new] = document.pop(last)
    return change


def _case_id(value) -> str:
    """``set-files-0-assertions-0-status``: the change, then where."""
    if isinstance(value, tuple):
        return "-".join(map(str, value))
    return value.__qualname__.split(".")[0].lstrip("_")


ASSERTION = ("files", 0, "assertions", 0)


@pytest.mark.parametrize("change, path", [
    (_without, ("version",)),
    (_set(1), ("version",)),
    (_without, (*ASSERTION, "status")),
    (_set("failed"), (*ASSERTION, "status")),
    (_set("time-out"), (*ASSERTION, "reason")),  # and a violation has no reason
    (_set("dpor-ag2"), (*ASSERTION, "mode")),
    (_rename("counter_example"), (*ASSERTION, "counterexample")),
    (_without, (*ASSERTION, "counterexample", "steps", 0, "thread")),
    (_without, (*ASSERTION, "stats", "runs")),
    (_set("3"), (*ASSERTION, "line")),
    (_set(True), ("options", "verbose")),
    (_set("lp32"), ("options", "data_model")),
    (_without, ("files", 0, "stats")),
], ids=_case_id)
def test_the_result_schema_rejects_a_missing_key_or_a_wrong_value(change, path):
    _, document = _run("json", (str(VIOLATED),))
    assert problems("result", document) == []
    broken = json.loads(json.dumps(document))
    change(broken, path)
    assert problems("result", broken) != []


RESULT = ("runs", 0, "results", 0)


@pytest.mark.parametrize("change, path", [
    (_without, ("$schema",)),
    (_set("2.1"), ("version",)),
    (_without, ("runs", 0, "tool", "driver", "name")),
    (_without, (*RESULT, "ruleId")),
    (_set("fatal"), (*RESULT, "level")),
    (_set("review"), (*RESULT, "kind")),  # with level error: SARIF wants none unless kind is fail
    (_set("assertion-failed"), (*RESULT, "ruleId")),
    (_without, (*RESULT, "message", "text")),
    (_set(0), (*RESULT, "locations", 0, "physicalLocation", "region", "startLine")),
    (_without, (*RESULT, "codeFlows", 0, "threadFlows", 0, "locations", 0, "executionOrder")),
    (_rename("threadflows"), (*RESULT, "codeFlows", 0, "threadFlows")),
], ids=_case_id)
def test_the_sarif_schema_rejects_a_missing_key_or_a_wrong_value(change, path):
    _, log = _run("sarif", (str(VIOLATED),))
    assert problems("sarif", log) == []
    broken = json.loads(json.dumps(log))
    change(broken, path)
    assert problems("sarif", broken) != []


def test_the_installed_command_writes_documents_that_keep_to_the_schemas():
    for fmt, name in (("json", "result"), ("sarif", "sarif")):
        proc = subprocess.run([sys.executable, "-m", "distaff", "check", "--format", fmt, str(VIOLATED)],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 1, proc.stderr
        assert problems(name, json.loads(proc.stdout)) == []


# --------------------------------------------------------------------------
# The Python API


def _timeless(value):
    """A document without its wall and solver times and counters of
    milliseconds (another run takes others)."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items()
                if k not in ("time_s", "solver_time_s", "static_time_s") and not k.endswith("_ms")}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def test_a_violated_example_is_violated_with_its_schedule():
    report = check_source(VIOLATED.read_text(), path=str(VIOLATED))
    (a,) = report.assertions
    assert a.status is Status.VIOLATED and a.reason is None and a.text == "hits == 2"
    assert a.trace is not None and a.trace.steps and a.trace.schedule
    assert {s.thread for s in a.trace.steps} >= {"main", "visit#1", "visit#2"}
    assert report.path == str(VIOLATED) and a.span.file == str(VIOLATED)


def test_a_counterexample_carries_its_input_and_a_header_is_read_next_to_the_file(texts):
    report = check_source(INPUTS, path=str(texts / "inputs.c"))
    by_line = {(a.span.file.rsplit("/", 1)[-1], a.span.line): a for a in report.assertions}
    violated = by_line[("inputs.c", 6)]
    assert violated.status is Status.VIOLATED
    assert [i.value for i in violated.trace.inputs] == [7]
    assert by_line[("check.h", 1)].status is Status.HOLDS
    assert report.findings == ()


def test_a_syntax_error_is_a_finding_and_no_assertion_is_checked():
    report = check_source(SYNTAX, path="broken.c")
    assert [f.kind for f in report.findings] == [FindingKind.SYNTAX]
    assert report.findings[0].span.line == 3
    assert [(a.status, a.reason) for a in report.assertions] == [(Status.UNKNOWN, Reason.SKIPPED)]
    assert problems("result", distaff.report_json(report)) == []


@pytest.mark.parametrize("case_id, kwargs", [
    ("example-racy_counter", {}),
    ("deadlock", {}),
    ("summaries", {"summary_text": True}),
    ("from-context", {"options": Options(unwind=2, max_memory_mb=distaff.DEFAULT_MEMORY_MB),
                      "context_positions": [(27, None), (34, None)]}),
])
def test_its_json_is_the_command_lines_apart_from_times(case_id, kwargs, texts):
    path = dict(CASES)[case_id][-1]
    _, printed = cli_output("json", case_id, texts)
    # the command line's --workers auto is this machine's core count
    # (the API's defaults are the command line's, its memory cap among them)
    options = replace(kwargs.pop("options", api.DEFAULT_OPTIONS), workers=printed["options"]["workers"])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # the command line prints (so simplifies) the summaries learned only with --summaries
    shown = kwargs.pop("summary_text", False)
    report = check_source(text, replace(options, summary_text=shown), path=path, **kwargs)
    assert _timeless(distaff.report_json(report)) == _timeless(printed)
    if case_id not in JSON_ONLY:
        sarif = distaff.report_sarif(report)
        assert problems("sarif", sarif) == []
        assert _timeless(sarif) == _timeless(cli_output("sarif", case_id, texts)[1])


def test_a_cancelled_check_returns_every_assertion_undecided():
    token = CancelToken()
    token.cancel()
    report = check_source((ROOT / "examples" / "locked_counter.c").read_text(), cancel=token)
    assert report.assertions and {(a.status, a.reason) for a in report.assertions} == {
        (Status.UNKNOWN, Reason.CANCELLED)}


def test_a_timeout_leaves_the_assertion_undecided_and_says_so():
    report = check_source((PROGRAMS / "hard_solver.c").read_text(), Options(timeout_s=0.3), path="hard_solver.c")
    assert [(a.status, a.reason) for a in report.assertions] == [(Status.UNKNOWN, Reason.TIMEOUT)]
    assert report.options.timeout_s == 0.3


def test_a_context_position_without_a_statement_is_a_context_error():
    with pytest.raises(ContextError, match="no statement at line 500"):
        check_source(VIOLATED.read_text(), context_positions=[(500, 1)])


def test_the_package_exports_the_api():
    for name in distaff.__all__:
        assert getattr(distaff, name) is not None
    assert distaff.check_source is api.check_source and distaff.FileReport is render.FileReport
