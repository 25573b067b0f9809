"""The projects of tests/programs/multi and what their files say of themselves.

Each project is a folder with a compile_commands.json; a C file carries the
verdicts of its assertions in its header comment, in the format of
tests/explore/expectations.py (``VERDICT 19: violated``, ``VERDICT: holds``;
here also ``unknown``: not reached by the linked program)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.explore.expectations import PROGRAMS, read

MULTI = PROGRAMS / "multi"


def files(project: str) -> list[str]:
    """The project's C files, as its database lists them (relative to the project)."""
    entries = json.loads((MULTI / project / "compile_commands.json").read_text())
    return [e["file"] for e in entries]


def assertion_lines(path: Path) -> list[int]:
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"\bassert\(", line)]


def expected(project: str) -> dict[tuple[str, int], str]:
    """``(file, line) -> verdict`` of every assertion of the project's files
    that say what theirs are."""
    out = {}
    for rel in files(project):
        e = read(str(Path("multi") / project / rel))
        for line in assertion_lines(MULTI / project / rel):
            verdict = e.verdict_at(line)
            if verdict is not None:
                out[(rel, line)] = verdict
    return out
