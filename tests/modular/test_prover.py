"""The thread-modular prover (analysis/modular): what it proves for any number
of threads, what it leaves to exploration, and that no proof of it is ever
contradicted by a run."""

from __future__ import annotations

import os
import re

import dataclasses

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from distaff.analysis import ir
from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.modular import intervals as D
from distaff.analysis.modular.prover import prove
from distaff.analysis.report import AssertionResult, Status
from tests.differential import cprog as C
from tests.differential import gen, oracle
from tests.explore.expectations import PROGRAMS

MODULAR = PROGRAMS / "modular"
NAMES = sorted(p.name for p in MODULAR.glob("*.c"))


def headers(path) -> dict[int, str]:
    return {int(n): v for n, v in re.findall(r"VERDICT (\d+): (\w+)", path.read_text())}


def site_lines(program: ir.Program) -> dict[str, int]:
    return {f"{fn.name}:{pc}": i.span.line for fn in program.functions for pc, i in enumerate(fn.body)
            if type(i) is ir.Intrinsic and i.op is ir.Op.ASSERT}


@pytest.mark.parametrize("name", NAMES)
def test_the_prover_proves_what_holds_and_nothing_that_fails(name):
    path = MODULAR / name
    program = parse_program(path.read_text(), str(path))
    proof = prove(program)
    lines = site_lines(program)
    proved = {lines[s] for s in proof.proved}
    expected = headers(path)
    assert proved == {line for line, v in expected.items() if v == "holds"}, proof.abstained


@pytest.mark.parametrize("name", NAMES)
def test_a_check_answers_as_the_header_says(name):
    """A proof comes from the prover (the exploration cannot finish: threads
    start without end) and says its invariants; a violation from exploring."""
    path = MODULAR / name
    program = parse_program(path.read_text(), str(path))
    out = [r for r in check(program, Options(timeout_s=20.0, findings=False, workers=1))
           if isinstance(r, AssertionResult)]
    got = {r.span.line: r for r in out}
    for line, verdict in headers(path).items():
        r = got[line]
        assert r.status.name.lower() == verdict, (line, r.status, r.message)
        if verdict == "holds":
            assert r.stats.counter("thread_modular_proved") == 1
            assert r.message.startswith("for any number of threads: ") and " in [" in r.message
        else:
            assert r.trace is not None and not r.stats.counter("thread_modular_proved")


def test_the_invariants_are_the_tightest_the_program_draws():
    path = MODULAR / "tickets_capped.c"
    proof = prove(parse_program(path.read_text(), str(path)))
    assert dict(proof.invariants) == {"issued": "in [0, 4]", "seat_taken": "in [0, 1]"}


def test_switched_off_the_prover_leaves_the_answer_to_exploration():
    path = MODULAR / "claim_slot.c"
    program = parse_program(path.read_text(), str(path))
    options = Options(timeout_s=1.0, findings=False, workers=1, optimisations=(("thread_modular", False),))
    (r,) = [r for r in check(program, options) if isinstance(r, AssertionResult)]
    assert r.status is not Status.HOLDS and not r.stats.counter("thread_modular_proved")


COUNTED_CAP = """
#include <pthread.h>
#include <assert.h>
int hits;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *a) { pthread_mutex_lock(&m); if (hits < 5) hits++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    pthread_mutex_lock(&m);
    assert(hits <= 5);
    pthread_mutex_unlock(&m);
    return 0;
}
"""


# a counted loop of threads the prover proves (explored with the rest of the
# budget), and a started-without-end program it does not prove
@pytest.mark.parametrize("name", ["counted_cap.c", "claim_slot_bad.c"])
def test_the_provers_time_comes_out_of_the_sub_checks_budget(name, monkeypatch):
    """A prover that takes its time (here 0.4 s more, as on a program of fifty
    functions) leaves the exploration that much less: exploring the whole
    budget after it ran past the runner's grace, and the answer was lost."""
    import time

    from distaff.analysis import subcheck

    real_proof, real_run, budgets = subcheck.proof_of, subcheck._run, []

    def slow_proof(program):
        time.sleep(0.4)
        return real_proof(program)

    def spy(program, site, options, cancel, context):
        budgets.append(options.timeout_s)
        return real_run(program, site, options, cancel, context)

    monkeypatch.setattr(subcheck, "proof_of", slow_proof)
    monkeypatch.setattr(subcheck, "_run", spy)
    path = MODULAR / name
    program = parse_program(COUNTED_CAP if name == "counted_cap.c" else path.read_text(), str(path))
    site = program.assertions()[0]
    assert subcheck.starts_without_bound(program) is (name != "counted_cap.c")
    subcheck.run(program, site, Options(timeout_s=20.0, findings=False, workers=1), None, None)
    assert len(budgets) == 1 and budgets[0] <= 20.0 - 0.4


