"""Programs of several files on the command line: ``distaff check --link``,
the program a file belongs to through its compile_commands.json, and
``--no-link``. The projects are tests/programs/multi's; each result names its
file (JSON ``path``, SARIF locations, text lines)."""

from __future__ import annotations

import json
import shutil

import pytest

from distaff.server import cli
from tests.cli.test_schemas import problems
from tests.link.projects import MULTI, expected, files


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of a multi project, the working directory inside it."""
    def copy(name: str):
        root = tmp_path / name
        shutil.copytree(MULTI / name, root)
        monkeypatch.chdir(root)
        return root
    return copy


def verdicts(document) -> dict[tuple[str, int], str]:
    return {(a["path"], a["line"]): a["status"] for f in document["files"] for a in f["assertions"]}


STATUS = {"tally": 1, "statics": 1, "pool": 0}
# the library and one of its two users (each has a main: they do not link together)
LINKED = {"prodcons": (["app/app.c", "lib/ring.c"], 1), **{name: (files(name), s) for name, s in STATUS.items()}}


@pytest.mark.parametrize("name", sorted(LINKED))
def test_linked_files_have_the_verdicts_they_state(project, capsys, name):
    project(name)
    linked, want = LINKED[name]
    status, out, err = run(capsys, "check", "--format", "json", "--link", *linked)
    document = json.loads(out)
    assert verdicts(document) == {k: v for k, v in expected(name).items() if k[0] in linked}
    assert status == want, err
    assert problems("result", document) == []
    (entry,) = document["files"]
    assert [f["path"] for f in entry["linked"]] == linked
    assert err.strip() == f"distaff: linked {', '.join(linked)}"


@pytest.mark.parametrize("name, asked", [("tally", "src/worker.c"), ("tally", "src/stats.c"),
                                         ("statics", "slow.c"), ("pool", "pool.c")])
def test_a_file_its_database_lists_is_checked_as_part_of_its_program(project, capsys, name, asked):
    project(name)
    status, out, err = run(capsys, "check", "--format", "json", asked)
    assert verdicts(json.loads(out)) == expected(name)
    assert status == STATUS[name]
    (line,) = err.strip().splitlines()
    assert line.startswith(f"distaff: {asked}: checked as part of the program of ")
    assert line.endswith(f"(compile_commands.json): linked {', '.join(files(name))}")


def test_the_issues_project_finds_the_lost_update_and_names_each_file(project, capsys):
    project("tally")
    status, out, _ = run(capsys, "check", "src/worker.c")
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == "src/main.c:19:5: error: assertion `stats_total() == 3` can fail"
    notes = [line for line in lines if ": note: [worker#" in line]
    assert any(n.startswith("src/stats.c:8:") and n.endswith("read total == 0") for n in notes)
    assert any(line.startswith("src/worker.c:13:9: note: assertion `job > 0` holds for all interleavings")
               for line in lines)
    assert lines[-1].startswith("src/main.c (linked with src/queue.c, src/worker.c, src/stats.c): "
                                "2 assertions: 1 violated, 1 holds;")
    # SARIF: each result's location is its own file; every file is an artifact
    status, out, _ = run(capsys, "check", "--format", "sarif", "src/worker.c")
    log = json.loads(out)
    assert problems("sarif", log) == []
    run_ = log["runs"][0]
    assert [a["location"]["uri"] for a in run_["artifacts"]] == files("tally")
    located = {r["properties"]["assertion"]: r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               for r in run_["results"] if "assertion" in r["properties"]}
    assert located == {"stats_total() == 3": "src/main.c", "job > 0": "src/worker.c"}
    steps = {loc["location"]["physicalLocation"]["artifactLocation"]["uri"]
             for r in run_["results"] for flow in r.get("codeFlows", []) for t in flow["threadFlows"]
             for loc in t["locations"]}
    assert steps == set(files("tally"))


def test_no_link_checks_the_file_alone_as_before(project, capsys):
    project("tally")
    status, out, err = run(capsys, "check", "--no-link", "src/worker.c")
    assert status == 0 and "is not reached by any run" in out and err == ""
    status, out, _ = run(capsys, "check", "--no-link", "src/main.c")
    assert status == 3 and "thread routine worker has no body" in out


def test_a_file_no_main_reaches_is_undecided_saying_why(project, capsys):
    project("unreached")
    status, out, err = run(capsys, "check", "--format", "json", "retry.c")
    assert status == 3
    (a,) = json.loads(out)["files"][0]["assertions"]
    assert (a["path"], a["status"], a["reason"]) == ("retry.c", "unknown", "no-entry")
    why = "not reached by the linked program: no file of compile_commands.json with a main calls into retry.c"
    assert a["message"] == why
    assert "retry.c: no main reaches it (compile_commands.json): linked retry.c" in err
    assert verdicts(json.loads(out)) == {k: v for k, v in expected("unreached").items() if k[0] == "retry.c"}
    status, out, _ = run(capsys, "check", "retry.c")
    assert out.splitlines()[0] == f"retry.c:10:5: warning: assertion `delay > attempt` undecided ({why})"
    # main.c is a program by itself: checked alone, as ever
    status, out, err = run(capsys, "check", "main.c")
    assert status == 0 and err == "" and "main.c: 1 assertion: 1 holds" in out


def test_several_mains_say_which_and_entry_chooses(project, capsys):
    project("prodcons")
    status, out, err = run(capsys, "check", "--format", "json", "lib/ring.c")
    assert status == 1
    assert "lib/ring.c: 2 files have a main that reaches it: app/app.c, test/ring_test.c; checking with " \
           "app/app.c (choose with --entry FILE)" in err
    assert {p for p, _ in verdicts(json.loads(out))} == {"app/app.c", "lib/ring.c"}
    status, out, err = run(capsys, "check", "--format", "json", "--entry", "test/ring_test.c", "lib/ring.c")
    assert status == 0 and "checking with test/ring_test.c" in err
    mine = {k: v for k, v in expected("prodcons").items() if k[0] != "app/app.c"}
    assert verdicts(json.loads(out)) == mine
    status, _, err = run(capsys, "check", "--entry", "app/app.c", "test/ring_test.c")
    assert status == 2 and "its main does not reach" in err and "Traceback" not in err


def test_files_of_one_program_are_checked_once(project, capsys):
    project("tally")
    status, out, err = run(capsys, "check", "--format", "json", "src/worker.c", "src/stats.c")
    assert status == 1
    document = json.loads(out)
    assert len(document["files"]) == 1 and len(err.strip().splitlines()) == 2


@pytest.mark.parametrize("argv", [["main.c"], ["--link", "main.c", "config.c", "defaults.c"]])
def test_a_duplicate_definition_is_one_line_naming_both_places(project, capsys, argv):
    project("duplicate")
    status, out, err = run(capsys, "check", *argv)
    assert status == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert line.endswith("duplicate definition of `workers`: config.c:4:5 and defaults.c:4:5"), line


@pytest.mark.parametrize("argv, message", [
    (["--link", "main.c", "missing.c"], "distaff: cannot read missing.c: No such file or directory"),
    (["--link", "config.c"], "distaff: no linked file defines `main` (config.c)"),
    (["--link", "--no-link", "main.c"], "--link and --no-link contradict each other"),
    (["--link", "--from", "7", "main.c"], "--from checks one file alone: not with --link"),
])
def test_bad_linking_is_a_clear_line(project, capsys, argv, message):
    project("duplicate")
    status, out, err = run(capsys, "check", *argv)
    assert status == 2 and out == "" and "Traceback" not in err
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_a_function_no_file_defines_is_named_with_its_users(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "main.c").write_text("#include <assert.h>\nint ask(void);\nint helper(void);\n"
                                     "int main(void) { assert(ask() + helper() != 3); return 0; }\n")
    (tmp_path / "helper.c").write_text("int helper(void) { return 1; }\n")
    status, out, err = run(capsys, "check", "--link", "main.c", "helper.c")
    assert status == 1
    assert "distaff: note: `ask` is defined in no linked file (used at main.c:4:25); its calls return any value" in err
    assert "main.c:4:18: warning: assertion `ask() + helper() != 3` can fail" in out  # relies on ask()


def test_a_linked_result_replays(project, capsys, tmp_path):
    project("statics")
    status, out, _ = run(capsys, "check", "--format", "json", "main.c")
    assert status == 1
    (tmp_path / "result.json").write_text(out)
    status, out, _ = run(capsys, "check", "--replay", str(tmp_path / "result.json"))
    assert status == 1
    assert "main.c: replayed 1 of 1 counterexample, 1 identical to the stored trace" in out
    assert "slow.c:10:5: note: [slow_run#1] write count = 2" in out
