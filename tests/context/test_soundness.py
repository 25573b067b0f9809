"""Soundness guard: a context never loses a violation that passes through it.

For random programs of the differential test's generator
(:mod:`tests.differential.gen`, used read-only): every assertion violated
from ``main`` is checked again from program contexts its counterexample
passes through (the threads' positions at scheduling points of the replayed
run, :mod:`tests.context.trace_contexts`), with the full initial state
(reaching definitions, synchronization invariants and, where the
thread-modular prover followed the program, its bounds). The initial state is
an over-approximation of every state at that context, so the violation
must be found again.

Budget: ``DISTAFF_CONTEXT_EXAMPLES`` programs (default 25), at most
:data:`PER_VIOLATION` contexts per violation, spread along its run.
"""

import os

from hypothesis import HealthCheck, given, settings

from distaff.analysis.check import Options, check_assertion
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import Status
from tests.context.trace_contexts import contexts_along, spread
from tests.differential import cprog as C
from tests.differential import gen
from tests.modular.test_prover import started_without_end

EXAMPLES = int(os.environ.get("DISTAFF_CONTEXT_EXAMPLES", "25"))
PER_VIOLATION = 3
OPTIONS = Options(mode="dpor", unwind=3, max_runs=400, timeout_s=20,
                  optimisations=(("context_confirm", False),))  # the context must find it itself


def violations_kept(text: str) -> list[str]:
    """Problems: (assertion, context) pairs where the violation from main was lost."""
    program = parse_program(text, "gen.c")
    problems = []
    checked = 0
    for site in program.assertions():
        whole, _ = check_assertion(program, site, OPTIONS)
        if whole.status is not Status.VIOLATED:
            continue
        contexts = contexts_along(program, whole.trace, OPTIONS, site.id)
        # the first snapshot is main alone at its entry: a check from main again
        for ctx in spread(contexts[1:], PER_VIOLATION):
            checked += 1
            r, _ = check_assertion(program, site, OPTIONS, None, ctx)
            if r.status is Status.UNKNOWN:
                continue  # a budget ran out: nothing is claimed either way
            if r.status is not Status.VIOLATED:
                where = ", ".join(f"{t.func}:{t.pc}" for t in ctx.threads)
                problems.append(f"{site.id} violated from main but {r.status.label} from [{where}]: {r.message}")
    return problems


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(gen.programs())
def test_a_context_keeps_the_violations_that_pass_through_it(cprog):
    text = C.to_c(cprog)
    problems = violations_kept(text)
    assert not problems, text + "\n" + "\n".join(problems)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(started_without_end())
def test_a_context_of_threads_started_without_end_keeps_its_violations(cprog):
    """The same where ``main`` ends starting one routine for good: the
    contexts assume the thread-modular prover's bounds (in one run of 300
    such programs: 575 contexts, 336 of them bounded; none lost a violation)."""
    text = C.to_c(cprog)
    problems = violations_kept(text)
    assert not problems, text + "\n" + "\n".join(problems)


LOST_UPDATE = r"""
#include <pthread.h>
#include <assert.h>
int g;
void *t0(void *a) { int l0 = g; g = l0 + 1; return 0; }
void *t1(void *a) { int l0 = g; g = l0 + 1; return 0; }
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(g == 2);
    return 0;
}
"""


def test_a_lost_update_is_found_from_the_contexts_it_passes_through():
    program = parse_program(LOST_UPDATE, "lost.c")
    (site,) = program.assertions()
    whole, _ = check_assertion(program, site, OPTIONS)
    assert whole.status is Status.VIOLATED
    contexts = contexts_along(program, whole.trace, OPTIONS, site.id)
    assert len(contexts) >= 3
    assert not violations_kept(LOST_UPDATE)
