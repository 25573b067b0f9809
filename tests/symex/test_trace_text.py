"""What a counterexample's steps say: no lowering temporaries leak into them."""

from analysis.check import Options, check_text
from analysis.report import AssertionResult, Status

ASSUME = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int n;
int main(void) {
    n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 6);
    assert(n != 5);
    return 0;
}
"""


def test_an_assume_of_a_compound_condition_shows_values_not_temporaries():
    [r] = [i for i in check_text(ASSUME, "a.c", Options(mode="dpor", timeout_s=60))
           if isinstance(i, AssertionResult)]
    assert r.status is Status.VIOLATED
    assumes = [s.action for s in r.trace.steps if s.action.startswith("assume")]
    assert assumes and all("%" not in a for a in assumes), assumes
