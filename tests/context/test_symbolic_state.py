"""The symbolic heap and symbolic synchronization of a context run:
primary objects that alias conditionally, initial waiters ordered by
symbolic timestamps, locks settled from the locksets."""

from distaff.analysis.check import Options, check_assertion
from distaff.analysis.context import program_context
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import Status

HEAD = "#include <pthread.h>\n#include <stdlib.h>\n#include <assert.h>\n"
OPTIONS = Options(mode="dpor", unwind=2, timeout_s=60)


def verdict(src: str, *lines: int, rd: bool = True, si: bool = True):
    program = parse_program(HEAD + src, "t.c")
    (site,) = program.assertions()
    ctx = program_context(program, [(n + 3, 1) for n in lines], reaching_defs=rd, sync_invariants=si)
    result, findings = check_assertion(program, site, OPTIONS, None, ctx)
    return result, findings


ALIAS = """
struct item { int v; struct item *next; };
struct item *head;
void *t(void *arg) {
    struct item *p = head;
    struct item *q = p->next;
    p->v = 1;
    q->v = 2;
    assert(%s);
    return 0;
}
int main(void) {
    pthread_t h;
    int count = __VERIFIER_nondet_int();  /* one item makes p == q; a constant count would not */
    for (int i = 0; i < count && i < 3; i++) {
        struct item *n = malloc(sizeof *n);
        if (!n) return 1;
        n->next = head ? head : n;
        head = n;
    }
    pthread_create(&h, 0, t, 0);
    return 0;
}
"""


def test_pointers_into_blocks_the_state_lacks_alias_exactly_when_equal():
    # p and q point to blocks allocated in main's loop: primary objects, aliased
    # conditionally; the write through q reaches p's block exactly when p == q
    r, _ = verdict(ALIAS % "p->v == 1", 7)
    assert r.status is Status.VIOLATED
    r, _ = verdict(ALIAS % "p->v == 1 || p == q", 7)
    assert r.status is Status.HOLDS
    r, _ = verdict(ALIAS % "p == q || q->v == 2", 7)
    assert r.status is Status.HOLDS


WAITERS = """
pthread_mutex_t m;
pthread_cond_t c;
int go, woken;
void *waiter(void *arg) {
    pthread_mutex_lock(&m);
    while (go == 0)
        pthread_cond_wait(&c, &m);
    woken = woken + 1;
    pthread_mutex_unlock(&m);
    return 0;
}
void *signaller(void *arg) {
    pthread_mutex_lock(&m);
    go = 1;
    woken = 0;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    assert(woken <= 1);
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b, s;
    pthread_mutex_init(&m, 0);
    pthread_cond_init(&c, 0);
    pthread_create(&a, 0, waiter, 0);
    pthread_create(&b, 0, waiter, 0);
    pthread_create(&s, 0, signaller, 0);
    return 0;
}
"""


def test_one_signal_wakes_one_initial_waiter_either_one():
    # both waiters start blocked in pthread_cond_wait; one signal wakes one of them
    # (the one whose symbolic timestamp is smaller), never both
    r, findings = verdict(WAITERS, 8, 8, 14)
    assert r.status is Status.HOLDS
    (stuck,) = [f for f in findings if f.kind.value == "deadlock"]
    # the other one is still waiting when everything else has ended
    assert stuck.message.count("waits for a signal on c") == 1
    woken = [s.thread for s in stuck.trace.steps if s.action.startswith("woken")]
    assert len(woken) == 1 and woken[0] in ("waiter#1", "waiter#2")


HELD = """
pthread_mutex_t m;
int inside;
void *holder(void *a) {
    pthread_mutex_lock(&m);
    inside = 1;
    inside = 0;
    pthread_mutex_unlock(&m);
    return 0;
}
void *other(void *a) {
    pthread_mutex_lock(&m);
    int seen = inside;
    pthread_mutex_unlock(&m);
    assert(seen == 0);
    return 0;
}
int main(void) {
    pthread_t x, y;
    pthread_mutex_init(&m, 0);
    pthread_create(&x, 0, holder, 0);
    pthread_create(&y, 0, other, 0);
    return 0;
}
"""


def test_a_lock_a_thread_must_hold_is_taken_and_one_no_thread_may_hold_is_free():
    r, _ = verdict(HELD, 7, 12)  # holder between its writes: it holds m
    assert r.status is Status.HOLDS
    r, _ = verdict(HELD, 7, 12, si=False)  # without the invariant m may be free
    assert r.status is Status.VIOLATED
