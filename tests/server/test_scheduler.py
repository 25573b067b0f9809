"""The scheduler with fake checks in real worker processes: results stream,
cancellation is prompt even when the check ignores it, stale results are
never delivered, crashes become outcomes."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import replace

import pytest

from distaff.analysis.check import Options
from distaff.analysis.ir import (
    AssertKind, Const, DataModel, FuncType, Function, IntType, Intrinsic, Kind, Op,
    Program, Return, Span,
)
from distaff.analysis.report import Reason, Status
from distaff.server.scheduler import DONE, CheckRequest, Finished, Item, Scheduler, Started

INT = IntType(32, True)


def program_with_asserts(n: int) -> Program:
    body = tuple(
        Intrinsic(Op.ASSERT, None, (Const(1, INT),), Span("t.c", i + 2, 5, i + 2, 15),
                  Kind.LOCAL, "assert", AssertKind.ASSERT, "1")
        for i in range(n)
    ) + (Return(Const(0, INT), Span("t.c", n + 2, 5, n + 2, 14)),)
    main = Function("main", FuncType(INT, ()), (), (), body, Span("t.c", 1, 1, n + 3, 2))
    return Program("t.c", DataModel.LP64, (), (main,), (), ())


def request(n=3, version=1, kind="program", timeout=None) -> CheckRequest:
    return CheckRequest("file:///t.c", version, kind, program_with_asserts(n),
                        Options(timeout_s=timeout), expected=n)


class Recorder:
    def __init__(self):
        self.events = []

    def __call__(self, event):
        self.events.append(event)

    def items(self, run=None):
        return [e.item for e in self.events if isinstance(e, Item) and (run is None or e.run is run)]

    def finished(self, run):
        return [e for e in self.events if isinstance(e, Finished) and e.run is run]


@pytest.fixture
def fake_delay(monkeypatch):
    def set_delay(seconds):
        monkeypatch.setenv("FAKE_CHECK_DELAY", str(seconds))
    return set_delay


async def make(check_fn, **kw):
    rec = Recorder()
    sched = Scheduler(rec, check_fn="tests.server.fake_engine:" + check_fn,
                      loop=asyncio.get_running_loop(), **kw)
    return rec, sched


@pytest.mark.asyncio
async def test_results_stream_per_assertion_then_done(fake_delay):
    fake_delay(0.05)
    rec, sched = await make("slow_check")
    try:
        run = sched.submit(request(3))
        assert await asyncio.wait_for(run.finished, 20) is DONE
        items = rec.items(run)
        assert [r.id for r in items] == ["main:0", "main:1", "main:2"]
        assert all(r.status is Status.HOLDS for r in items)
        kinds = [type(e).__name__ for e in rec.events if getattr(e, "run", None) is run]
        assert kinds == ["Started", "Item", "Item", "Item", "Finished"]
    finally:
        sched.close()


@pytest.mark.asyncio
async def test_new_submission_cancels_old_and_old_results_never_arrive(fake_delay):
    fake_delay(0.3)
    rec, sched = await make("slow_check")
    try:
        old = sched.submit(request(5, version=1))
        while not rec.items(old):
            await asyncio.sleep(0.02)
        new = sched.submit(request(2, version=2))
        assert old.finished.result() is Reason.CANCELLED
        n_old = len(rec.items(old))
        assert await asyncio.wait_for(new.finished, 20) is DONE
        await asyncio.sleep(0.5)
        assert len(rec.items(old)) == n_old < 5  # nothing after the cancel
        assert len(rec.finished(old)) == 1
        assert [r.id for r in rec.items(new)] == ["main:0", "main:1"]
    finally:
        sched.close()


@pytest.mark.asyncio
async def test_a_check_that_ignores_cancel_is_killed_within_a_second():
    rec, sched = await make("stubborn_check", kill_after_s=0.5)
    try:
        run = sched.submit(request(1))
        while run.worker is None:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        pid = run.worker.proc.pid
        t0 = time.monotonic()
        sched.cancel("file:///t.c")
        while not run.worker.exited.is_set():
            await asyncio.sleep(0.02)
            assert time.monotonic() - t0 < 1.0
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
        assert rec.items(run) == []
    finally:
        sched.close()


@pytest.mark.asyncio
async def test_debounce_only_the_last_submission_runs(fake_delay):
    fake_delay(0.01)
    rec, sched = await make("slow_check")
    try:
        runs = [sched.submit(request(1, version=v), delay_s=0.2) for v in range(1, 6)]
        assert await asyncio.wait_for(runs[-1].finished, 20) is DONE
        started = [e.run.request.version for e in rec.events if isinstance(e, Started)]
        assert started == [5]
        assert all(r.finished.result() is Reason.CANCELLED for r in runs[:-1])
    finally:
        sched.close()


@pytest.mark.asyncio
async def test_crash_and_exception_become_outcomes():
    rec, sched = await make("crashing_check")
    try:
        run = sched.submit(request(2))
        assert await asyncio.wait_for(run.finished, 20) is Reason.CRASHED
        assert len(rec.items(run)) == 1
        assert "exit status 7" in rec.finished(run)[0].message
    finally:
        sched.close()
    rec, sched = await make("raising_check")
    try:
        run = sched.submit(request(2))
        assert await asyncio.wait_for(run.finished, 20) is Reason.CRASHED
        assert "ValueError: the fake engine cannot do this" in rec.finished(run)[0].message
    finally:
        sched.close()


@pytest.mark.asyncio
async def test_kinds_run_side_by_side_and_parallelism_is_capped(fake_delay):
    fake_delay(0.2)
    rec, sched = await make("slow_check", max_parallel=1)
    try:
        a = sched.submit(request(1, kind="program"))
        b = sched.submit(request(1, kind="context"))
        assert await asyncio.wait_for(b.finished, 20) is DONE
        assert a.finished.result() is DONE
        starts = [e.run for e in rec.events if isinstance(e, Started)]
        assert starts == [a, b]
        # b started only after a's worker exited
        assert b.started_at >= a.started_at + 0.2
    finally:
        sched.close()


@pytest.mark.asyncio
async def test_hard_deadline_stops_a_check_that_ignores_its_timeout():
    rec, sched = await make("stubborn_check", grace_s=0.3)
    try:
        run = sched.submit(request(1, timeout=0.1))
        t0 = time.monotonic()
        assert await asyncio.wait_for(run.finished, 10) is Reason.TIMEOUT
        assert 0.3 < time.monotonic() - t0 < 3
        assert "the check overran its time budget of" in rec.finished(run)[0].message
    finally:
        sched.close()


@pytest.mark.asyncio
async def test_memory_limit_applies_to_the_worker():
    rec, sched = await make("hungry_check")
    try:
        req = request(1)
        limited = CheckRequest(req.uri, 1, "program", req.program, replace(req.options, max_memory_mb=512),
                               expected=1)
        run = sched.submit(limited)
        assert await asyncio.wait_for(run.finished, 20) is Reason.MEMORY
        assert rec.finished(run)[0].message == "memory limit reached"
        unlimited = CheckRequest(req.uri, 2, "program", req.program, replace(req.options, max_memory_mb=0),
                                 expected=1)
        run = sched.submit(unlimited)
        assert await asyncio.wait_for(run.finished, 20) is DONE
        assert rec.items(run)[0].status is Status.HOLDS
    finally:
        sched.close()
