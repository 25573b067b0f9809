"""Sub-checks with workers (analysis/check.py). Where processes fork (Linux),
this process checks sites itself for the check's first ``POOL_AFTER_S``
(the trial, under the memory cap), and past it ``workers`` forked processes
take the rest, each once it is ready; where they spawn, this process checks
one site after another while pool processes beside it take the sites it has
not started, once the check has run ``POOL_AFTER_S`` and each process is
ready. Both ways are tested here (``spawn`` forces the second; a
``POOL_AFTER_S`` of 0 leaves out the trial)."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import given as drawn

from distaff.analysis import check as engine
from distaff.analysis.check import CancelToken, Options, check
from distaff.analysis.executor import address_space_mb
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Reason, Status
from tests.differential import cprog as C
from tests.differential import gen
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


@pytest.fixture
def no_trial(monkeypatch):
    """Forked processes from the check's start: no trial in this process."""
    monkeypatch.setattr(engine, "POOL_AFTER_S", 0.0)


@pytest.fixture
def started(monkeypatch):
    """The pool processes started."""
    processes = []
    init = engine._Process.__init__

    def counted(self, *args):
        init(self, *args)
        processes.append(self)
    monkeypatch.setattr(engine._Process, "__init__", counted)
    return processes


def test_forked_processes_take_every_site_and_agree_with_this_process(given, no_trial):
    median = PROGRAMS / "median.c"
    here = results(median, Options(mode="baseline", workers=1))
    forked = results(median, Options(mode="baseline", workers=2))
    assert len(given) == 5  # each site in a process of its own (a sub-check explored every run: no search)
    key = lambda r: (r.id, r.status, r.stats.runs)  # noqa: E731
    assert sorted(map(key, forked)) == sorted(map(key, here)) and len(here) == 5


def test_without_a_memory_cap_each_forked_process_takes_site_after_site_and_exits(no_trial, started):
    """Two processes for five sites: one that answered takes the next site
    (it was left waiting for one, and the pool waited a second for it to
    end, before each next site); when none is left it is released and
    exits, so no process outlives the check."""
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
    cancelled = []

    def cancel_once_a_process_checks():
        """Cancel once the pool has a site (a spawned process may take
        seconds to be ready on a busy machine), or after 20 s."""
        ends = time.monotonic() + 20.0
        while not given and time.monotonic() < ends:
            time.sleep(0.02)
        time.sleep(0.2)
        cancelled.append(time.monotonic())
        token.cancel()
    threading.Thread(target=cancel_once_a_process_checks, daemon=True).start()
    out = results(TIMEOUTS, Options(timeout_s=30.0, findings=False, workers=2), token)
    assert cancelled and time.monotonic() - cancelled[0] < 3.0
    assert len(out) == 3 and all(r.reason is Reason.CANCELLED for r in out)
    assert given  # a process was checking a site when the cancel came
    ends = time.monotonic() + 5.0  # its thread ends too, at its next poll (later when both cores are busy)
    while any(t.name == "distaff-local-subcheck" for t in threading.enumerate()) and time.monotonic() < ends:
        time.sleep(0.05)
    assert not any(t.name == "distaff-local-subcheck" for t in threading.enumerate())


def roomy_cap() -> int:
    """A memory cap that lets this process make a trial: its address space
    under half of it (a test process that has run many checks holds more
    than a fresh command's 160 MB: z3's memory, the threads' malloc arenas)."""
    return max(2048, 2 * address_space_mb() + 512)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_check_done_within_its_trial_starts_no_process(monkeypatch, started, workers):
    """Under the memory cap (the command line's default), a check that ends
    within the trial runs in this process only, with the same verdicts and
    runs as without the cap."""
    monkeypatch.setattr(engine, "POOL_AFTER_S", 30.0)  # the trial outlasts the check on a loaded machine too
    median = PROGRAMS / "median.c"
    free = results(median, Options(mode="baseline", workers=1))
    capped = results(median, Options(mode="baseline", workers=workers, max_memory_mb=roomy_cap(), timeout_s=30.0))
    assert started == []
    key = lambda r: (r.id, r.status, r.stats.runs)  # noqa: E731
    assert sorted(map(key, capped)) == sorted(map(key, free)) and len(free) == 5


