"""Mode ``dpor-ag`` on small programs: pruning finds what DPOR finds, and
each piece (summaries, RVar/WVar, Type A and B slicing) does its part.
Several programs here are the shapes of bugs the differential test found,
in our own words."""

from __future__ import annotations

from pathlib import Path

from distaff.analysis.check import Options, check_assertion
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import FindingKind, Status


def _check(src: str, mode: str = "dpor-ag", line: int | None = None, **switches):
    program = parse_program(src, "t.c")
    sites = program.assertions()
    site = sites[0] if line is None else next(s for s in sites if s.span.line == line)
    return check_assertion(program, site, Options(mode=mode, optimisations=tuple(switches.items())))


NARROWING = """
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int shared, other;
void *setter(void *a) { shared = 1; return 0; }
void *checker(void *a) {
    int zero = 0;
    if (zero > shared)
        assert(0);
    return 0;
}
int main(void) {
    pthread_t s, c;
    int v = __VERIFIER_nondet_int();
    __VERIFIER_assume(-1 <= v && v <= 0);
    shared = v;
    pthread_create(&s, 0, setter, 0);
    pthread_create(&c, 0, checker, 0);
    if (v >= other)
        v = 5;
    else
        v = 5;
    pthread_join(c, 0);
    pthread_join(s, 0);
    return 0;
}
"""


def test_a_branch_on_an_input_the_assertion_reads_is_explored_both_ways():
    # the branch in main assigns only what nobody reads, but its condition
    # narrows v, which flows into `shared`: exploring one side would lose v == -1
    r, _ = _check(NARROWING)
    assert r.status is Status.VIOLATED
    assert r.stats.counter("ag_type_b") == 0


IRRELEVANT_BRANCH = """
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int x, noise;
void *writer(void *a) { x = 1; return 0; }
void *reader(void *a) {
    int mood = __VERIFIER_nondet_int();
    int seen;
    if (mood > 0)
        noise = 1;
    else
        noise = 2;
    seen = x;
    assert(seen >= 0);
    return 0;
}
int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
"""


def test_a_branch_outside_the_slice_is_explored_one_way():
    on = _check(IRRELEVANT_BRANCH)[0]
    off = _check(IRRELEVANT_BRANCH, slicing=False)[0]
    assert on.status is off.status is Status.HOLDS
    assert on.stats.counter("ag_type_b") >= 1
    assert on.stats.runs < off.stats.runs


ORDER = """
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int cell;
void *late(void *a) { cell = 1; return 0; }
void *early(void *a) {
    int zero = 0;
    if (zero > cell)
        assert(0);
    return 0;
}
int main(void) {
    pthread_t l, e;
    int v = __VERIFIER_nondet_int();
    __VERIFIER_assume(-1 <= v && v <= 0);
    cell = v;
    pthread_create(&l, 0, late, 0);
    pthread_create(&e, 0, early, 0);
    if (v >= 0)
        v = 1;
    pthread_join(e, 0);
    pthread_join(l, 0);
    return 0;
}
"""


def test_pruning_keeps_the_races_of_the_events_it_skips():
    # with v == 0 (main's branch taken first) `late` writes before `early`
    # reads; with v == -1 the state after `late`'s write is the same control
    # state and is pruned, and only the read of `cell` recorded below it
    # (RVar/WVar) tells DPOR to let `early` read first there
    for switches in ({}, {"rvar_wvar": False}):
        r, _ = _check(ORDER, **switches)
        assert r.status is Status.VIOLATED, switches


AFTER_THE_ASSERTION = """
#include <pthread.h>
#include <assert.h>
int x = 1, busy;
void *checker(void *a) {
    int v = x;
    assert(v > 0);
    return 0;
}
void *worker(void *a) {
    busy = busy + 1;
    busy = busy + 1;
    busy = busy + 1;
    return 0;
}
int main(void) {
    pthread_t c, w1, w2;
    pthread_create(&c, 0, checker, 0);
    pthread_create(&w1, 0, worker, 0);
    pthread_create(&w2, 0, worker, 0);
    pthread_join(c, 0);
    pthread_join(w1, 0);
    pthread_join(w2, 0);
    return 0;
}
"""


