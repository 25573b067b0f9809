"""Semaphores, reader-writer locks, spinlocks, timed waits, mutex types,
pthread_once, C11 <threads.h> and <stdatomic.h>, thread-local storage
(tests/programs/sync/*.c): the verdicts and findings each program's header
states, in every mode, and the trace text a user follows."""

from __future__ import annotations


import pytest

from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, Reason, Status
from tests.explore.expectations import PROGRAMS, read

SYNC = sorted(p.name for p in (PROGRAMS / "sync").glob("*.c"))
MODES = ("baseline", "dpor", "dpor-ag")
# baseline explores every interleaving of every step: past this many runs
# per assertion it stops (undecided, max-runs), and that row is not compared
BASELINE_CAP = 3000
STATUS = {"holds": Status.HOLDS, "bounded": Status.BOUNDED, "violated": Status.VIOLATED, "unreachable": Status.UNREACHABLE}

_cache: dict = {}


def run(name: str, mode: str):
    key = (name, mode)
    if key not in _cache:
        path = PROGRAMS / "sync" / name
        options = Options(mode=mode, timeout_s=120, max_runs=BASELINE_CAP if mode == "baseline" else None)
        program = parse_program(path.read_text(), str(path))
        items = list(check(program, options))
        _cache[key] = ([i for i in items if isinstance(i, AssertionResult)],
                       [i for i in items if isinstance(i, Finding)])
    return _cache[key]


def test_there_are_programs_for_each_primitive():
    text = " ".join((PROGRAMS / "sync" / n).read_text() for n in SYNC)
    for call in ("sem_wait", "sem_trywait", "sem_getvalue", "pthread_rwlock_rdlock", "pthread_rwlock_wrlock",
                 "pthread_rwlock_trywrlock", "pthread_spin_lock", "pthread_spin_trylock",
                 "pthread_cond_timedwait", "PTHREAD_MUTEX_RECURSIVE", "PTHREAD_MUTEX_ERRORCHECK",
                 "pthread_mutex_timedlock", "pthread_once", "thrd_create", "thrd_join", "mtx_trylock",
                 "cnd_wait", "call_once", "tss_get", "atomic_int", "_Atomic", "atomic_flag_test_and_set",
                 "atomic_compare_exchange_weak", "__thread", "_Thread_local"):
        assert call in text, call


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", SYNC)
def test_verdicts_and_findings_as_the_header_says(name, mode):
    exp = read(f"sync/{name}")
    results, findings = run(name, mode)
    for r in results:
        if mode == "baseline" and r.reason is Reason.MAX_RUNS:
            continue
        want = exp.verdict_at(r.span.line)
        assert want is not None, f"{name}:{r.span.line} has no expected verdict"
        assert r.status is STATUS[want], (name, mode, r.span.line, r.status, r.reason, r.message)
    reported = sorted((f.kind.value, f.span.line) for f in findings if f.kind.value in ("deadlock", "error"))
    if exp.no_findings:
        assert reported == []
    for kind, line, start in exp.findings:
        match = [f for f in findings if f.kind.value == kind and (line is None or f.span.line == line)]
        assert match, (kind, line, reported)
        assert any(f.message.startswith(start) for f in match), [f.message for f in match]
    assert {k for k, _ in reported} <= {k for k, _, _ in exp.findings}


def _steps(result) -> list[str]:
    return [f"[{s.thread}] {s.action}" for s in result.trace.steps]


def test_a_semaphore_trace_shows_values_and_wakeups():
    results, _ = run("sem_bounded_buffer_bad.c", "dpor")
    r = next(r for r in results if r.status is Status.VIOLATED)
    steps = _steps(r)
    assert "[main] init semaphore empty to 2" in steps
    assert any(s.endswith("sem_wait empty (2 -> 1)") for s in steps)
    assert any("sem_post full (" in s for s in steps)


def test_a_timed_wait_that_gives_up_says_so():
    # (without spurious wake-ups: with them the careless waiter fails first by waking unsignalled)
    path = PROGRAMS / "sync" / "cond_timedwait.c"
    items = check(parse_program(path.read_text(), str(path)), Options(mode="dpor", timeout_s=120,
                                                                      spurious_wakeups=False))
    r = next(r for r in items if isinstance(r, AssertionResult) and r.status is Status.VIOLATED)
    assert any("timed out" in a for a in _steps(r)), _steps(r)


def test_a_thread_stuck_only_in_a_timed_wait_is_not_a_deadlock():
    # careful() waits with a deadline for a flag nobody may set: it gives up
    _, findings = run("cond_timedwait.c", "dpor")
    assert not [f for f in findings if f.kind.value == "deadlock"]


def test_two_granted_read_locks_commute():
    # two readers and a writer: with the read locks independent, dpor needs
    # fewer runs than orders of the three lock operations
    results, _ = run("rwlock_cache.c", "dpor")
    base, _ = run("rwlock_cache.c", "baseline")
    assert all(r.status is Status.HOLDS for r in results)
    assert max(r.stats.runs for r in results) < 6 * 3


def test_the_first_caller_runs_the_once_routine_and_the_other_waits():
    results, _ = run("once_init.c", "baseline")
    assert all(r.status is Status.HOLDS for r in results)
    # the C11 spelling: thrd_join stores the routine's int result
    results, _ = run("c11_threads.c", "dpor")
    assert [r.status for r in results] == [Status.HOLDS, Status.HOLDS]


def test_check_from_inside_a_write_lock_knows_the_writer_holds_it():
    # the lockset analysis counts write locks: a context thread paused inside
    # wrlock..unlock holds the rwlock, so the reader waits for the unlock
    from distaff.analysis.context import program_context

    path = PROGRAMS / "sync" / "rwlock_context.c"
    program = parse_program(path.read_text(), str(path))
    context = program_context(program, [(15, 5)], reaching_defs=True, sync_invariants=True)
    [r] = [i for i in check(program, Options(mode="dpor", timeout_s=60), None, context)
           if isinstance(i, AssertionResult)]
    assert r.status is Status.HOLDS and r.context, (r.status, r.message)
