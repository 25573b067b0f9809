"""`distaff check` on real C programs with the real engine: verdicts and exit
statuses of the bundled examples, output formats, replay, contexts."""

import json
import re
import subprocess
import sys

import pytest

from distaff.analysis.ir import DataModel
from distaff.server import cli
from tests.cli.test_cli import ROOT, run
from tests.cli.test_ir_lsp import _env
from tests.cli.test_render import GCC_LINE

EXAMPLES = sorted((ROOT / "examples").glob("*.c"))

SEQUENTIAL = """\
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = 0;
    if (x > 5)
        y = x;
    assert(y == 0 || y > 5);
    assert(x != 7);
    return 0;
}
"""

LOOP = """\
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    int i = 0;
    while (i < n)
        i++;
    assert(i >= 0);
    return 0;
}
"""


def expectations(path):
    """The VERDICT / FINDINGS / EXIT lines of an example's header comment."""
    head = path.read_text().split("*/", 1)[0]
    tags = dict(re.findall(r"^ \* (VERDICT|FINDINGS|EXIT): (.+)$", head, re.M))
    return (tags["VERDICT"].split(", "), tags.get("FINDINGS", "").split(", ") if "FINDINGS" in tags else [],
            int(tags["EXIT"]))


@pytest.fixture
def program(tmp_path):
    def write(text, name="prog.c"):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_give_what_their_header_says(capsys, path):
    statuses, findings, status = expectations(path)
    code, out, err = run(capsys, "check", "--format", "json", str(path))
    (f,) = json.loads(out)["files"]
    assert [a["status"] for a in f["assertions"]] == statuses
    assert sorted({x["kind"] for x in f["findings"]}) == sorted(findings)
    assert code == status and err == ""


def test_text_is_quickfix_lines_with_the_schedule_and_a_summary(capsys):
    path = str(ROOT / "examples" / "racy_counter.c")
    code, out, _ = run(capsys, "check", path)
    lines = out.splitlines()
    rows = [GCC_LINE.match(line) for line in lines[:-1]]
    assert code == 1 and all(rows)
    assert rows[0]["sev"] == "error" and rows[0]["msg"] == "assertion `hits == 2` can fail"
    notes = [r["msg"] for r in rows[1:]]
    assert all(r["sev"] == "note" for r in rows[1:])
    # the lost update: both threads read 0 before either writes
    reads = [i for i, n in enumerate(notes) if re.match(r"\[visit#\d\] read hits == 0", n)]
    writes = [i for i, n in enumerate(notes) if re.match(r"\[visit#\d\] write hits = 1", n)]
    assert len(reads) == 2 and len(writes) == 2 and max(reads) < min(writes)
    assert re.match(rf"{re.escape(path)}: 1 assertion: 1 violated; \d+ runs? \(\d+ full, \d+ pruned\), "
                    r"\d+\.\d\d s$", lines[-1])


def test_json_lists_every_assertion_once_with_inputs(capsys, program):
    path = program(SEQUENTIAL)
    code, out, _ = run(capsys, "check", "--format", "json", path)
    (f,) = json.loads(out)["files"]
    sites = cli.parse_file(path, SEQUENTIAL, DataModel.LP64).assertions()
    assert sorted((a["line"], a["column"]) for a in f["assertions"]) == sorted(
        (s.span.line, s.span.col) for s in sites)
    by_line = {a["line"]: a for a in f["assertions"]}
    assert by_line[8]["status"] == "holds" and "counterexample" not in by_line[8]
    assert by_line[9]["status"] == "violated"
    assert [i["value"] for i in by_line[9]["counterexample"]["inputs"]] == [7]
    assert f["stats"]["runs"] == sum(a["stats"]["runs"] for a in f["assertions"])
    assert code == 1


