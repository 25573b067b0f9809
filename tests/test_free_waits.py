"""Free waits: with POSIX wake-ups on, an assertion's sub-check lets a
condition wait return whenever the schedule has its thread re-acquire the
mutex, signal or none, and a round through the wait that changed nothing
awaits a change (distaff.analysis.symex.sync, optimisation free_waits).

The programs of tests/programs/waits carry their verdicts and findings; each
is checked in every mode, with free waits on and off. A wait that never
returns (a lost wake-up) is the search for deadlocks' to find: sub-checks
with free waits do not count as having met every finding."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.options import MODES
from distaff.analysis.report import AssertionResult, Finding, FindingKind
from tests.explore.expectations import PROGRAMS, read

WAITS = sorted(p.name for p in (PROGRAMS / "waits").glob("*.c"))


def _check(name: str, **kw) -> tuple[list[AssertionResult], list[Finding]]:
    exp = read(f"waits/{name}")
    out = list(check_text(exp.path.read_text(), str(exp.path), Options(timeout_s=120, **kw)))
    return [r for r in out if isinstance(r, AssertionResult)], [f for f in out if isinstance(f, Finding)]


def _counter(r: AssertionResult, name: str) -> int:
    return dict(r.stats.counters).get(name, 0)


# (pool2.c without free waits in the baseline: every interleaving of every
# signal's choice, close to a minute; the other modes check it)
@pytest.mark.parametrize("name, mode, free", [(n, m, f) for n in WAITS for m in MODES for f in (True, False)
                                              if not (n == "pool2.c" and m == "baseline" and not f)])
def test_wait_programs_get_their_verdicts_and_findings(name, mode, free):
    exp = read(f"waits/{name}")
    results, findings = _check(name, mode=mode, optimisations=(("free_waits", free),))
    assert results
    for r in results:
        assert r.status.label == exp.verdict_at(r.span.line), (r.span.line, r.message)
    kinds = {f.kind for f in findings}
    if "deadlock" in {k for k, *_ in exp.findings}:
        assert FindingKind.DEADLOCK in kinds, findings


def test_free_waits_act_only_with_posix_wakeups():
    (on,), _ = _check("pool2.c", mode="dpor", findings=False)
    (off,), _ = _check("pool2.c", mode="dpor", findings=False, spurious_wakeups=False)
    # (each wait of pool2.c returns straight to its guard: it awaits from its first call)
    assert _counter(on, "free_wait_awaits") > 0 and _counter(on, "guard_waits") > 0
    assert _counter(off, "free_waits") == _counter(off, "free_wait_awaits") == _counter(off, "guard_waits") == 0


@pytest.mark.parametrize("mode", ["dpor", "dpor-ag"])
def test_free_waits_explore_a_pool_in_fewer_runs(mode):
    (free,), _ = _check("pool2.c", mode=mode, findings=False)
    (signalled,), _ = _check("pool2.c", mode=mode, findings=False, optimisations=(("free_waits", False),))
    assert free.status.label == signalled.status.label == "holds"
    assert free.stats.runs * 3 < signalled.stats.runs, (free.stats.runs, signalled.stats.runs)


def test_a_lost_wakeup_is_found_by_the_search_after_free_waits():
    results, findings = _check("lost_wakeup.c", mode="dpor")
    (r,) = results
    assert r.status.label == "holds" and _counter(r, "free_waits") > 0
    (dead,) = [f for f in findings if f.kind is FindingKind.DEADLOCK]
    assert "waits for a signal on c" in dead.message


def test_the_three_worker_queue_project_is_proven(capsys, monkeypatch):
    """bench/scale/queue3_project: three twins take a job each from a queue
    (queue.c) on a condition variable and count it (stats.c); undecided at
    60 s without twins and free waits."""
    import json
    from pathlib import Path

    from distaff.server import cli

    root = Path(__file__).resolve().parent.parent / "bench" / "scale" / "queue3_project"
    monkeypatch.chdir(root)
    status = cli.main(["check", "worker.c", "--no-findings", "--format", "json", "--timeout", "120"])
    doc = json.loads(capsys.readouterr().out)
    got = {(a["path"], a["line"]): a["status"] for f in doc["files"] for a in f["assertions"]}
    assert status == 0
    assert got == {("worker.c", 9): "holds", ("main.c", 20): "holds"}


@pytest.mark.parametrize("mode", ["dpor", "dpor-ag"])
def test_a_guarded_wait_awaits_its_guard_from_its_first_call(mode):
    """``while (guard) wait``: the first call, with the guard read since the
    loop's head unchanged, already awaits a change of the guard (optimisation
    guard_waits); without it the wait returned once and the round through
    the guard ran again before it awaited."""
    (on,), _ = _check("pool2.c", mode=mode, findings=False)
    (off,), _ = _check("pool2.c", mode=mode, findings=False, optimisations=(("guard_waits", False),))
    assert on.status.label == off.status.label == "holds"
    assert _counter(on, "guard_waits") > 0 and _counter(off, "guard_waits") == 0
    assert on.stats.runs < off.stats.runs, (on.stats.runs, off.stats.runs)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("guard", [True, False])
def test_a_waiter_woken_by_a_change_just_before_the_process_ends(mode, guard):
    """woken_before_exit.c: the wait's return must be possible as soon as
    `go` changes, not only once no thread can run (main's return can always
    run, and ends the process)."""
    (r,), _ = _check("woken_before_exit.c", mode=mode, findings=False, optimisations=(("guard_waits", guard),))
    assert r.status.label == "violated", r.message