@pytest.mark.parametrize("body, why", [
    ("int *p = malloc(4); *p = 1; assert(*p == 1);", "heap memory"),
    ("void (*f)(void) = helper; f(); assert(x >= 0);", "a call through a function pointer"),
    ("down(3); assert(x >= 0);", "recursion through down"),
    ("float f = x; assert(f >= 0);", "floating point"),
])
def test_the_prover_abstains_on_what_it_cannot_follow(body, why):
    text = ("#include <pthread.h>\n#include <assert.h>\n#include <stdlib.h>\nint x;\nvoid helper(void) { x = -1; }\n"
            "void down(int n) { if (n > 0) down(n - 1); }\n"
            f"void *w(void *a) {{ {body} return 0; }}\n"
            "int main(void) { while (1) { pthread_t t; pthread_create(&t, 0, w, 0); } }\n")
    proof = prove(parse_program(text, "abstain.c"))
    assert proof.proved == frozenset() and why in proof.abstained


def test_a_callee_runs_in_its_callers_state_and_its_stores_count():
    """A helper's store is interference like any other (x = -1 through it is
    seen), a helper's result is its returned values, and a thread's own
    object written through a pointer by the helper is read back exactly."""
    text = ("#include <pthread.h>\n#include <assert.h>\nint x, y;\n"
            "void set(int *p, int v) { *p = v; }\n"
            "int bounded(int v) { return v < 0 ? 0 : v > 9 ? 9 : v; }\n"
            "void *w(void *a) { int mine; set(&mine, 5); assert(mine == 5);\n"
            "  y = bounded((int)(long)a); assert(y <= 9);\n"
            "  set(&x, -1); assert(x >= 0); return 0; }\n"
            "int main(void) { while (1) { pthread_t t; pthread_create(&t, 0, w, 0); } }\n")
    program = parse_program(text, "calls.c")
    lines = site_lines(program)
    assert {lines[s] for s in prove(program).proved} == {6, 7}


def test_what_a_callee_writes_is_forgotten_by_its_caller_however_often_written_before():
    """t[i] == 5 after clear(i) must not be read from the caller's store:
    clear wrote t, which the caller had written too before the call."""
    text = ("#include <pthread.h>\n#include <assert.h>\nint t[4];\n"
            "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
            "void clear(int k) { t[k] = 7; }\n"
            "void *w(void *a) { int i = (int)(long)a & 3; pthread_mutex_lock(&m); t[0] = 1; t[i] = 5;\n"
            "  clear(i); assert(t[i] == 5); pthread_mutex_unlock(&m); return 0; }\n"
            "int main(void) { while (1) { pthread_t t1; pthread_create(&t1, 0, w, (void *)(long)1); } }\n")
    assert prove(parse_program(text, "forget.c")).proved == frozenset()


def test_a_shift_wraps_as_the_engine_computes_it():
    """1 << 31 in an int is INT_MIN on every run the engine explores (it
    checks only + - * / % and negation for overflow): not proved positive."""
    text = ("#include <pthread.h>\n#include <assert.h>\nint x = 1;\n"
            "void *w(void *a) { x = 1 << 31; return 0; }\n"
            "void *r(void *a) { assert(x > 0); return 0; }\n"
            "int main(void) { while (1) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_create(&t, 0, r, 0); } }\n")
    proof = prove(parse_program(text, "shift.c"))
    assert proof.proved == frozenset() and ("x", "in [-2147483648, 1]") in proof.invariants


