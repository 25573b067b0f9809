"""May-reach and shortest CFG distances to each assertion."""

from __future__ import annotations

from distaff.analysis.frontend import parse_program
from distaff.analysis.static.facts import analyze

MEDIAN = """\
extern int __VERIFIER_nondet_int(void);
int median(int x, int y, int z) {
    if (y < z) {
        if (x < y) {
            assert(x <= y && y <= z);
            return y;
        } else if (x < z) {
            assert(y <= x && x <= z);
            return x;
        }
    } else {
        if (x > y) {
            assert(z <= y && y <= x);
            return y;
        } else if (x > z) {
            assert(z <= x && x <= y);
            return x;
        }
    }
    assert((x <= z && z <= y) || (y <= z && z <= x));
    return z;
}
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    int z = __VERIFIER_nondet_int();
    median(x, y, z);
    return 0;
}
"""


def setup(src):
    p = parse_program(src, "t.c")
    assert not p.findings, p.findings
    return p, analyze(p)


def reaching_lines(p, facts, a, func):
    body = p.function(func).body
    r = facts.reach(a.id)
    return {body[pc].span.line for pc in range(len(body)) if r.may_reach_in_function(func, pc)}


def test_median_each_assertion_reachable_only_along_its_branch():
    p, facts = setup(MEDIAN)
    asserts = p.assertions()
    assert [a.span.line for a in asserts] == [5, 8, 13, 16, 20]
    expected = {5: {3, 4, 5}, 8: {3, 4, 7, 8}, 13: {3, 12, 13}, 16: {3, 12, 15, 16}}
    for a in asserts[:4]:
        assert reaching_lines(p, facts, a, "median") == expected[a.span.line]
    last = reaching_lines(p, facts, asserts[4], "median")
    assert {3, 4, 7, 12, 15, 20} <= last and not {5, 6, 8, 9, 13, 14, 16, 17} & last
    for a in asserts:
        r = facts.reach(a.id)
        assert r.may_reach_in_function("main", 0)
        assert not r.reaches_via_return("median")


def test_distance_shrinks_along_the_path_and_counts_the_call():
    p, facts = setup(MEDIAN)
    a = p.assertions()[0]
    r = facts.reach(a.id)
    body = p.function("median").body
    path = [pc for pc in range(len(body)) if r.distance("median", pc) is not None]
    dists = [r.distance("median", pc) for pc in path]
    assert dists == sorted(dists, reverse=True) and dists[-1] == 0
    assert path[-1] == a.pc
    main = p.function("main").body
    call = next(pc for pc, i in enumerate(main) if type(i).__name__ == "Call")
    assert r.distance("main", call) == 1 + r.distance("median", 0)
    assert r.distance("main", 0) > r.distance("main", call)
    assert r.distance("main", call + 1) is None


THREADS = """\
#include <pthread.h>
#include <stdlib.h>
int g;
void check(void) { assert(g != 3); }
void *worker(void *arg) { g = 1; check(); return 0; }
void helper(void) { g = 2; }
void die(void) { abort(); }
int main(void) {
    pthread_t t;
    helper();
    if (g == 5)
        die();
    pthread_create(&t, 0, worker, 0);
    g = 3;
    return 0;
}
"""


def test_thread_creation_reaches_and_calls_that_never_return_do_not():
    p, facts = setup(THREADS)
    (a,) = p.assertions()
    r = facts.reach(a.id)
    main = p.function("main").body
    by_line = {}
    for pc, i in enumerate(main):
        by_line.setdefault(i.span.line, []).append(pc)
    create = by_line[13][-1]
    assert r.distance("main", create) == 1 + r.distance("worker", 0)
    assert r.distance("main", by_line[14][0]) is None  # after the only create
    die_call = next(pc for pc in by_line[12] if type(main[pc]).__name__ == "Call")
    assert r.distance("main", die_call) is None  # die() never returns
    assert r.may_reach_in_function("main", 0)
    assert r.reaches_via_return("helper") and not r.reaches_via_return("check")
    assert r.reaches_via_return("die") is True  # its call site's continuation may reach
    assert facts.returning["die"] is None and facts.returning["helper"] >= 1
    assert r.from_stack([("main", by_line[10][0]), ("helper", 0)]) is not None
    assert r.from_stack([("worker", 0)]) is not None
    assert r.from_stack([("main", by_line[14][0])]) is None
