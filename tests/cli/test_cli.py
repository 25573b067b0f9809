"""The command line's plumbing: arguments, exit statuses, output formats,
errors without tracebacks. The engine is replaced by hand-built results here;
test_end_to_end.py runs the real one."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from distaff.analysis import check as engine
from distaff.analysis.report import Finding, FindingKind, Reason
from distaff.server import cli
from distaff.server.render import FileReport
from tests.cli.reports import deadlock, holds, syntax, unknown, violated
from tests.cli.test_render import GCC_LINE

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text("int main(void) { return 0; }\n")
    return path


@pytest.fixture
def fake_engine(monkeypatch):
    """Make check yield the given items, and record its arguments."""
    calls = []

    def install(*items):
        def check(program, options, cancel=None, context=None):
            calls.append((program.path, options, context))
            yield from items
        monkeypatch.setattr(engine, "check", check)
        return calls
    return install


@pytest.mark.parametrize("items, status", [
    ((holds(),), 0),
    ((), 0),
    ((holds(), violated()), 1),
    ((holds(), deadlock()), 1),
    ((holds(), unknown()), 3),
    ((unknown(reason=Reason.SKIPPED), syntax()), 2),
    ((violated(), syntax()), 1),
])
def test_exit_status_per_outcome(capsys, source, fake_engine, items, status):
    fake_engine(*items)
    code, out, err = run(capsys, "check", str(source))
    assert code == status
    assert err == ""
    assert out.strip().splitlines()[-1].startswith(f"{source}: ")


def test_text_lines_are_quickfix_lines_and_one_summary(capsys, source, fake_engine):
    fake_engine(violated(), holds(), unknown(), deadlock())
    code, out, _ = run(capsys, "check", str(source))
    lines = out.splitlines()
    assert all(GCC_LINE.match(line) for line in lines[:-1])
    assert not GCC_LINE.match(lines[-1])


def test_flags_become_options(capsys, source, fake_engine):
    calls = fake_engine(holds())
    run(capsys, "check", "--mode", "baseline", "--unwind", "3", "--timeout", "2.5", "--max-runs", "50",
        "--workers", "2", "--data-model", "ilp32", "--races", "--disable", "solver_cache",
        "--assertion-timeout", "1.5", "--no-findings", "--property", "unreach-call", str(source))
    (_, options, context), = calls
    assert (options.mode, options.unwind, options.timeout_s, options.max_runs, options.workers) == (
        "baseline", 3, 1.5, 50, 2)
    # --timeout is the whole command's: what was left when the file's check began
    assert 2.0 < options.total_timeout_s <= 2.5
    assert not options.findings and options.property == "unreach-call"
    assert options.data_model.value == "ilp32" and options.report_races
    assert not options.enabled("solver_cache") and options.enabled("something_else")
    assert context is None


def test_workers_are_one_per_core_unless_given(capsys, source, fake_engine, monkeypatch):
    monkeypatch.setattr(cli, "cores", lambda: 6)
    calls = fake_engine(holds())
    run(capsys, "check", str(source))
    run(capsys, "check", "--workers", "auto", str(source))
    run(capsys, "check", "--workers", "1", str(source))
    assert [options.workers for _, options, _ in calls] == [6, 6, 1]
    _, out, _ = run(capsys, "check", "--format", "json", str(source))
    assert json.loads(out)["options"]["workers"] == 6  # the number it ran with
    status, _, err = run(capsys, "check", "--workers", "all", str(source))
    assert status == 2 and "not an integer or auto: 'all'" in err
    assert cli.cores() >= 1


def test_json_is_one_document_with_each_file(capsys, tmp_path, fake_engine):
    fake_engine(violated(), holds())
    a, b = tmp_path / "a.c", tmp_path / "b.c"
    a.write_text("int x;\n")
    b.write_text("int y;\n")
    code, out, _ = run(capsys, "check", "--format", "json", str(a), str(b))
    doc = json.loads(out)
    assert code == 1
    assert [f["path"] for f in doc["files"]] == [str(a), str(b)]
    assert all(len(f["assertions"]) == 2 for f in doc["files"])
    assert doc["options"]["mode"] == "dpor-ag"


def test_sarif_is_one_log(capsys, source, fake_engine):
    fake_engine(violated())
    code, out, _ = run(capsys, "check", "--format", "sarif", str(source))
    log = json.loads(out)
    assert code == 1 and log["version"] == "2.1.0" and len(log["runs"][0]["results"]) == 1


@pytest.mark.parametrize("argv, words", [
    (["check", "--bogus", "x.c"], "unrecognized arguments: --bogus"),
    (["check", "--mode", "fast", "x.c"], "invalid choice: 'fast'"),
    (["check", "--unwind", "many", "x.c"], "not an integer"),
    (["check", "--timeout", "0", "x.c"], "must be positive"),
    (["check", "--from", "12:x", "x.c"], "not LINE or LINE:COL"),
    (["check"], "no FILE given"),
    (["check", "--from", "3", "a.c", "b.c"], "--from needs exactly one FILE"),
    (["check", "--replay", "r.json", "a.c"], "--replay takes no FILE"),
    (["check", "missing-file.c"], "cannot read missing-file.c"),
    (["check", "--replay", "missing.json"], "cannot read missing.json"),
    (["ir", "missing-file.c"], "cannot read missing-file.c"),
    ([], "no command given"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_bad_usage_is_one_line_and_status_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("distaff")
    assert words in err


def test_a_directory_is_not_a_readable_file(capsys, tmp_path):
    code, _, err = run(capsys, "check", str(tmp_path))
    assert code == 2 and err.startswith(f"distaff: cannot read {tmp_path}:")


def test_a_replay_of_something_else_is_bad_input(capsys, tmp_path):
    bogus = tmp_path / "r.json"
    bogus.write_text('{"version": 7, "files": []}')
    code, _, err = run(capsys, "check", "--replay", str(bogus))
    assert code == 2 and "not a distaff JSON result" in err
    bogus.write_text("{not json")
    code, _, err = run(capsys, "check", "--replay", str(bogus))
    assert code == 2 and err.count("\n") == 1


def test_an_internal_error_is_one_line_and_status_4(capsys, source, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("engine fell over\nsecond line")
    monkeypatch.setattr(engine, "check", broken)
    monkeypatch.delenv("DISTAFF_DEBUG", raising=False)
    code, _, err = run(capsys, "check", str(source))
    assert code == 4
    assert err == "distaff: internal error: RuntimeError: engine fell over\n"


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("distaff ") and out.strip() != "distaff unknown"
    from importlib import metadata
    assert out.split()[1] == metadata.version("distaff")  # the package's and the distribution's agree


def test_missing_column_is_the_first_character_of_the_line():
    text = "int x;\n    pthread_mutex_lock(&m);\n"
    assert cli.resolve_positions(text, [(2, None), (1, 3)]) == [(2, 5), (1, 3)]


def test_exit_status_prefers_found_over_bad_input_over_undecided():
    def rep(*items):
        return FileReport("p.c", tuple(i for i in items if hasattr(i, "status")),
                          tuple(i for i in items if not hasattr(i, "status")))
    assert cli.exit_status([rep(holds()), rep(syntax(), unknown())]) == 2
    assert cli.exit_status([rep(violated()), rep(syntax())]) == 1
    assert cli.exit_status([rep(unknown()), rep(holds())]) == 3
    unsupported = Finding(FindingKind.UNSUPPORTED, syntax().span, "setjmp")
    assert cli.exit_status([rep(holds(), unsupported)]) == 3
    assert cli.exit_status([rep(unsupported, deadlock())]) == 1
    assert cli.exit_status([]) == 0


def test_as_a_subprocess_a_bad_flag_never_shows_a_traceback(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISTAFF_DEBUG", None)
    for argv in (["check", "--unwind", "-1", "x.c"], ["check", str(tmp_path / "none.c")]):
        proc = subprocess.run([sys.executable, "-m", "distaff.server.cli", *argv], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2
        assert proc.stdout == "" and proc.stderr.count("\n") == 1
        assert "Traceback" not in proc.stderr


def test_disable_takes_only_known_optimisations(capsys, source):
    status, _, err = run(capsys, "check", "--disable", "sleep_set", str(source))
    assert status == 2 and "unknown optimisation 'sleep_set'" in err and "sleep_sets" in err


def test_the_optimisations_listed_are_those_the_code_switches():
    import re

    names = set()
    for path in (ROOT / "analysis").rglob("*.py"):
        names |= set(re.findall(r'(?:\bon|\.enabled)\("([a-z_]+)"\)', path.read_text()))
    assert names == set(engine.OPTIMISATIONS)