@pytest.mark.parametrize("text, argv, status", [
    (SEQUENTIAL.replace("assert(x != 7);", ""), [], 0),
    (SEQUENTIAL, [], 1),
    ("int main( { return 0 }\n#include <assert.h>\nvoid f(void) { assert(1); }\n", [], 2),
    (LOOP, ["--max-runs", "1"], 3),
])
def test_exit_status_of_a_real_check(capsys, program, text, argv, status):
    code, out, err = run(capsys, "check", *argv, program(text))
    assert code == status, out
    if status == 2:
        assert "syntax error" in out and "assertion `1` not checked (syntax error at line 1)" in out
    if status == 3:
        assert "warning: assertion `i >= 0` undecided (run limit of 1 reached)" in out


def test_unwind_bound_is_reported_as_within_the_bound(capsys, program):
    # exit 0, as bounded model checkers answer, but a warning that says it is no proof
    code, out, _ = run(capsys, "check", "--unwind", "2", program(LOOP))
    assert code == 0
    assert "warning: assertion `i >= 0` has no violation within unwind 2, not a proof (unwind 2 stopped " in out
    assert ": 1 assertion: 1 bounded; " in out


def test_sarif_of_a_violation_carries_the_schedule(capsys):
    code, out, _ = run(capsys, "check", "--format", "sarif", str(ROOT / "examples" / "racy_counter.c"))
    (result,) = json.loads(out)["runs"][0]["results"]
    flows = result["codeFlows"][0]["threadFlows"]
    assert code == 1 and result["level"] == "error"
    assert {f["id"] for f in flows} == {"main", "visit#1", "visit#2"}


def test_replay_prints_the_same_trace_each_time_and_as_the_check_did(capsys, program, tmp_path):
    path = program(SEQUENTIAL)
    code, checked, _ = run(capsys, "check", path)
    result = tmp_path / "result.json"
    result.write_text(run(capsys, "check", "--format", "json", path)[1])
    first = run(capsys, "check", "--replay", str(result))
    second = run(capsys, "check", "--replay", str(result))
    assert first == second and first[0] == 1
    replayed = first[1].splitlines()
    problems = [line for line in checked.splitlines()[:-1] if ": note: assertion `" not in line]
    assert replayed[:-1] == problems
    assert replayed[-1] == f"{path}: replayed 1 of 1 counterexample, 1 identical to the stored trace"


def test_replay_of_a_changed_file_warns(capsys, program, tmp_path):
    path = program(SEQUENTIAL)
    result = tmp_path / "result.json"
    result.write_text(run(capsys, "check", "--format", "json", path)[1])
    program(SEQUENTIAL.replace("assert(x != 7);", "assert(x != 7 && x != 8);"))
    code, out, err = run(capsys, "check", "--replay", str(result))
    assert err == f"distaff: warning: {path} changed since {result} was written\n"
    assert code in (1, 3) and out.splitlines()[-1].startswith(f"{path}: replayed ")


def test_replay_as_a_subprocess_is_deterministic(tmp_path):
    result = tmp_path / "racy.json"
    env = _env()
    cmd = [sys.executable, "-m", "distaff.server.cli", "check"]
    check = subprocess.run([*cmd, "--format", "json", "examples/racy_counter.c"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 1 and check.stderr == ""
    result.write_text(check.stdout)
    outs = [subprocess.run([*cmd, "--replay", str(result)], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=300) for _ in range(2)]
    assert outs[0].returncode == outs[1].returncode == 1
    assert outs[0].stdout == outs[1].stdout and "Traceback" not in outs[0].stderr
    assert outs[0].stdout.startswith("examples/racy_counter.c:29:5: error: assertion `hits == 2` can fail\n")


def test_from_labels_results_with_their_context(capsys):
    path = str(ROOT / "examples" / "racy_counter.c")
    code, out, _ = run(capsys, "check", "--format", "json", "--from", "19", path)
    (f,) = json.loads(out)["files"]
    assert f["from"] == [[19, 5]] and f["context"] == "19:5"
    assert all(a["context"] for a in f["assertions"])
    code, out, err = run(capsys, "check", "--from", "500:2", path)
    assert code == 2 and out == "" and err.count("\n") == 1 and "--from" in err