def test_runs_stop_where_the_assertion_is_out_of_reach():
    on = _check(AFTER_THE_ASSERTION)[0]
    off = _check(AFTER_THE_ASSERTION, slicing=False, summaries=False)[0]
    dpor = _check(AFTER_THE_ASSERTION, "dpor")[0]
    assert on.status is off.status is dpor.status is Status.HOLDS
    assert on.stats.counter("ag_pruned_type_a") >= 1
    assert on.stats.runs < dpor.stats.runs


DEADLOCK_AFTER = """
#include <pthread.h>
#include <assert.h>
int x = 1;
pthread_mutex_t p, q;
void *one(void *a) {
    pthread_mutex_lock(&p);
    pthread_mutex_lock(&q);
    pthread_mutex_unlock(&q);
    pthread_mutex_unlock(&p);
    return 0;
}
void *two(void *a) {
    pthread_mutex_lock(&q);
    pthread_mutex_lock(&p);
    pthread_mutex_unlock(&p);
    pthread_mutex_unlock(&q);
    return 0;
}
int main(void) {
    pthread_t a, b;
    assert(x == 1);
    pthread_create(&a, 0, one, 0);
    pthread_create(&b, 0, two, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""


def test_stopping_early_never_hides_a_deadlock():
    r, findings = _check(DEADLOCK_AFTER)
    assert r.status is Status.HOLDS
    assert any(f.kind is FindingKind.DEADLOCK for f in findings)


OVERFLOW = """
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int n;
void *bump(void *a) {
    int seen = n;
    n = seen + 1;
    return 0;
}
int main(void) {
    pthread_t a, b;
    n = __VERIFIER_nondet_int();
    int start = n;
    pthread_create(&a, 0, bump, 0);
    pthread_create(&b, 0, bump, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(n > start);
    return 0;
}
"""


def test_run_time_errors_survive_pruning():
    ag, ag_findings = _check(OVERFLOW)
    dpor, dpor_findings = _check(OVERFLOW, "dpor")
    # at INT_MAX the increment is an error and the run ends; otherwise n grew
    assert ag.status is dpor.status is Status.HOLDS
    errors = {(f.span.line, f.message) for f in dpor_findings if f.kind is FindingKind.ERROR}
    assert errors and errors == {(f.span.line, f.message) for f in ag_findings if f.kind is FindingKind.ERROR}


TWO_WAITERS = """
#include <pthread.h>
#include <assert.h>
pthread_mutex_t lock;
pthread_cond_t ready;
int stock;
void *take(void *a) {
    pthread_mutex_lock(&lock);
    if (stock == 0)
        pthread_cond_wait(&ready, &lock);
    assert(stock > 0);
    stock = stock - 1;
    pthread_mutex_unlock(&lock);
    return 0;
}
int main(void) {
    pthread_t x, y;
    pthread_mutex_init(&lock, 0);
    pthread_cond_init(&ready, 0);
    pthread_create(&x, 0, take, 0);
    pthread_create(&y, 0, take, 0);
    pthread_mutex_lock(&lock);
    stock = 1;
    pthread_cond_broadcast(&ready);
    pthread_mutex_unlock(&lock);
    pthread_mutex_lock(&lock);
    stock = stock + 1;
    pthread_cond_broadcast(&ready);
    pthread_mutex_unlock(&lock);
    return 0;
}
"""


def test_which_signal_woke_a_waiter_is_not_carried_over_by_a_summary():
    # both takers wait, the first broadcast wakes both, one takes the only
    # item and the other (waiting with `if`) finds none. Pruning reaches the
    # same control state in a run where the second broadcast woke that
    # waiter; RVar/WVar must not take its re-lock as ordered after main's
    # second critical section there
    for mode in ("dpor", "dpor-ag"):
        r, _ = _check(TWO_WAITERS, mode)
        assert r.status is Status.VIOLATED, mode


DEFERRED = """
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int seen = 2, bound = -1;
void *check(void *a) {
    int v = seen;
    assert(v < bound);
    return 0;
}
void *clear(void *a) {
    int two = 2;
    seen = 0;
    assert(two < bound);
    return 0;
}
int main(void) {
    pthread_t p, q;
    int k = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= k && k <= 1);
    seen = -1;
    bound = k;
    if (k > 0) {
        bound = bound + 2;
        seen = seen + 1;
    }
    pthread_create(&q, 0, clear, 0);
    pthread_create(&p, 0, check, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
"""


def test_another_assertion_failing_does_not_protect_the_target():
    # with k == 0, `clear` writes 0 and its own assertion fails; the engine
    # defers that failure to its next step, so `check` can still read 0 and
    # fail first: a summary must not count the other failure as a safe stop
    program_line = 1 + next(i for i, l in enumerate(DEFERRED.splitlines()) if "assert(v < bound)" in l)
    for mode in ("dpor", "dpor-ag"):
        r, _ = _check(DEFERRED, mode, line=program_line)
        assert r.status is Status.VIOLATED, mode


# a counter both threads add to under a mutex: it holds, with a few runs
LOCKED_COUNTER = (Path(__file__).resolve().parents[2] / "examples" / "locked_counter.c").read_text()


def _texts(src: str, **options):
    program = parse_program(src, "t.c")
    r, _ = check_assertion(program, program.assertions()[0], Options(mode="dpor-ag", **options))
    return r


def test_summaries_nobody_reads_are_not_learned():
    # once no node may take another option, what the nodes left learn is
    # read by no later node: skipped unless the summaries' texts are asked for
    quiet = _texts(LOCKED_COUNTER, summary_text=False, optimisations=(("plain_first", False),))
    full = _texts(LOCKED_COUNTER, summary_text=False, optimisations=(("plain_first", False), ("unread_summaries", False)))
    assert quiet.status is full.status is Status.HOLDS
    assert (quiet.stats.runs, quiet.stats.full_runs, quiet.stats.pruned_runs) == \
        (full.stats.runs, full.stats.full_runs, full.stats.pruned_runs)
    assert quiet.stats.counter("ag_summaries_unread") > 0
    assert full.stats.counter("ag_summaries_unread") == 0
    assert quiet.stats.counter("summary_entries") < full.stats.counter("summary_entries")
    # the editor's hover reads them all: nothing is skipped there
    shown = _texts(LOCKED_COUNTER, summary_text=True)
    assert shown.stats.counter("ag_summaries_unread") == 0
    assert shown.stats.counter("summary_entries") == full.stats.counter("summary_entries")
    assert shown.summaries


# regress's eight inputs folded into a maximum by four workers, with three
MAX_FOLD = (Path(__file__).parents[2] / "bench" / "regress" / "programs" / "array_max_lock_ok.c") \
    .read_text().replace("#define W 4", "#define W 3")


def test_a_pruning_check_past_its_resource_limit_explores_instead():
    # that the maxima of six inputs rise in the order the folds ran implies
    # the summary, but z3 needs much of a second per such check
    on = _check(MAX_FOLD)[0]
    off = _check(MAX_FOLD, prune_check_limit=False)[0]
    assert on.status is off.status is Status.UNREACHABLE  # reach_error() is never called
    assert on.stats.counter("ag_prune_gave_up") >= 1
    assert on.stats.counter("solver_rlimit_stops") == on.stats.counter("ag_prune_gave_up")
    assert off.stats.counter("ag_prune_gave_up") == 0
    # a state given up on is explored, not pruned: never fewer runs
    assert on.stats.runs >= off.stats.runs
