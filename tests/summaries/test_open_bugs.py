"""Two missed violations of mode dpor-ag, kept as regression programs.

Each file under ``open/`` names in a ``VIOLATED:`` header the lines of its
assertions that can fail. dpor-ag's summary pruning once reported them as
holding (fixed in d66f29c); every mode must find every one of them.
"""

import re
from pathlib import Path

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Status

OPEN = sorted((Path(__file__).parent / "open").glob("*.c"))


def violated_lines(path: Path, mode: str) -> set[int]:
    results = check_text(path.read_text(), str(path), Options(mode=mode, timeout_s=120))
    return {r.span.line for r in results
            if isinstance(r, AssertionResult) and r.status is Status.VIOLATED}


def expected(path: Path) -> set[int]:
    return {int(n) for n in re.search(r"VIOLATED:([\d ]+)", path.read_text()).group(1).split()}


@pytest.mark.parametrize("path", OPEN, ids=lambda p: p.name)
@pytest.mark.parametrize("mode", ["baseline", "dpor"])
def test_sound_modes_find_every_violation(path, mode):
    assert violated_lines(path, mode) == expected(path)


@pytest.mark.parametrize("path", OPEN, ids=lambda p: p.name)
def test_dpor_ag_finds_every_violation(path):
    assert violated_lines(path, "dpor-ag") == expected(path)
