"""Findings from a program context say how sure they are
(tests/programs/context_sureness): one whose run depends on a value the
context does not know is possible from the context only -- a warning that
names those values, on the command line, in JSON and SARIF and in the
editor; one that depends on nothing unknown stays an error."""

import json

from distaff.analysis.check import Options, check, context_at
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Status
from distaff.server import cli, convert
from distaff.server.documents import Snapshot
from tests.explore.expectations import PROGRAMS

lsp_severity = convert.lsp.DiagnosticSeverity
DIR = PROGRAMS / "context_sureness"


def from_context(name: str, *lines: int):
    path = DIR / name
    program = parse_program(path.read_text(), str(path))
    ctx = context_at(program, [(n, 1) for n in lines])
    items = list(check(program, Options(mode="dpor", unwind=4), context=ctx))
    return path, [i for i in items if isinstance(i, AssertionResult)], [i for i in items if isinstance(i, Finding)]


def test_a_violation_that_depends_on_unknown_values_names_them():
    _, (a,), findings = from_context("unknown_counts.c", 20, 19)
    assert a.status is Status.VIOLATED
    assert set(a.depends_on) == {"context:count", "context:total"}
    overflows = [f for f in findings if f.kind is FindingKind.ERROR]
    assert overflows and all(any(d.startswith("context:") for d in f.depends_on) for f in overflows)


def test_the_command_line_json_and_sarif_call_it_possible_and_a_warning(capsys):
    path = str(DIR / "unknown_counts.c")
    code = cli.main(["check", "--mode", "dpor", "--from", "20", "--from", "19", path])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if ":23:3: " in x and "can fail" in x)
    assert code == 1
    assert ": warning: " in line
    assert ("possible from this context: it depends on the values of `count` and `total` here, "
            "which the context does not know") in line
    cli.main(["check", "--mode", "dpor", "--from", "20", "--from", "19", "--format", "json", path])
    (a,) = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    assert a["status"] == "violated" and sorted(a["depends_on"]) == ["context:count", "context:total"]
    cli.main(["check", "--mode", "dpor", "--from", "20", "--from", "19", "--format", "sarif", path])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert results and {r["level"] for r in results} == {"warning"}


def test_the_editor_shows_it_as_a_warning_that_says_why():
    path, (a,), _ = from_context("unknown_counts.c", 20, 19)
    snap = Snapshot.of(path.as_uri(), 1, path.read_text())
    d = convert.assertion_diagnostic(snap, a, fold=True)
    assert d.severity == lsp_severity.Warning
    assert "possible from this context" in d.message and "`count`" in d.message


def test_a_violation_that_depends_on_nothing_unknown_stays_an_error(capsys):
    path, (a,), _ = from_context("known_start.c", 20)
    assert a.status is Status.VIOLATED and a.depends_on == ()
    snap = Snapshot.of(path.as_uri(), 1, path.read_text())
    assert convert.assertion_diagnostic(snap, a, fold=True).severity == lsp_severity.Error
    cli.main(["check", "--mode", "dpor", "--from", "20", str(path)])
    out = capsys.readouterr().out
    assert ":25:3: error: assertion `hits == 2` can fail" in out
