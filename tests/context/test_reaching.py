"""The context analyses on small programs: must-reaching definitions,
conflict-free memory, join symbols, materialised blocks, locksets with
relative summaries, barrier counts and matching."""

from distaff.analysis.check import context_at
from distaff.analysis.context.locksets import ANY
from distaff.analysis.context.reaching import Walker
from distaff.analysis.context.terms import Const, ObjRef, Sym, show
from distaff.analysis.context.threads import thread_starts
from distaff.analysis.frontend import parse_program
from distaff.analysis.static.facts import analyze

HEAD = "#include <pthread.h>\n#include <stdlib.h>\n#include <assert.h>\n"


def facts_at(src: str, *lines: int, rd: bool = True):
    """(walker, [(start, env at the innermost pc)]) for threads at ``lines``."""
    text = HEAD + src
    program = parse_program(text, "t.c")
    facts = analyze(program)
    ctx = context_at(program, [(n + 3, 1) for n in lines])
    walker = Walker(program, facts, reaching_defs=rd)
    walker.walk_main()
    out = []
    for s in thread_starts(program, facts, [(t.func, t.pc) for t in ctx.threads]):
        if s.given:
            out.append((s, walker.walk_thread(s)[-1][0]))
    return walker, out


PUBLISH = """
int ready, limit, later;
void *t(void *a) {
    int x = limit;
    int y = later;
    return 0;
}
int main(void) {
    pthread_t h;
    limit = 4;
    later = 1;
    pthread_create(&h, 0, t, 0);
    later = 2;
    return 0;
}
"""


def test_conflict_free_globals_keep_mains_values_and_shared_ones_do_not():
    _, [(_, env)] = facts_at(PUBLISH, 6)  # at `return 0` of t
    assert env.regs["x"] == Const(4, env.regs["x"].type)
    assert isinstance(env.regs["y"], Sym)  # `later` is written after the creation


def test_without_reaching_definitions_memory_is_fresh():
    _, [(_, env)] = facts_at(PUBLISH, 6, rd=False)
    assert isinstance(env.regs["x"], Sym)


JOIN = """
int in;
void *t(void *a) {
    int c = in;
    int x;
    if (c) x = 1; else x = 2;
    int y = x + 1;
    int z = y;
    return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); in = 1; return 0; }
"""


def test_paths_that_disagree_join_into_a_symbol_later_definitions_use():
    # `in` is written after the thread starts: its value, and so the branch, is unknown
    _, [(_, env)] = facts_at(JOIN, 9)
    x, y = env.regs["x"], env.regs["y"]
    assert isinstance(x, Sym) and x.per_thread
    assert show(y) == f"({x.name} + 1)" and env.regs["z"] == y


LOOP = """
int n = 3;
void *t(void *a) {
    int s = 7;
    for (int i = 0; i < n; i++)
        s = s + i;
    return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
"""


def test_a_loop_counter_is_its_head_symbol_and_what_the_loop_leaves_alone_stays():
    _, [(_, env)] = facts_at(LOOP, 6)  # `s = s + i` in the body
    i, s = env.regs["i"], env.regs["s"]
    assert isinstance(i, Sym) and isinstance(s, Sym) and i != s
    assert i.origin == s.origin  # both joined at the loop head


HEAP = """
struct cell { int a, b; };
void *t(void *arg) {
    struct cell *c = arg;
    int v = c->a;
    return 0;
}
int main(void) {
    pthread_t h;
    struct cell *c = malloc(sizeof *c);
    if (!c) return 1;
    c->a = 5;
    pthread_create(&h, 0, t, c);
    return 0;
}
"""


def test_a_block_allocated_once_before_the_threads_is_materialised_with_its_contents():
    walker, [(_, env)] = facts_at(HEAP, 6)
    (key,) = walker.observed.materialised
    create_env = next(iter(walker.observed.creates.values()))
    assert any(isinstance(v, ObjRef) and v.key == key for v in create_env.regs.values())
    assert create_env.cells[(("o", key), 0, 4)] == Const(5, create_env.cells[(("o", key), 0, 4)].type)


LOCKS = """
pthread_mutex_t m, n;
int flag;
void take(void) { pthread_mutex_lock(&n); }
void drop(void) { pthread_mutex_unlock(&m); }
void *t(void *a) {
    int c = flag;
    if (c)
        pthread_mutex_lock(&m);
    take();
    int here = 0;
    drop();
    int there = 0;
    return 0;
}
void *u(void *a) { return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_create(&h, 0, u, 0); flag = 1; return 0; }
"""


def test_locksets_may_and_must_with_relative_summaries_of_calls():
    _, [(_, here)] = facts_at(LOCKS, 11)
    may, must = {show(t) for t in here.locks.held_may}, {show(t) for t in here.locks.held_must}
    assert may == {"@m", "@n"} and must == {"@n"}  # m on one path only; take() returns holding n
    _, [(_, there)] = facts_at(LOCKS, 13)
    assert {show(t) for t in there.locks.held_may} == {"@n"}  # drop() must release m
    assert ANY not in there.locks.held_may