def test_a_value_two_sizes_wrote_is_not_read_as_either():
    """A byte stored into an int makes a value no store wrote: the prover abstains."""
    text = ("#include <pthread.h>\n#include <assert.h>\nint x;\n"
            "void *w(void *a) { *((char *)&x + 1) = 1; return 0; }\n"
            "void *r(void *a) { assert(x <= 1); return 0; }\n"
            "int main(void) { while (1) { pthread_t t; pthread_create(&t, 0, w, 0); "
            "pthread_create(&t, 0, r, 0); } }\n")
    proof = prove(parse_program(text, "sizes.c"))
    assert proof.proved == frozenset() and "different sizes" in proof.abstained


def test_widening_stops_at_the_programs_constants_and_else_at_the_type():
    int32 = ir.IntType(32, True)
    assert D.widen(D.Val(0, 3), D.Val(0, 4), int32, 64, (0, 4, 5)) == D.Val(0, 4)
    assert D.widen(D.Val(0, 5), D.Val(0, 6), int32, 64, (0, 4, 5)) == D.Val(0, 2**31 - 1)
    assert D.widen(D.Val(0, 5), D.Val(-1, 5), int32, 64, ()) == D.Val(-2**31, 5)


def test_arithmetic_is_cs():
    int8, uint8 = ir.IntType(8, True), ir.IntType(8, False)
    assert D.fit(D.Val(100, 200), int8, 64, wraps=False) == D.Val(100, 127)  # the overflow ends its run
    assert D.fit(D.Val(250, 260), uint8, 64, wraps=True) == D.Val(0, 255)  # unsigned wraps
    assert D.fit(D.const(300), uint8, 64, wraps=True) == D.const(44)
    assert D.arith("/", D.const(-7), D.const(2)) == D.const(-3)  # truncated towards zero
    assert D.arith("%", D.Val(-5, 5), D.const(3)) == D.Val(-2, 2)
    assert D.arith("/", D.const(1), D.Val(-1, 1)) is None  # a division by zero ends its run: any value
    assert D.compare("<", D.Val(0, 3), D.Val(4, 9)) == D.const(1)
    assert D.narrow("<", D.Val(0, 10), D.const(4)) == D.Val(0, 3)


PROVER_EXAMPLES = int(os.environ.get("DISTAFF_DIFF_PROVER_EXAMPLES", "300"))


# Every proof must survive exploring: the prover assumes any number of
# instances of each thread, so a program's own threads are one case of it,
# and the oracle's violated assertions are never proved.
@settings(max_examples=PROVER_EXAMPLES, deadline=None, phases=gen.PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(program=gen.programs())
def test_no_proof_where_the_oracle_finds_a_violation(program):
    assert_no_proof_of_a_violation(program)


def assert_no_proof_of_a_violation(program) -> None:
    """The oracle's violated assertions of ``program`` are not among the
    prover's proofs (a program outside the oracle's reach is rejected)."""
    try:
        outcome = oracle.explore(program)
    except (oracle.StateSpaceTooLarge, oracle.OutsideContract):
        assume(False)
    rendered = C.render(program)
    lowered = parse_program(rendered.text, "generated.c")
    lines = site_lines(lowered)
    proved = {lines[s] for s in prove(lowered).proved}
    violated = {rendered.assert_lines[v.label] for v in outcome.assertions if v.violated}
    assert not proved & violated, rendered.text


UNBOUNDED_EXAMPLES = int(os.environ.get("DISTAFF_DIFF_UNBOUNDED_EXAMPLES", "100"))


@st.composite
def started_without_end(draw):
    """A generated program whose main ends by starting one of its routines
    for good (``while (1) pthread_create``): the oracle runs UNWIND + 1 = 5
    more threads of it, the prover any number."""
    program = draw(gen.programs())
    assume(not any(isinstance(s, C.CreateLoop) for s in program.main))
    routine = draw(st.sampled_from(program.routines))
    return dataclasses.replace(program, main=program.main + (C.CreateLoop(routine.name),))


# The oracle for proofs about any number of threads: exploring with
# a few more threads of a routine started without end finds no violation the
# prover proved away.
@settings(max_examples=UNBOUNDED_EXAMPLES, deadline=None, phases=gen.PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(program=started_without_end())
def test_no_proof_for_any_number_of_threads_where_five_threads_fail(program):
    assert_no_proof_of_a_violation(program)
