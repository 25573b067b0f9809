"""Slices of assertions (assertion-guided paper, §6.1), from C text."""

from __future__ import annotations

import pickle

import pytest

from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import Branch
from distaff.analysis.static.facts import analyze
from distaff.analysis.static.slicing import slice_of


def lines_in(program, facts, assertion, func, **kw):
    s = slice_of(program, assertion.id, facts, **kw) if kw else facts.slice(assertion.id)
    body = program.function(func).body
    return {body[pc].span.line for pc in range(len(body)) if s.contains(func, pc)}


def setup(src):
    p = parse_program(src, "t.c")
    assert not p.findings, p.findings
    return p, analyze(p)


FIGURE_5 = """\
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int p = __VERIFIER_nondet_int(), q = __VERIFIER_nondet_int(), v = __VERIFIER_nondet_int();
    int w = __VERIFIER_nondet_int(), x = 0, y = 0, z = 0;
    if (p)            /* line 1 of the figure */
        y = v;        /* 2 */
    z = w * 5;        /* 3 */
    if (q)            /* 4 */
        x = z * 2;    /* 5 */
    assert(x);        /* 6 */
    return y;
}
"""


def test_figure_5_lines_1_2_out_3_to_5_in():
    p, facts = setup(FIGURE_5)
    (a,) = p.assertions()
    lines = lines_in(p, facts, a, "main")
    assert {7, 8, 9, 10} <= lines
    assert not {5, 6} & lines
    body = p.function("main").body
    branch_p = next(pc for pc, i in enumerate(body) if isinstance(i, Branch) and i.span.line == 5)
    assert not facts.slice(a.id).contains("main", branch_p)


INTERFERENCE = """\
#include <pthread.h>
int g1, g2;
void *t1(void *arg) {
    g1 = 1;
    g2 = 2;
    return 0;
}
void *t2(void *arg) {
    int v = g1;
    assert(v == 0 || v == 1);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    return 0;
}
"""


def test_interference_pulls_in_the_other_threads_store_only():
    p, facts = setup(INTERFERENCE)
    (a,) = p.assertions()
    t1 = lines_in(p, facts, a, "t1")
    assert 4 in t1 and 5 not in t1
    assert {9, 10} <= lines_in(p, facts, a, "t2")
    assert {15, 16} <= lines_in(p, facts, a, "main")


CALLS = """\
extern int __VERIFIER_nondet_int(void);
int table[4];
int inc(int a, int b) {
    return a + 1;
}
int main(void) {
    int u = __VERIFIER_nondet_int();
    int unused = __VERIFIER_nondet_int();
    table[1] = u;
    table[2] = unused;
    int r = inc(table[1], unused);
    assert(r != 0);
    return 0;
}
"""


def test_data_flows_through_parameters_returns_and_memory_cells():
    p, facts = setup(CALLS)
    (a,) = p.assertions()
    main = lines_in(p, facts, a, "main")
    assert {7, 9, 11, 12} <= main
    assert not {8, 10} & main  # b is never used; table[2] is another cell
    assert 4 in lines_in(p, facts, a, "inc")  # its return (and the implicit one at the brace)


def test_other_assertions_can_be_left_out():
    src = """\
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
    if (y > 3)
        assert(y != 7);
    assert(x != 5);
    return 0;
}
"""
    p, facts = setup(src)
    first, second = p.assertions()
    assert {4, 5} <= lines_in(p, facts, second, "main")
    assert not {4, 5} & lines_in(p, facts, second, "main", other_assertions=False)


def test_unknown_pointer_read_depends_on_every_write():
    src = """\
extern int *get(void);
int g;
int main(void) {
    int *p = get();
    g = 3;
    int v = *p;
    assert(v != 1);
    return 0;
}
"""
    p, facts = setup(src)
    (a,) = p.assertions()
    assert 5 in lines_in(p, facts, a, "main")


def test_unknown_assertion_is_an_error_and_facts_pickle():
    p, facts = setup(FIGURE_5)
    with pytest.raises(ValueError):
        facts.slice("main:999")
    (a,) = p.assertions()
    before = facts.slice(a.id)
    data = pickle.dumps(facts)
    again = pickle.loads(data)
    assert not again._cache  # computed facts stay behind; the worker recomputes
    assert again.slice(a.id) == before
    assert len(pickle.dumps(again)) == len(data)
