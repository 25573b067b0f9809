"""What a counterexample's steps say: no lowering temporaries leak into them."""

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Status

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


BRANCHES = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int ready, x;
int main(void) {
    int k = __VERIFIER_nondet_int();
    x = k;
    if (!ready)
        x = x + 1;
    if (x > 5 &&
        k < 9)
        assert(x != 8);
    return 0;
}
"""


def test_a_branch_says_which_way_the_condition_as_written_went():
    [r] = [i for i in check_text(BRANCHES, "b.c", Options(mode="dpor", timeout_s=60))
           if isinstance(i, AssertionResult)]
    assert r.status is Status.VIOLATED
    branches = [(s.span.line, s.action) for s in r.trace.steps if " is " in s.action or s.action.startswith("branch")]
    # "!ready" lowers to a branch on "ready" with the targets swapped: the step
    # names the part it tested, at its column; read values stand in for reads
    assert branches == [(7, "ready is false"), (9, "x > 5 && k < 9 is true ((8 > 5) && (k < 9))")]
    assert [s.span.col for s in r.trace.steps if s.span.line == 7 and " is " in s.action] == [10]


def test_a_condition_written_with_a_macro_shows_its_expansion():
    src = """#include <assert.h>
#define IS_BIG(v) ((v) > 5)
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int k = __VERIFIER_nondet_int();
    if (IS_BIG(k))
        assert(k != 7);
    return 0;
}
"""
    [r] = [i for i in check_text(src, "m.c", Options(mode="dpor", timeout_s=60)) if isinstance(i, AssertionResult)]
    assert [s.action for s in r.trace.steps if " is " in s.action] == ["(k) > 5 is true"]
