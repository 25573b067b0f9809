"""The program a file belongs to in its compile_commands.json
(analysis/project.py), and lowering cached per file and content
(analysis/frontend/unit_cache.py)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from distaff.analysis.check import disk_includes
from distaff.analysis.frontend import translation_unit
from distaff.analysis.frontend.build_flags import parse_args
from distaff.analysis.frontend.unit_cache import UnitCache
from distaff.analysis.project import ProjectError, program_of, sources
from tests.link.projects import MULTI


def plan(project: str, rel: str, entry: str | None = None, root=MULTI):
    database = str(root / project / "compile_commands.json")

    def unit_of(source):
        if not os.path.isfile(source.path):
            return None
        with open(source.path) as f:
            return translation_unit(f.read(), source.path, read_include=disk_includes, flags=source.flags())

    e = str(root / project / entry) if entry else None
    return program_of(str(root / project / rel), database, unit_of, e)


def names(paths, project: str, root=MULTI) -> list[str]:
    return [os.path.relpath(p, root / project) for p in paths]


def test_a_file_without_main_belongs_to_the_program_whose_main_reaches_it():
    p = plan("tally", "src/worker.c")
    assert names(p.files, "tally") == ["src/main.c", "src/queue.c", "src/worker.c", "src/stats.c"]
    assert names([p.entry], "tally") == ["src/main.c"] and not p.alone and p.why == ""
    # stats.c too: the workers main starts call into it
    assert plan("tally", "src/stats.c").files == p.files
    # the file with main is its own entry
    assert plan("tally", "src/main.c").entry == p.entry


def test_several_mains_reaching_a_file_are_candidates_in_database_order():
    p = plan("prodcons", "lib/ring.c")
    assert names(p.candidates, "prodcons") == ["app/app.c", "test/ring_test.c"]
    assert names([p.entry], "prodcons") == ["app/app.c"]
    assert names(p.files, "prodcons") == ["app/app.c", "lib/ring.c"]  # not the other main's file
    chosen = plan("prodcons", "lib/ring.c", entry="test/ring_test.c")
    assert names(chosen.files, "prodcons") == ["lib/ring.c", "test/ring_test.c"]
    # a file with its own main starts from it, whoever else reaches it
    assert names([plan("prodcons", "test/ring_test.c").entry], "prodcons") == ["test/ring_test.c"]
    with pytest.raises(ProjectError, match=r"--entry .*app.c: its main does not reach .*ring_test.c "
                                           r"\(files whose main does: test/ring_test.c\)"):
        plan("prodcons", "test/ring_test.c", entry="app/app.c")


def test_a_file_no_main_reaches_has_no_entry_and_says_why():
    p = plan("unreached", "retry.c")
    assert p.entry is None and names(p.files, "unreached") == ["retry.c"]
    assert p.why == "no file of compile_commands.json with a main calls into retry.c"
    assert plan("unreached", "main.c").alone


def test_unlisted_and_unreadable_files(tmp_path):
    shutil.copytree(MULTI / "tally", tmp_path / "tally")
    db = tmp_path / "tally" / "compile_commands.json"
    entries = json.loads(db.read_text())
    entries.append({"directory": ".", "file": "src/gone.c", "command": "cc -c src/gone.c"})
    entries.append({"directory": ".", "file": "src/notes.txt", "command": "cc -c src/notes.txt"})
    db.write_text(json.dumps(entries))
    assert [s.path.rsplit("/", 1)[-1] for s in sources(str(db))] == ["main.c", "queue.c", "worker.c", "stats.c",
                                                                        "gone.c"]
    p = plan("tally", "src/worker.c", root=tmp_path)
    assert names(p.skipped, "tally", tmp_path) == ["src/gone.c"] and len(p.files) == 4
    (tmp_path / "tally" / "src" / "other.c").write_text("int other;\n")
    with pytest.raises(ProjectError, match="does not list"):
        plan("tally", "src/other.c", root=tmp_path)


def test_units_are_lowered_again_only_when_their_text_flags_or_headers_change(tmp_path):
    cache = UnitCache()
    header = tmp_path / "size.h"
    header.write_text("#define SIZE 2\n")
    src = tmp_path / "a.c"
    text = '#include "size.h"\nint slots[SIZE];\n'

    def lower(t, flags=None):
        return cache.unit(t, str(src), read_include=disk_includes, flags=flags)

    first = lower(text)
    assert lower(text) is first and (cache.hits, cache.misses) == (1, 1)
    edited = lower(text + "int more;\n")
    assert edited is not first and cache.misses == 2
    assert lower(text) is first  # the older text is still kept
    header.write_text("#define SIZE 3\n")
    again = lower(text)
    assert again is not first and again.program.global_var("slots").type.length == 3
    assert lower(text, parse_args(["-DX=1"])) is not again
