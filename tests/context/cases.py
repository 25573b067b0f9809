"""The context cases under ``tests/programs/context``: C files carrying their
``--from`` positions and expected verdicts in their header comment::

    * FROM: 28 38            one position per thread, the cursor's first
    * UNWIND: 2
    * EXPECT: full=holds -RD=violated -SI=violated naive=violated

``full`` is the context with every ingredient, ``-RD`` without reaching
definitions, ``-SI`` without synchronization invariants, ``naive`` with
neither. Each file has one assertion; a configuration it does not list is
not claimed (e.g. one that does not finish in a test's time).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from distaff.analysis import ir
from distaff.analysis.context import program_context
from distaff.analysis.frontend import parse_program

CASES_DIR = Path(__file__).resolve().parent.parent / "programs" / "context"

CONFIGS = {"full": (True, True), "-RD": (False, True), "-SI": (True, False), "naive": (False, False)}


@dataclass(frozen=True)
class Case:
    name: str
    path: Path
    text: str
    lines: tuple[int, ...]
    unwind: int
    expect: dict

    def program(self) -> ir.Program:
        return parse_program(self.text, str(self.path))

    def positions(self) -> list[tuple[int, int]]:
        """Each FROM line at its first non-blank column (as ``--from LINE`` does)."""
        rows = self.text.split("\n")
        return [(n, len(rows[n - 1]) - len(rows[n - 1].lstrip()) + 1) for n in self.lines]

    def context(self, program: ir.Program, config: str):
        rd, si = CONFIGS[config]
        return program_context(program, self.positions(), reaching_defs=rd, sync_invariants=si)


def load(path: Path) -> Case:
    text = path.read_text()
    head = text.split("*/", 1)[0]
    lines = tuple(int(x) for x in re.search(r"FROM:\s*([^\n]*)", head).group(1).split())
    unwind = int(re.search(r"UNWIND:\s*(\d+)", head).group(1))
    expect = dict(kv.split("=") for kv in re.search(r"EXPECT:\s*([^\n]*)", head).group(1).split())
    return Case(path.stem, path, text, lines, unwind, expect)


def all_cases() -> list[Case]:
    return [load(p) for p in sorted(CASES_DIR.glob("*.c"))]