def test_a_site_still_running_when_the_trial_ends_moves_to_a_process_with_what_is_left_of_its_budget(
        monkeypatch, started):
    monkeypatch.setattr(engine, "POOL_AFTER_S", 0.4)
    budgets = []
    give = engine._Process.give

    def noted(self, site, options):
        budgets.append((site.span.line, options.timeout_s))
        give(self, site, options)
    monkeypatch.setattr(engine._Process, "give", noted)
    t0 = time.monotonic()
    out = results(TIMEOUTS, Options(timeout_s=1.5, findings=False, max_memory_mb=roomy_cap()))
    took = time.monotonic() - t0
    assert sorted(r.span.line for r in out) == [26, 27, 28]
    assert all(r.status is Status.UNKNOWN and r.reason is Reason.TIMEOUT for r in out)
    # the first site ran 0.4 s here, then in a process for what was left of its 1.5 s
    # when the process took it (less on a loaded machine, where the fork takes longer)
    assert [line for line, _ in budgets] == [26, 27, 28]
    assert 0.0 < budgets[0][1] <= 1.1 and budgets[1][1] == budgets[2][1] == 1.5
    assert len(started) == 3  # under the cap, a process per site
    assert took < 3 * 1.5 + 3.0, took


def test_the_trial_holds_the_memory_cap_and_gives_back_the_limit(monkeypatch, started):
    """A sub-check that needs more than the cap, in the trial: undecided for
    memory, as in a process, and this process's own limit is what it was."""
    import resource

    cap = roomy_cap()

    def greedy(program, site, options, cancel, context):
        return bytearray((cap + 1024) << 20)
    monkeypatch.setattr(engine, "run", greedy)
    monkeypatch.setattr(engine, "POOL_AFTER_S", 30.0)
    before = resource.getrlimit(resource.RLIMIT_AS)
    out = results(TIMEOUTS, Options(findings=False, max_memory_mb=cap))
    assert len(out) == 3 and all(r.reason is Reason.MEMORY for r in out), [r.message for r in out]
    assert started == []
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_process_already_near_its_cap_makes_no_trial(monkeypatch, given):
    """Over half the cap in use here, every sub-check runs in a process of
    its own from the start, as before trials."""
    monkeypatch.setattr(engine, "POOL_AFTER_S", 30.0)
    monkeypatch.setattr(engine, "address_space_mb", lambda: 1500)
    out = results(PROGRAMS / "median.c", Options(mode="baseline", max_memory_mb=2048))
    assert len(out) == 5 and len(given) == 5


@settings(max_examples=12, deadline=None, database=None, phases=gen.PHASES,
          suppress_health_check=list(HealthCheck))
@drawn(program=gen.programs())
def test_the_trial_and_the_pool_agree_with_this_process_on_generated_programs(program):
    """Sites checked in the trial, moved out of it half-way, or given to
    forked processes: the same verdicts and runs as one after another here.
    (A trial of 20 ms ends in the middle of some of these checks: 7 of the
    13 sites given to processes in one run of it had been started here.)"""
    text = C.to_c(program)
    parsed = parse_program(text, "gen.c")

    def answers(options):
        return sorted((r.span.line, r.status, r.stats.runs) for r in check(parsed, options)
                      if isinstance(r, AssertionResult))
    here = answers(Options(timeout_s=60.0, max_memory_mb=0, workers=1))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "POOL_AFTER_S", 0.02)
        pooled = answers(Options(timeout_s=60.0, max_memory_mb=roomy_cap(), workers=2))
    assert pooled == here, text
