"""Programs of tests/programs/scale: the shapes the scale issue names (a
queue whose wait is guarded by `if`, a woken waiter that takes its job before
the next signal), with the verdicts their headers give, in every mode, with
POSIX wake-ups on and off."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.options import MODES
from distaff.analysis.report import AssertionResult
from tests.explore.expectations import PROGRAMS, read

SCALE = sorted(p.name for p in (PROGRAMS / "scale").glob("*.c"))


@pytest.mark.parametrize("spurious", [True, False])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", SCALE)
def test_scale_programs_get_their_verdicts(name, mode, spurious):
    exp = read(f"scale/{name}")
    options = Options(mode=mode, spurious_wakeups=spurious, findings=False, timeout_s=120)
    results = [r for r in check_text(exp.path.read_text(), str(exp.path), options) if isinstance(r, AssertionResult)]
    assert results
    for r in results:
        assert r.status.label == exp.verdict_at(r.span.line), (r.span.line, r.message)
