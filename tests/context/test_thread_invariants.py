"""Check from here with the thread-modular prover's invariants as context.

A context leaves unknown what the static analyses cannot tell: a global
another thread writes with values no syntax bounds, a register merged from
a compare-and-swap loop. The prover's bounds hold in every run from
``main`` whatever the number of threads, so a context assumes them
(optimisation ``thread_modular``) and an assertion they prove holds from
the context too, where without them the check says "possible from this
context". Violations stay: the bad variants still fail from the same
statements (their soundness in general is :mod:`tests.context.test_soundness`'s).
"""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check_assertion
from distaff.analysis.context import program_context
from distaff.analysis.frontend import parse_program
from distaff.analysis.modular.prover import Bound, prove
from distaff.analysis.report import Status
from tests.explore.expectations import PROGRAMS

MODULAR = PROGRAMS / "modular"
# the context alone: no check from main confirms or takes back what it finds
OPTIONS = Options(timeout_s=20.0, findings=False, workers=1, optimisations=(("context_confirm", False),))
WITHOUT = Options(timeout_s=20.0, findings=False, workers=1,
                  optimisations=(("context_confirm", False), ("thread_modular", False)))


def from_line(name: str, line: int, options: Options):
    """The check from the statement on ``line`` of the assertion on it."""
    path = MODULAR / name
    program = parse_program(path.read_text(), str(path))
    (site,) = [s for s in program.assertions() if s.span.line == line]
    r, _ = check_assertion(program, site, options, None, program_context(program, [(line, 1)]))
    return r


@pytest.mark.parametrize("name, line", [
    ("tickets_capped.c", 24),  # t, merged from the CAS loop's reads of issued
    ("tickets_capped.c", 27),  # issued itself, written by compare-and-swap
    ("claim_slot.c", 26),  # mine, taken under the lock while next_free < SLOTS
    ("connection_table.c", 24),  # served, known exactly under the lock it was incremented under
    ("cas_tokens.c", 20),
    ("atomic_helpers.c", 33),
    ("argument_workers.c", 20),
])
def test_what_the_invariants_prove_holds_from_the_context(name, line):
    with_them = from_line(name, line, OPTIONS)
    assert with_them.status is Status.HOLDS, with_them.message
    assert "invariants for any number of threads" in with_them.context
    assert with_them.stats.counter("context_invariants") >= 1
    without = from_line(name, line, WITHOUT)
    # possible from the context: on values it does not know
    assert without.status is Status.VIOLATED and any(d.startswith("context:") for d in without.depends_on)
    assert "invariants for any number of threads" not in without.context


@pytest.mark.parametrize("name, line", [
    ("tickets_capped_bad.c", 19),
    ("claim_slot_bad.c", 24),
    ("cas_tokens_bad.c", 16),
    ("tickets_fetch_add_bad.c", 19),
    ("argument_workers_bad.c", 30),
    ("connection_table_unlocked_bad.c", 17),
])
def test_a_bad_variant_still_fails_from_its_assertion(name, line):
    r = from_line(name, line, OPTIONS)
    assert r.status is Status.VIOLATED and r.trace is not None, r.message


def test_the_bounds_are_of_globals_registers_and_private_stack_objects():
    path = MODULAR / "tickets_capped.c"
    program = parse_program(path.read_text(), str(path))
    proof = prove(program)
    int32 = program.global_var("seat_taken").type.elem
    assert dict(proof.globals) == {"issued": Bound(0, 4, int32), "seat_taken": Bound(0, 1, int32)}
    customer = program.function("customer")
    (pc,) = [pc for pc, i in enumerate(customer.body) if i.span.line == 24 and "ASSERT" in repr(i)]
    # t lives on the stack (the compare-and-swap takes its address) and no other thread reaches it
    assert dict(proof.frames[("customer", pc)])[("stack", "t", 0)] == Bound(0, 3, int32)


def test_no_bounds_where_the_prover_abstains():
    text = ("#include <pthread.h>\n#include <stdlib.h>\n#include <assert.h>\nint x;\n"
            "void *w(void *a) { int *p = malloc(4); *p = x; x = *p + 1; assert(x > 0); return 0; }\n"
            "int main(void) { while (1) { pthread_t t; pthread_create(&t, 0, w, 0); } }\n")
    program = parse_program(text, "abstains.c")
    proof = prove(program)
    assert proof.abstained and not proof.globals and not proof.frames
    (site,) = program.assertions()
    r, _ = check_assertion(program, site, OPTIONS, None, program_context(program, [(5, 1)]))
    assert "invariants for any number of threads" not in r.context
