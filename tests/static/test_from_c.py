"""Points-to and escape on C text lowered by the front end."""

from __future__ import annotations

from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import Call, Intrinsic, Kind, Load, Op, Store
from distaff.analysis.static.facts import analyze


def lower(src):
    p = parse_program(src, "t.c")
    assert not p.findings, p.findings
    return p


def at_line(p, func, line, cls):
    return [(pc, i) for pc, i in enumerate(p.function(func).body)
            if i.span.line == line and isinstance(i, cls)]


def kinds_at(p, func, line, cls=(Load, Store)):
    return {i.kind for _, i in at_line(p, func, line, cls)}


ESCAPE = """\
#include <pthread.h>
#include <stdlib.h>
int counter;
int *gp;
void *worker(void *arg) {
    int local[4];
    int i;
    for (i = 0; i < 4; i++)
        local[i] = i;
    int *data = (int *)arg;
    *data = local[2];
    counter++;
    return 0;
}
int main(void) {
    pthread_t t;
    int given = 0, kept = 0;
    int *h = malloc(sizeof(int));
    int *k = malloc(sizeof(int));
    int *p = &kept;
    gp = h;
    *h = 1;
    *k = 2;
    *p = 3;
    pthread_create(&t, 0, worker, &given);
    given = 3;
    int *u = (int *)0x1000;
    *u = 4;
    pthread_join(t, 0);
    free(k);
    free(h);
    return kept;
}
"""


def test_escape_from_c():
    p = lower(ESCAPE)
    assert kinds_at(p, "worker", 9) == {Kind.LOCAL}          # local[i] = i
    assert kinds_at(p, "worker", 11) == {Kind.LOCAL, Kind.GLOBAL}  # read local[2], write *data
    (read_local,) = at_line(p, "worker", 11, Load)
    assert read_local[1].kind is Kind.LOCAL
    assert kinds_at(p, "worker", 12) == {Kind.GLOBAL}        # counter++
    assert kinds_at(p, "main", 21) == {Kind.GLOBAL}          # gp = h
    assert kinds_at(p, "main", 22) == {Kind.GLOBAL}          # *h, published in gp
    assert kinds_at(p, "main", 23) == {Kind.LOCAL}           # *k never leaves main
    assert kinds_at(p, "main", 24) == {Kind.LOCAL}           # kept, address taken, not shared
    assert kinds_at(p, "main", 26) == {Kind.GLOBAL}          # given went to the thread
    assert kinds_at(p, "main", 28) == {Kind.GLOBAL}          # a pointer made from an integer
    assert kinds_at(p, "main", 30, Intrinsic) == {Kind.LOCAL}
    assert kinds_at(p, "main", 31, Intrinsic) == {Kind.GLOBAL}
    assert kinds_at(p, "main", 29, Load) == {Kind.LOCAL}     # the handle t


POINTERS = """\
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int x, y;
struct pair { int *a; int *b; } s;
int f(int *q) { return *q; }
int g(int *q) { return 0; }
void *r1(void *arg) { *(int *)arg = 1; return 0; }
void *r2(void *arg) { return arg; }
int main(void) {
    int v = 0, w = 0;
    s.a = &x;
    s.b = &y;
    int *p = s.a;
    *p = 1;
    int (*fp)(int *) = __VERIFIER_nondet_int() ? f : g;
    fp(&v);
    void *(*routine)(void *) = __VERIFIER_nondet_int() ? r1 : r2;
    pthread_t t;
    pthread_create(&t, 0, routine, &w);
    return 0;
}
"""


def test_points_to_from_c():
    p = lower(POINTERS)
    facts = analyze(p)
    pts = facts.points_to
    (store,) = at_line(p, "main", 14, Store)
    assert {str(o) for o in pts.objects_at("main", store[0])} == {"x"}
    (call,) = at_line(p, "main", 16, Call)
    assert facts.calls.callees_at("main", call[0]) == ("f", "g")
    assert {str(loc.obj) for loc in pts.reg("f", "q")} == {"main.v"}
    (create,) = [(pc, i) for pc, i in at_line(p, "main", 19, Intrinsic) if i.op is Op.THREAD_CREATE]
    assert facts.calls.routines_at("main", create[0]) == ("r1", "r2")
    (r1_store,) = at_line(p, "r1", 7, Store)
    assert {str(o) for o in pts.objects_at("r1", r1_store[0])} == {"main.w"}
    assert r1_store[1].kind is Kind.GLOBAL
    assert "main.v" not in {str(o) for o in facts.shared_objects()}
    assert "main.w" in {str(o) for o in facts.shared_objects()}


def test_shared_examples_shape_compiles_and_classifies():
    src = """\
#include <pthread.h>
int x;
void *t1(void *arg) { x = 10; x = 20; return 0; }
void *t2(void *arg) { int a = x, b = x; assert(a <= b); return 0; }
int main(void) {
    pthread_t h1, h2;
    pthread_create(&h1, 0, t1, 0);
    pthread_create(&h2, 0, t2, 0);
    pthread_join(h1, 0);
    pthread_join(h2, 0);
    return 0;
}
"""
    p = lower(src)
    assert kinds_at(p, "t1", 3) == {Kind.GLOBAL}
    assert kinds_at(p, "t2", 4, Load) == {Kind.GLOBAL}
    assert kinds_at(p, "main", 9, Load) == {Kind.LOCAL}
