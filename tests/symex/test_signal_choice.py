"""A signal with several waiters may wake any of them (POSIX leaves the
choice to the scheduler): every mode must find the failure that needs the
later waiter woken first."""

import pytest

from distaff.analysis.check import MODES, Options, check_text
from distaff.analysis.report import AssertionResult, Status
from tests.explore.expectations import PROGRAMS


@pytest.mark.parametrize("mode", MODES)
def test_signal_may_wake_the_waiter_that_came_second(mode):
    # (waits that wait for a signal: with free waits, the default, no wait does)
    path = PROGRAMS / "signal_any_waiter.c"
    options = Options(mode=mode, timeout_s=60, optimisations=(("free_waits", False),))
    [r] = [i for i in check_text(path.read_text(), str(path), options) if isinstance(i, AssertionResult)]
    assert r.status is Status.VIOLATED, (r.status, r.reason, r.message)
    signals = [s.action for s in r.trace.steps if s.action.startswith("signal")]
    assert signals == ["signal c, waking second#1"], signals


@pytest.mark.parametrize("mode", MODES)
def test_with_free_waits_the_second_waiter_returns_first(mode):
    path = PROGRAMS / "signal_any_waiter.c"
    [r] = [i for i in check_text(path.read_text(), str(path), Options(mode=mode, timeout_s=60))
           if isinstance(i, AssertionResult)]
    assert r.status is Status.VIOLATED, (r.status, r.reason, r.message)
    assert r.trace.free_waits and r.stats.counter("free_wait_awaits") > 0
