"""`distaff check --races` with the real engine: races printed as warnings
with their trace as notes, the exit status they cause, replay of a race; and
a race finding as a language-server diagnostic."""

from __future__ import annotations

import json
from pathlib import Path

from lsprotocol import types as lsp

from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind
from distaff.server import convert
from distaff.server.documents import Snapshot
from tests.cli.test_cli import run
from tests.cli.test_render import GCC_LINE

RACES = Path(__file__).resolve().parents[1] / "programs" / "races"
RACY = RACES / "racy_counter.c"  # its assertion holds; its increments race
LOCKED = RACES / "locked_counter.c"


def test_races_are_warnings_that_count_as_found_only_with_races(capsys):
    code, out, err = run(capsys, "check", str(RACY))
    assert code == 0 and "data race" not in out and err == ""
    code, out, err = run(capsys, "check", "--races", str(RACY))
    assert code == 1, out + err
    lines = out.splitlines()
    warnings = [m for m in map(GCC_LINE.match, lines) if m and m["sev"] == "warning"]
    assert sorted(m["msg"] for m in warnings) == [
        "data race on `counter`: write at line 12 (thread worker#1) and read at line 12 (thread worker#2)",
        "data race on `counter`: write at line 12 (thread worker#1) and write at line 12 (thread worker#2)",
    ]
    first = lines.index(warnings[0].group(0))
    notes = []
    for line in lines[first + 1:]:
        m = GCC_LINE.match(line)
        if not m or m["sev"] != "note" or "assertion `" in line:
            break
        notes.append(m["msg"])
    assert notes[0] == "[main] create worker#1" and notes[-1].endswith("[data race]")
    assert sum(n.endswith("[data race]") for n in notes) == 2
    assert "2 data races" in lines[-1]


def test_a_program_without_races_still_passes_with_races(capsys):
    code, out, _ = run(capsys, "check", "--races", str(LOCKED))
    assert code == 0 and "data race" not in out


def test_a_race_replays_to_the_same_trace(capsys, tmp_path):
    result = tmp_path / "races.json"
    code, out, _ = run(capsys, "check", "--races", "--format", "json", str(RACES / "unjoined_read.c"))
    assert code == 1
    (finding,) = json.loads(out)["files"][0]["findings"]
    assert finding["kind"] == "data-race"
    result.write_text(out)
    code, out, _ = run(capsys, "check", "--replay", str(result))
    assert out.splitlines()[-1].endswith("replayed 1 of 1 counterexample, 1 identical to the stored trace")


def test_a_race_is_a_warning_at_the_second_access_related_to_the_first():
    text = RACY.read_text()
    found = [i for i in check(parse_program(text, str(RACY)), Options(report_races=True))
             if isinstance(i, Finding) and i.kind is FindingKind.DATA_RACE]
    race = next(f for f in found if "read at line 12" in f.message)
    snap = Snapshot.of(RACY.as_uri(), 1, text)
    d = convert.finding_diagnostic(snap, race, fold=False)
    assert d.severity == lsp.DiagnosticSeverity.Warning and d.code == "data-race"
    assert d.message.startswith("data race on `counter`: write at line 12")
    assert (d.range.start.line, d.range.start.character) == (race.span.line - 1, race.span.col - 1)
    marked = [r for r in d.related_information if r.message.endswith("[data race]")]
    assert len(marked) == 2
    assert marked[0].message.endswith("worker#1: write counter = 1 [data race]")
    assert marked[0].location.range.start.line == 11  # the first access, line 12
    assert marked[1].location.range == d.range  # the second access is where the warning is
