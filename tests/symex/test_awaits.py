"""Spin loops are awaits (analysis/symex/awaits.py): lock algorithms,
barriers, a seqlock and an MCS queue lock (tests/programs/spin/*.c) are
proven, violated or reported stuck as each header says, in every mode, and
a proof is a proof: no thread was stopped by the unwind bound, at any bound.
Rounds that change something still count against the bound; a spurious
wake-up is not explored again when the last one changed nothing."""

from __future__ import annotations

import itertools

import pytest

from distaff.analysis.check import Options, check, check_assertion, check_text
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Reason, Status
from tests.explore.expectations import PROGRAMS, read

SPIN = sorted(p.name for p in (PROGRAMS / "spin").glob("*.c"))
MODES = ("baseline", "dpor", "dpor-ag")
# baseline explores every interleaving of every step: past this many runs
# per assertion it stops (undecided, max-runs), and that row is not compared
BASELINE_CAP = 3000
STATUS = {"holds": Status.HOLDS, "violated": Status.VIOLATED, "unreachable": Status.UNREACHABLE}

_cache: dict = {}


def run(name: str, mode: str, **kw):
    key = (name, mode, tuple(sorted(kw.items())))
    if key not in _cache:
        path = PROGRAMS / "spin" / name
        options = Options(mode=mode, timeout_s=120, max_runs=BASELINE_CAP if mode == "baseline" else None, **kw)
        program = parse_program(path.read_text(), str(path))
        items = list(check(program, options))
        _cache[key] = ([i for i in items if isinstance(i, AssertionResult)],
                       [i for i in items if isinstance(i, Finding)])
    return _cache[key]


def test_the_programs_cover_the_lock_algorithms_and_their_breakages():
    assert {"peterson.c", "dekker.c", "szymanski.c", "bakery.c", "ticket3.c", "ttas.c", "barrier3.c",
            "seqlock.c", "mcs.c", "mutual_spin.c"} <= set(SPIN)
    assert sum(read(f"spin/{n}").verdict == "violated" for n in SPIN) >= 5
    assert sum(any(k == "stuck" for k, _, _ in read(f"spin/{n}").findings) for n in SPIN) >= 4


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", SPIN)
def test_verdicts_and_findings_as_the_header_says(name, mode):
    exp = read(f"spin/{name}")
    results, findings = run(name, mode)
    for r in results:
        if mode == "baseline" and r.reason is Reason.MAX_RUNS:
            continue
        want = exp.verdict_at(r.span.line)
        assert want is not None, f"{name}:{r.span.line} has no expected verdict"
        assert r.status is STATUS[want], (name, mode, r.span.line, r.status, r.reason, r.message)
        if r.status is not Status.VIOLATED:  # a proof: the bound stopped nothing
            assert r.stats.bound_cuts == 0 and not r.stops
    kinds = sorted({f.kind.value for f in findings if f.kind in (FindingKind.DEADLOCK, FindingKind.STUCK)})
    if exp.no_findings:
        assert kinds == []
    if mode != "baseline" or not any(r.reason is Reason.MAX_RUNS for r in results):
        assert kinds == sorted({k for k, _, _ in exp.findings if k in ("deadlock", "stuck")})


def test_a_stuck_thread_is_named_with_the_loop_and_what_never_changes():
    _, findings = run("mutual_spin.c", "dpor")
    [stuck] = [f for f in findings if f.kind is FindingKind.STUCK]
    assert stuck.message == ("stuck: main waits for visit#1 to end (line 29); visit#1 spins forever at line 17: "
                             "`here[1]` never changes; visit#2 spins forever at line 17: `here[0]` never changes")
    assert stuck.span.line == 17 and stuck.trace is not None
    actions = [s.action for s in stuck.trace.steps]
    assert sum(a.startswith("spins: nothing changed since the last round; waits for `here[") for a in actions) == 2


@pytest.mark.parametrize("mode", ["dpor", "dpor-ag"])
def test_without_awaits_the_same_locks_are_only_bounded(mode):
    off = (("awaits", False),)
    results, _ = run("peterson.c", mode, optimisations=off)
    assert [r.status for r in results] == [Status.BOUNDED]
    results, _ = run("peterson.c", mode)
    assert [r.status for r in results] == [Status.HOLDS]
    assert results[0].stats.counter("await_blocks") > 0


COUNTING_SPIN = """#include <pthread.h>
#include <assert.h>
int flag, tries;
void *waiter(void *a) {
    int n = 0;
    while (!flag)
        n++;
    tries = n;
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    flag = 1;
    pthread_join(t, 0);
    assert(tries >= 0);
    return 0;
}
"""


def test_a_round_that_changes_a_register_counts_against_the_bound():
    # n changes every round: the thread is never where it was, so the loop
    # keeps its bound (and the answer says so)
    [r] = [i for i in check_text(COUNTING_SPIN, "c.c", Options(mode="dpor", unwind=3, timeout_s=60))
           if isinstance(i, AssertionResult)]
    assert r.status is Status.BOUNDED and r.stats.counter("await_blocks") == 0
    assert [(s.function, s.what) for s in r.stops] == [("waiter", "loop")]


def test_a_loops_first_round_is_a_round_too():
    # the first failed exchange of each wait already changed nothing: the
    # thread awaits from there (30 runs when only a back edge began a round:
    # each wait then spun once more, and that exchange raced with the rest)
    results, _ = run("tas_pairs.c", "dpor", optimisations=(("ghost_rounds", False),))
    [r] = results
    assert r.status is Status.HOLDS and r.stats.runs == 8 and r.stats.bound_cuts == 0


