"""Findings from a program context say how sure they are
(tests/programs/context_sureness): one whose run depends on a value the
context does not know is possible from the context only -- a warning that
names those values, on the command line, in JSON and SARIF and in the
editor; one that depends on nothing unknown stays an error. A check from
main then confirms a possible violation (it stays a warning and says so) or
takes it back (every run from main explored, none violating: it holds);
the label tests switch that check off (``context_confirm``) to see the
label it starts from."""

import json

from distaff.analysis.check import Options, check, context_at
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Status
from distaff.server import cli, convert
from distaff.server.documents import Snapshot
from tests.explore.expectations import PROGRAMS

lsp_severity = convert.lsp.DiagnosticSeverity
DIR = PROGRAMS / "context_sureness"


UNCONFIRMED = Options(mode="dpor", unwind=4, optimisations=(("context_confirm", False),))


def from_context(name: str, *lines: int, options: Options = UNCONFIRMED):
    path = DIR / name
    program = parse_program(path.read_text(), str(path))
    ctx = context_at(program, [(n, 1) for n in lines])
    items = list(check(program, options, context=ctx))
    return path, [i for i in items if isinstance(i, AssertionResult)], [i for i in items if isinstance(i, Finding)]


def test_a_violation_that_depends_on_unknown_values_names_them():
    _, (a,), findings = from_context("unknown_counts.c", 20, 19)
    assert a.status is Status.VIOLATED
    assert set(a.depends_on) == {"context:count", "context:total"}
    overflows = [f for f in findings if f.kind is FindingKind.ERROR]
    assert overflows and all(any(d.startswith("context:") for d in f.depends_on) for f in overflows)


def test_the_command_line_json_and_sarif_call_it_possible_and_a_warning(capsys):
    path = str(DIR / "unknown_counts.c")
    code = cli.main(["check", "--mode", "dpor", "--disable", "context_confirm", "--from", "20", "--from", "19", path])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if ":23:3: " in x and "can fail" in x)
    assert code == 1
    assert ": warning: " in line
    assert ("possible from this context: it depends on the values of `count` and `total` here, "
            "which the context does not know") in line
    cli.main(["check", "--mode", "dpor", "--disable", "context_confirm", "--from", "20", "--from", "19", "--format", "json", path])
    (a,) = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    assert a["status"] == "violated" and sorted(a["depends_on"]) == ["context:count", "context:total"]
    cli.main(["check", "--mode", "dpor", "--disable", "context_confirm", "--from", "20", "--from", "19", "--format", "sarif", path])
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


CONFIRMING = Options(mode="dpor", unwind=4)


def test_a_check_from_main_takes_back_a_violation_no_run_from_main_has(capsys):
    # unknown_counts.c: under the lock total == 2 * count always holds
    _, (a,), findings = from_context("unknown_counts.c", 20, 19, options=CONFIRMING)
    assert a.status is Status.HOLDS and a.depends_on == () and a.trace is None
    assert a.stats.counter("context_refuted") == 1 and a.stats.counter("context_confirm_runs") > 0
    assert "fails only with the values of `count` and `total` here that no run from main gives" in a.message
    # the run-time errors the context search found stay possible (no check from main takes them back)
    assert findings and all(any(d.startswith("context:") for d in f.depends_on) for f in findings)
    cli.main(["check", "--mode", "dpor", "--no-findings", "--from", "20", "--from", "19",
              str(DIR / "unknown_counts.c")])  # exit 1 for the possible overflows the assertion's runs met
    out = capsys.readouterr().out
    assert ":23:3: note: assertion `total == 2 * count` holds" in out and "no run from main gives" in out


def test_a_possible_violation_main_has_too_stays_a_warning_that_says_so(capsys):
    _, (a,), _ = from_context("racy_counts.c", 19, 18, options=CONFIRMING)
    assert a.status is Status.VIOLATED and set(a.depends_on) == {"context:count", "context:total"}
    assert a.stats.counter("context_confirmed") == 1
    code = cli.main(["check", "--mode", "dpor", "--no-findings", "--from", "19", "--from", "18",
                     str(DIR / "racy_counts.c")])
    line = next(x for x in capsys.readouterr().out.splitlines() if ":22:3: " in x and "can fail" in x)
    assert code == 1 and ": warning: " in line
    assert line.endswith("which the context does not know; a run from main violates it too) "
                         "[context: context (reaching definitions, synchronization invariants; "
                         "invariants for any number of threads)]")


def test_without_time_to_check_from_main_a_possible_violation_stays_as_it_was(monkeypatch):
    from distaff.analysis import subcheck

    monkeypatch.setattr(subcheck, "CONFIRM_S", 0.0)
    _, (a,), _ = from_context("unknown_counts.c", 20, 19, options=CONFIRMING)
    assert a.status is Status.VIOLATED and a.stats.counter("context_unconfirmed") == 1
    assert not a.stats.counter("context_confirm_runs")
