"""Sub-checks with workers (analysis/check.py). Where processes fork (Linux),
``workers`` forked processes take the sites, each once it is ready; where
they spawn, this process checks one site after another while pool
processes beside it take the sites it has not started, once the check has
run ``POOL_AFTER_S`` and each process is ready. Both ways are tested here
(``spawn`` forces the second)."""

from __future__ import annotations

import threading
import time

import pytest

from distaff.analysis import check as engine
from distaff.analysis.check import CancelToken, Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Reason, Status
from tests.explore.expectations import PROGRAMS

# three sites whose checks never finish on their own: each lasts its timeout
TIMEOUTS = PROGRAMS / "limits" / "three_timeouts.c"


def results(path, options, cancel=None):
    program = parse_program(path.read_text(), str(path))
    return [i for i in check(program, options, cancel) if isinstance(i, AssertionResult)]


@pytest.fixture
def given(monkeypatch):
    """How many sites the pool's processes were given."""
    sites = []
    give = engine._Process.give

    def counted(self, site, options):
        sites.append(site)
        give(self, site, options)
    monkeypatch.setattr(engine._Process, "give", counted)
    return sites


@pytest.fixture
def spawn(monkeypatch):
    """Pool processes spawn, as where the platform cannot fork."""
    monkeypatch.setattr(engine, "_start_method", lambda: "spawn")


def test_forked_processes_take_every_site_and_agree_with_this_process(given):
    median = PROGRAMS / "median.c"
    here = results(median, Options(mode="baseline", workers=1))
    forked = results(median, Options(mode="baseline", workers=2))
    assert len(given) == 5  # each site in a process of its own (a sub-check explored every run: no search)
    key = lambda r: (r.id, r.status, r.stats.runs)  # noqa: E731
    assert sorted(map(key, forked)) == sorted(map(key, here)) and len(here) == 5


def test_without_a_memory_cap_each_forked_process_takes_site_after_site_and_exits(monkeypatch):
    """Two processes for five sites: one that answered takes the next site
    (it was left waiting for one, and the pool waited a second for it to
    end, before each next site); when none is left it is released and
    exits, so no process outlives the check."""
    started = []
    init = engine._Process.__init__

    def counted(self, *args):
        init(self, *args)
        started.append(self)
    monkeypatch.setattr(engine._Process, "__init__", counted)
    median = PROGRAMS / "median.c"
    assert len(results(median, Options(mode="baseline", workers=2, max_memory_mb=0))) == 5
    assert len(started) == 2
    for process in started:
        process.proc.join(5)
        assert process.proc.exitcode == 0


def test_a_check_done_before_the_pool_opens_starts_no_process(monkeypatch, given, spawn):
    monkeypatch.setattr(engine, "POOL_AFTER_S", 60.0)
    median = PROGRAMS / "median.c"
    here = results(median, Options(mode="baseline", workers=1))
    beside = results(median, Options(mode="baseline", workers=2))
    assert given == []
    key = lambda r: (r.id, r.status, r.stats.runs)  # noqa: E731
    assert sorted(map(key, beside)) == sorted(map(key, here)) and len(here) == 5


def test_processes_take_the_sites_this_process_has_not_started(monkeypatch, given, spawn):
    monkeypatch.setattr(engine, "POOL_AFTER_S", 0.0)
    out = results(TIMEOUTS, Options(timeout_s=1.0, findings=False, workers=3))
    assert sorted(r.span.line for r in out) == [26, 27, 28]
    assert all(r.status is Status.UNKNOWN and r.reason is Reason.TIMEOUT for r in out)
    assert given  # a process is ready well before this process's first site's second is up


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_cancel_stops_this_process_and_the_pool(monkeypatch, given, method):
    monkeypatch.setattr(engine, "_start_method", lambda: method)
    monkeypatch.setattr(engine, "POOL_AFTER_S", 0.0)
    token = CancelToken()
    threading.Timer(1.0, token.cancel).start()
    t0 = time.monotonic()
    out = results(TIMEOUTS, Options(timeout_s=30.0, findings=False, workers=2), token)
    assert time.monotonic() - t0 < 1.0 + 3.0
    assert len(out) == 3 and all(r.reason is Reason.CANCELLED for r in out)
    assert given  # a process was checking a site when the cancel came
    ends = time.monotonic() + 5.0  # its thread ends too, at its next poll (later when both cores are busy)
    while any(t.name == "distaff-local-subcheck" for t in threading.enumerate()) and time.monotonic() < ends:
        time.sleep(0.05)
    assert not any(t.name == "distaff-local-subcheck" for t in threading.enumerate())
