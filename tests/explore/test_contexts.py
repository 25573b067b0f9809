"""z3 contexts reused from one exploration to the next (analysis/symex/contexts.py)."""

from __future__ import annotations

import z3

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult
from distaff.analysis.symex import contexts

LOST_UPDATE = """
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int g;
void *add(void *a) { int t = g; g = t + 1; return 0; }
int main(void) {
    int start = __VERIFIER_nondet_int();
    if (start < 0 || start > 100) return 0;
    g = start;
    pthread_t x, y;
    pthread_create(&x, 0, add, 0);
    pthread_create(&y, 0, add, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    assert(g == start + 2);
    assert(g >= start);
    return 0;
}
"""


def _drain() -> None:
    while True:
        ctx, reused = contexts.take()
        if not reused:
            return


def test_a_context_nothing_refers_to_is_kept_and_handed_out_again():
    _drain()
    ctx, reused = contexts.take()
    assert not reused
    assert contexts.give(ctx, True)
    again, reused = contexts.take()
    assert reused and again is ctx


def test_a_context_with_a_live_term_or_an_interrupt_is_refused():
    _drain()
    ctx, _ = contexts.take()
    x = z3.BitVec("x", 8, ctx)
    assert not contexts.give(ctx, True)  # x still refers to it
    del x
    ctx, _ = contexts.take()
    assert not contexts.give(ctx, False)  # an interrupt was sent to it
    assert not contexts.take()[1]


def _results(mode: str, reuse: bool):
    options = Options(mode=mode, workers=1, findings=False,
                      optimisations=() if reuse else (("context_reuse", False),))
    return [i for i in check_text(LOST_UPDATE, "lost.c", options) if isinstance(i, AssertionResult)]


def test_explorations_reuse_contexts_with_the_same_verdicts_and_runs():
    for mode in ("baseline", "dpor", "dpor-ag"):
        _drain()
        on, off = _results(mode, True), _results(mode, False)
        assert [(r.status, r.stats.runs, r.stats.steps) for r in on] == \
            [(r.status, r.stats.runs, r.stats.steps) for r in off], mode
        assert [r.status.name for r in on] == ["VIOLATED", "HOLDS"]
        # the first sub-check makes its context, the second gets it back
        assert [r.stats.counter("context_reused") for r in on] == [0, 1], mode
        assert not any(r.stats.counter("context_reused") for r in off)
        # a violation's counterexample was read off a model in a reused context
        assert on[0].trace is not None and on[0].trace.inputs == off[0].trace.inputs


def test_a_sub_check_that_ran_out_of_time_does_not_give_its_context_back():
    _drain()
    options = Options(mode="baseline", workers=1, findings=False, timeout_s=0.001)
    first, second = [i for i in check_text(LOST_UPDATE, "lost.c", options) if isinstance(i, AssertionResult)]
    assert first.reason is not None and first.reason.name == "TIMEOUT"
    assert second.stats.counter("context_reused") == 0
