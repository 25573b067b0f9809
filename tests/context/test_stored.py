"""What a shared global can hold after the first creation (analysis/context/stored.py),
and what main assumed before creating a context's thread."""

from pathlib import Path

from distaff.analysis.check import Options, check_assertion
from distaff.analysis.context import Context, ContextThread, program_context
from distaff.analysis.context.initial import plan
from distaff.analysis.context.stored import Held, stores
from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import Const, IntType, Return

HEAD = "#include <pthread.h>\n#include <string.h>\n"
MAIN = """
int main(void) {
    pthread_t a, b;
    %s
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""


def held(globals_and_threads: str, before: str = "", at_end: bool = True) -> dict:
    """What the globals hold with t0 placed at its return (every store of
    its own has run), or at its entry (none has)."""
    program = parse_program(HEAD + globals_and_threads + MAIN % before, "held.c")
    body = program.function("t0").body
    pc = next(k for k, i in enumerate(body) if isinstance(i, Return)) if at_end else 0
    context = Context((ContextThread("t0", pc),), naive=False, reaching_defs=True, sync_invariants=True)
    return plan(program, context).held


def c(v: int) -> Const:
    return Const(v, IntType(32, True))


def values(h: Held) -> set:
    assert all(isinstance(t, Const) for t in h.terms)
    return {t.value for t in h.terms}


def test_a_global_only_ever_set_to_constants_holds_one_of_them():
    h = held("""int state;
void *t0(void *a) { state = 1; state = 2; return 0; }
void *t1(void *a) { int zero = 0; state = zero; return 0; }""")
    assert values(h["state"]) == {0, 1, 2}


def test_the_value_main_left_at_the_first_creation_replaces_the_initial_one():
    h = held("""int mode = 7;
void *t0(void *a) { mode = 5; return 0; }
void *t1(void *a) { return 0; }""", before="mode = 3;")
    assert values(h["mode"]) == {3, 5}


def test_a_global_whose_address_is_taken_or_copied_into_is_not_known():
    h = held("""int g; int k; int *p = &k; int n;
void *t0(void *a) { int *q = &g; *q = 1; memset(&n, 0, sizeof n); return 0; }
void *t1(void *a) { return 0; }""")
    assert "g" not in h and "k" not in h and "n" not in h


def test_a_store_of_something_else_than_a_constant_or_a_move_makes_it_unknown():
    h = held("""int g; int h;
void *t0(void *a) { g = (int)(long)a; h = g + 1; return 0; }
void *t1(void *a) { return 0; }""")
    assert "g" not in h and "h" not in h


def test_counters_moved_a_known_number_of_times_are_bounded_both_ways():
    # each thread runs once: up gets at most 2 + 1 over the 1 main left,
    # down at most 1 + 3 below 9, both at most one step either way
    h = held("""int up; int down = 9; int both;
void *t0(void *a) { int c = up; up = c + 2; down = down - 1; both = both + 1; return 0; }
void *t1(void *a) { up++; down -= 3; both = both - 1; return 0; }""", before="up = 1;")
    assert h["up"] == Held((c(1),), True, 0, 3)
    assert h["down"] == Held((c(9),), True, -4, 0)
    assert h["both"] == Held((c(0),), True, -1, 1)


def test_the_stores_of_a_thread_before_its_position_are_the_only_ones_of_it_that_ran():
    # t0 at its entry has run none of its stores: only t1's count
    h = held("""int up; int down = 9; int both;
void *t0(void *a) { int c = up; up = c + 2; down = down - 1; both = both + 1; return 0; }
void *t1(void *a) { up++; down -= 3; both = both - 1; return 0; }""", before="up = 1;", at_end=False)
    assert h["up"] == Held((c(1),), True, 0, 1)
    assert h["down"] == Held((c(9),), True, -3, 0, step=3)
    assert h["both"] == Held((c(0),), True, -1, 0)


def test_counters_moved_in_a_loop_keep_only_the_bound_of_their_one_direction():
    h = held("""int up; int down = 9; int both;
void *t0(void *a) { for (int i = 0; i < 3; i++) { up = up + 2; down--; both++; } return 0; }
void *t1(void *a) { up++; down -= 3; both = both - 1; return 0; }""", before="up = 1;")
    assert h["up"] == Held((c(1),), True, low=0)
    assert h["down"] == Held((c(9),), True, high=0)
    assert "both" not in h


def test_moves_by_multiples_of_two_keep_the_parity_of_the_start():
    h = held("""int seq = 1;
void *t0(void *a) { for (int i = 0; i < 3; i++) seq += 2; return 0; }
void *t1(void *a) { seq = seq - 4; return 0; }""")
    assert h["seq"] == Held((c(1),), True, step=2)


def test_a_constant_stored_keeps_its_own_residue():
    h = held("""int seq = 1;
void *t0(void *a) { for (int i = 0; i < 3; i++) seq += 2; return 0; }
void *t1(void *a) { seq = 4; return 0; }""")
    assert h["seq"] == Held((c(1), c(4)), True, low=0, step=2)


def test_creations_in_a_loop_after_main_set_the_counter_exclude_the_initial_value():
    program = parse_program(HEAD + """int next;
void *t(void *a) { next = next + 1; return 0; }
int main(void) {
    pthread_t s[3];
    next = 1;
    for (int i = 0; i < 3; i++)
        pthread_create(&s[i], 0, t, 0);
    return 0;
}
""", "loop.c")
    context = Context((ContextThread("t", 0),), naive=False, reaching_defs=True, sync_invariants=True)
    assert plan(program, context).held["next"] == Held((c(1),), True, low=0)


def test_the_direct_stores_are_found_with_their_constants():
    program = parse_program(HEAD + """int g = 4;
void *t0(void *a) { int x = 2; int y = x * 3; g = y; g = g - 2; return 0; }
int main(void) { return 0; }
""", "s.c")
    (st,) = [s for name, s in stores(program).items() if name == "g"]
    assert st.init == 4
    assert sorted(v if isinstance(v, int) else v.k for v in st.sites.values()) == [-2, 6]


def test_an_assumption_main_made_before_its_only_creation_of_the_thread_holds_in_the_thread():
    # the cursor in the worker alone: main is not placed, but it created the
    # worker after assuming 1 <= n <= 8 (tests/programs/context/assumed_range.c)
    path = Path(__file__).resolve().parent.parent / "programs" / "context" / "assumed_range.c"
    program = parse_program(path.read_text(), str(path))
    (site,) = program.assertions()
    # (the thread-modular prover's bound of n, from the creation's argument, would prove it without them)
    options = Options(mode="dpor", unwind=2, timeout_s=60,
                      optimisations=(("context_confirm", False), ("thread_modular", False)))
    for rd in (True, False):
        result, _ = check_assertion(program, site, options, None, program_context(program, [(23, 5)], reaching_defs=rd))
        assert result.status.label == ("holds" if rd else "violated"), result.message
