"""Threads main has joined before its position in a context have ended: the
context does not start them again from their entry (analysis/context/threads.py)."""

from distaff.analysis.context.threads import joined_before, thread_starts
from distaff.analysis.frontend import parse_program
from distaff.analysis.static.facts import analyze

HEAD = """#include <pthread.h>
int g;
void *t0(void *a) { g = 1; return 0; }
void *t1(void *a) { g = 2; return 0; }
void keep(pthread_t *h) { (void)h; }
int main(void) {
    pthread_t a, b;
    int n = 0;
"""


def started(body: str, marker: str = "g = 3;") -> tuple[list[str], bool]:
    """The routines started at their entry with main at ``marker``, and
    whether t0 counts as joined there."""
    text = HEAD + body + "\n    g = 3;\n    return 0;\n}\n" if marker == "g = 3;" else HEAD + body + "\n}\n"
    program = parse_program(text, "ended.c")
    facts = analyze(program)
    main = program.function(program.entry)
    line = next(k for k, s in enumerate(text.splitlines(), 1) if marker in s)
    pc = next(pc for pc, i in enumerate(main.body) if i.span.line == line)
    starts = thread_starts(program, facts, [(program.entry, pc)])
    return [s.routine for s in starts if not s.given], joined_before(program, facts, "t0", pc)


def test_a_thread_joined_on_every_path_is_not_started_again():
    routines, joined = started("""
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
    pthread_join(a, 0);""")
    assert joined and routines == ["t1"]


def test_a_thread_joined_on_one_branch_only_may_still_run():
    routines, joined = started("""
    pthread_create(&a, 0, t0, 0);
    if (n) pthread_join(a, 0);""")
    assert not joined and routines == ["t0"]


def test_at_the_join_itself_the_thread_may_still_run():
    routines, joined = started("""
    pthread_create(&a, 0, t0, 0);
    pthread_join(a, 0);
    return 0;""", marker="pthread_join(a, 0);")
    assert not joined and routines == ["t0"]


def test_a_handle_whose_address_escapes_is_not_trusted():
    routines, joined = started("""
    pthread_create(&a, 0, t0, 0);
    keep(&a);
    pthread_join(a, 0);""")
    assert not joined and "t0" in routines


def test_a_creation_in_a_loop_is_not_trusted():
    routines, joined = started("""
    for (int i = 0; i < 2; i++) {
        pthread_create(&a, 0, t0, 0);
        pthread_join(a, 0);
    }""")
    assert not joined and routines == ["t0"]


def test_a_handle_reused_by_another_creation_is_not_trusted():
    routines, joined = started("""
    pthread_create(&a, 0, t0, 0);
    pthread_join(a, 0);
    pthread_create(&a, 0, t1, 0);""")
    assert not joined and routines == ["t0", "t1"]


def test_a_thread_not_placed_that_could_block_again_may_have_ended_and_the_trace_says_so():
    from distaff.analysis.check import Options, check_assertion
    from distaff.analysis.report import Status
    from tests.context.cases import all_cases

    case = next(c for c in all_cases() if c.name == "watcher_done")
    program = case.program()
    (site,) = program.assertions()
    options = Options(mode="dpor", unwind=2, timeout_s=60, optimisations=(("context_confirm", False),))
    result, _ = check_assertion(program, site, options, None, case.context(program, "full"))
    assert result.status is Status.VIOLATED
    actions = [s.action for s in result.trace.steps]
    assert "watcher#1 had already ended before this context" in actions
    assert not any(s.name.startswith("retval") for s in result.trace.inputs)  # not a failing input