@pytest.mark.parametrize("name, runs, off", [("tas_pairs.c", 5, 8), ("tas_order.c", 79, 412)])
def test_an_exchange_that_could_only_fail_is_not_run_first(name, runs, off):
    # once a one-event round that read lk == 1 is known to change nothing, a
    # race whose reversal would run such a round first (before the release it
    # read from) is no race, as an unlock and the next lock are not: the
    # reversal that matters is with the exchange that took the lock. Each of
    # the 90 orders of tas_order's critical sections is still run (its
    # assertion names one; all 90 were checked when this was written)
    results, _ = run(name, "dpor")
    [r] = results
    assert r.status is STATUS[read(f"spin/{name}").verdict] and r.stats.runs == runs
    assert r.stats.counter("dpor_futile_skipped") > 0
    # (and a free choice passes over a thread whose exchange could only fail:
    # 7 and 230 runs when it did not)
    assert r.stats.counter("dpor_order_futile") > 0
    results, _ = run(name, "dpor", optimisations=(("ghost_rounds", False),))
    [r] = results
    assert r.stats.runs == off and r.stats.counter("dpor_futile_skipped") == 0


@pytest.mark.parametrize("mode", ["dpor", "dpor-ag"])
def test_every_order_of_the_critical_sections_is_still_run(mode):
    # passing over a thread whose exchange could only fail changes which run
    # comes first, not which traces are run: each of the 90 orders of
    # tas_order's six critical sections, named by the assertion, is found
    text = (PROGRAMS / "spin" / "tas_order.c").read_text()
    orders = sorted(set(itertools.permutations("112233")))
    assert len(orders) == 90
    for order in orders:
        log4 = 0
        for thread in order:
            log4 = log4 * 4 + int(thread)
        program = parse_program(text.replace("log4 != 4005", f"log4 != {log4}"), "order.c")
        result, _ = check_assertion(program, program.assertions()[0], Options(mode=mode, timeout_s=60))
        assert result.status is Status.VIOLATED, ("".join(order), result.status, result.message)


@pytest.mark.parametrize("name, runs, full", [("peterson.c", 10, 4), ("dekker.c", 11, 4), ("szymanski.c", 74, 29)])
def test_a_spinner_whose_value_changed_ends_the_run_instead_of_going_round(name, runs, full):
    # once no thread can run, a thread awaiting a change that came would go
    # round again; in plain DPOR the run ends there, pruned: that round is the
    # reversal of a race of its last round's reads, a run of its own. The same
    # runs, of which only those with nothing left to wake are complete (one
    # per trace: Nidhugg counts 4 for Peterson's and Dekker's locks)
    results, _ = run(name, "dpor")
    off, _ = run(name, "dpor", optimisations=(("park_futile", False),))
    for r, o in zip(results, off):
        assert r.status is o.status is Status.HOLDS
        assert (r.stats.runs, r.stats.full_runs) == (runs, full)
        assert r.stats.counter("futile_run_ends") == runs - full == r.stats.pruned_runs
        assert (o.stats.runs, o.stats.full_runs, o.stats.counter("futile_run_ends")) == (runs, runs, 0)


@pytest.mark.parametrize("park,ghosts,runs", [(True, True, 12), (False, True, 30), (False, False, 35)])
def test_failed_swaps_are_left_out_of_the_reduction(park, ghosts, runs):
    # a round whose compare-and-swap failed changed nothing: its thread is
    # parked for the rest of the run (awaits.park), or, without parking, later
    # steps neither race with the round nor are ordered after it (Dpor's
    # ghost rounds)
    results, _ = run("cas_counter.c", "dpor", optimisations=(("park_futile", park), ("ghost_rounds", ghosts)))
    [r] = results
    assert r.status is Status.HOLDS and r.stats.bound_cuts == 0
    assert r.stats.counter("futile_parks") == (9 if park else 0)
    assert r.stats.pruned_runs == r.stats.counter("futile_run_ends") + r.stats.counter("dpor_sleep_blocked")
    assert r.stats.counter("ghost_rounds") == (20 if ghosts and not park else 0)
    assert r.stats.runs == runs
    # a run that ends with a thread parked is pruned: the 3 full runs are the
    # traces of the four increments up to the twins' permutation (6 orders)
    assert r.stats.full_runs == (3 if park else runs)


WHILE_WAIT = """#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *waiter(void *a) {
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&c, &m);
    assert(ready);
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
"""


@pytest.mark.parametrize("free", [True, False])
@pytest.mark.parametrize("mode", MODES)
def test_spurious_wake_ups_without_a_bound_leave_a_while_wait_proven(mode, free):
    # the waiter may wake without a signal any number of times, but not again
    # after a wake-up that changed nothing: a proof, not a bounded answer.
    # With free waits (the default) a wait that changed nothing awaits a
    # change; without, it may only be woken by a signal
    options = Options(mode=mode, unwind=2, timeout_s=60, optimisations=(("free_waits", free),))
    [r] = [i for i in check_text(WHILE_WAIT, "w.c", options) if isinstance(i, AssertionResult)]
    assert r.status is Status.HOLDS and r.stats.bound_cuts == 0
    assert r.stats.counter("free_wait_awaits" if free else "spurious_suppressed") > 0