ROUNDS = """
pthread_barrier_t b;
int box[2];
void *w(void *arg) {
    int me = (int)(long)arg;
    for (int r = 0; r < 4; r++) {
        box[me] = r;
        pthread_barrier_wait(&b);
    }
    return 0;
}
int main(void) {
    pthread_t x, y;
    pthread_barrier_init(&b, 0, 2);
    pthread_create(&x, 0, w, (void *)0);
    pthread_create(&y, 0, w, (void *)1);
    return 0;
}
"""


def test_barrier_counts_and_matching_equate_the_round_counters():
    from distaff.analysis.context import initial, program_context

    program = parse_program(HEAD + ROUNDS, "t.c")
    p = initial.plan(program, program_context(program, [(10, 9), (10, 9)]))
    assert {show(a): [show(c) for c in cs] for a, cs in p.counts.items()} == {"@b": ["2:u32"]}
    ((ka, sa, kb, sb),) = p.matches
    assert (ka, kb) == (0, 1) and sa == sb and sa.per_thread  # one symbol, renamed per thread
    three = initial.plan(program, program_context(program, [(10, 9), (10, 9), (10, 9)]))
    assert three.matches == []  # three participants for a barrier of two: no lock-step


PHASES = """
pthread_barrier_t b;
int warmup = 2;
void *w(void *arg) {
    int me = (int)(long)arg;
    for (int j = 0; j < %s; j++)
        pthread_barrier_wait(&b);
    for (int r = 0; r < 4; r++) {
        pthread_barrier_wait(&b);
        int x = r;
    }
    return 0;
}
int main(void) {
    pthread_t x, y;
    pthread_barrier_init(&b, 0, 2);
    pthread_create(&x, 0, w, (void *)0);
    pthread_create(&y, 0, w, (void *)1);
    return 0;
}
"""


def test_matching_counts_earlier_barrier_loops_by_their_symbolic_trip_counts():
    from distaff.analysis.context import initial, program_context

    def matches(bound: str):
        program = parse_program(HEAD + PHASES % bound, "t.c")
        return initial.plan(program, program_context(program, [(13, 9), (13, 9)])).matches

    assert len(matches("warmup")) == 1  # both passed `warmup - 0` waits first: the same number
    assert matches("me + 1") == []  # a trip count that differs per thread: no lock-step claimed


TIMED = """
pthread_mutex_t m, n;
void *t(void *a) {
    pthread_mutex_lock(&n);
    int r = pthread_mutex_timedlock(&m, a);
    int here = 0;
    return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
"""


def test_a_timed_lock_may_not_take_the_lock():
    # pthread_mutex_timedlock may time out: the thread may hold m, not must
    _, [(_, here)] = facts_at(TIMED, 6)
    assert {show(t) for t in here.locks.held_may} == {"@m", "@n"}
    assert {show(t) for t in here.locks.held_must} == {"@n"}


SELF_EQUAL = """
int g;
void *t(void *a) {
    int c = g;
    int x = 0;
    if (c == c) x = abs(c - 5);
    int y = x;
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    g = 1;
    return 0;
}
"""


def test_a_comparison_of_a_value_with_itself_decides_the_branch_and_abs_keeps_its_argument():
    _, [(_, env)] = facts_at(SELF_EQUAL, 8)  # at `return 0` of t
    c, y = env.regs["c"], env.regs["y"]
    assert isinstance(c, Sym)  # g is written after the creation
    assert show(y) == f"((({c.name} - 5) < 0) ? -({c.name} - 5) : ({c.name} - 5))"


ASSUMED = """
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void *t(void *a) { return a; }
int main(void) {
    pthread_t h;
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x && x <= 2);
    int r = 0, s = 0, u = 0;
    if (x > -2) r = 3;
    if (y > 0) { if (y < -5) s = 9; }
    if (y > 0) u = 1;
    pthread_create(&h, 0, t, 0);
    return 0;
}
"""


def test_what_main_assumed_and_the_branches_it_took_decide_later_branches():
    program = parse_program(HEAD + ASSUMED, "t.c")
    walker = Walker(program, analyze(program))
    act = walker.walk_main()
    main = program.function(program.entry)
    create = next(pc for pc, i in enumerate(main.body) if getattr(i, "name", "") == "pthread_create")
    env = act.env_in[create]
    assert env.regs["r"] == Const(3, env.regs["r"].type)  # 1 <= x: x > -2 always
    assert env.regs["s"] == Const(0, env.regs["s"].type)  # inside y > 0, y < -5 never
    assert isinstance(env.regs["u"], Sym)  # nothing says whether y > 0
    assert walker.decider.decided == 2


def test_without_reaching_definitions_no_branch_is_decided_by_facts():
    program = parse_program(HEAD + ASSUMED, "t.c")
    walker = Walker(program, analyze(program), reaching_defs=False)
    walker.walk_main()
    assert walker.decider.queries == 0
