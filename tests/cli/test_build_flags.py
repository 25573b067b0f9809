"""Build flags as a C tool takes them: -I, -isystem, -iquote, -D, -U,
-include on the command line, and a file's entry in the nearest
compile_commands.json (tests/programs/project)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from distaff.analysis.frontend.build_flags import BuildFlags, find_compile_commands, flags_for, parse_args
from distaff.server import cli

PROJECT = Path(__file__).resolve().parents[1] / "programs" / "project"


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    monkeypatch.chdir(root)
    return root


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_parse_args_reads_the_flags_a_compiler_takes():
    f = parse_args(["-O2", "-Iinc", "-I", "/abs", "-isystem", "sys", "-iquote", "q", "-DA", "-DB=2",
                    "-UA", "-D", "C=x y", "-include", "pre.h", "-c", "f.c"], "/w")
    assert f.include_dirs == ("/w/inc", "/abs") and f.system_dirs == ("/w/sys",) and f.quote_dirs == ("/w/q",)
    assert f.macros == (("A", "1"), ("B", "2"), ("A", None), ("C", "x y"))
    assert f.forced_includes == ("/w/pre.h",)
    assert f.search(True) == ("/w/inc", "/abs", "/w/sys")
    assert f.search(False) == ("/w/q", "/w/inc", "/abs", "/w/sys")
    with pytest.raises(ValueError):
        parse_args(["-I"], "/w")


def test_the_nearest_database_and_its_entry_for_the_file(project):
    src = project / "src" / "pool.c"
    assert find_compile_commands(str(src)) == str(project / "compile_commands.json")
    flags = flags_for(str(src))
    assert flags.include_dirs == (str(project / "include"),)
    assert flags.macros == (("WORKERS", "3"),)
    assert "entry 1" in flags.source
    # an entry written as one "command" string
    other = flags_for(str(project / "src" / "other.c"))
    assert other.macros == (("WORKERS", "2"), ("POOL_UNLOCKED", "1"))
    assert flags_for(str(project / "src" / "missing.c")) is None


def test_a_build_directory_beside_an_ancestor_is_searched(tmp_path):
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "compile_commands.json").write_text("[]")
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert find_compile_commands(str(tmp_path / "a" / "b" / "f.c")) == str(tmp_path / "build" / "compile_commands.json")


def test_the_project_checks_with_its_compile_commands(project, capsys):
    status, out, _ = run(capsys, "check", "src/pool.c")
    assert status == 0 and "1 holds" in out and "unsupported" not in out
    # a -D on the command line comes after the entry's flags
    status, out, _ = run(capsys, "check", "-DPOOL_UNLOCKED", "src/pool.c")
    assert status == 1 and "assertion `done.value == 3 * 1` can fail" in out  # WORKERS from the database
    # without the database the file does not preprocess: undecided, saying why
    status, out, _ = run(capsys, "check", "--no-compile-commands", "src/pool.c")
    assert 'included file "pool/counter.h" not found' in out and "1 unknown" in out, (status, out)
    # the same flags by hand
    status, out, _ = run(capsys, "check", "--no-compile-commands", "-I", "include", "-DWORKERS=2", "src/pool.c")
    assert status == 0 and "1 holds" in out


def test_a_database_named_on_the_command_line_and_a_broken_one(project, tmp_path, capsys):
    moved = tmp_path / "elsewhere.json"
    entries = json.loads((project / "compile_commands.json").read_text())
    for e in entries:
        e["directory"] = str(project)
    moved.write_text(json.dumps(entries))
    os.remove(project / "compile_commands.json")
    status, out, _ = run(capsys, "check", "--compile-commands", str(moved), "src/pool.c")
    assert status == 0 and "1 holds" in out
    broken = tmp_path / "broken.json"
    broken.write_text('[{"file": ')
    status, out, err = run(capsys, "check", "--compile-commands", str(broken), "src/pool.c")
    assert status == 2 and "broken.json" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_forced_includes_and_angle_includes_from_include_dirs(tmp_path, capsys):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "limits_of_ours.h").write_text("#define BOUND 2\n")
    (tmp_path / "pre.h").write_text("#define PRE 1\n")
    src = tmp_path / "f.c"
    src.write_text("#include <assert.h>\n#include <limits_of_ours.h>\n"
                   "int main(void) { assert(PRE + BOUND == 3); return 0; }\n")
    status, out, _ = run(capsys, "check", "--no-compile-commands", "-I", str(tmp_path / "inc"),
                         "-include", str(tmp_path / "pre.h"), str(src))
    assert status == 0 and "1 holds" in out
    # a system header is never read, even from an -I directory that has one
    (tmp_path / "inc" / "pthread.h").write_text("#error not ours to read\n")
    src.write_text("#include <pthread.h>\nint main(void) { return 0; }\n")
    status, out, _ = run(capsys, "check", "--no-compile-commands", "-I", str(tmp_path / "inc"), str(src))
    assert status == 0, out


def test_build_flags_merge_in_order():
    a = BuildFlags(include_dirs=("/a",), macros=(("X", "1"),), source="db")
    b = BuildFlags(include_dirs=("/b",), macros=(("X", None),), source="command line")
    m = a.merged(b)
    assert m.include_dirs == ("/a", "/b") and m.macros == (("X", "1"), ("X", None))
    assert m.source == "db, command line"
