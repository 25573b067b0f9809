"""Floating-point results agree with gcc's: generated expressions
(``tests/frontend/float_exprs.py``: float and double mixed with the integer
types, literals in every form, special inputs, ``<math.h>``) compiled by
gcc and run, then checked by distaff with the inputs concrete and with them
symbolic but pinned to the same bits; and the mistakes this found, each as
the program that shows it. ``bench/differential_float.py`` runs the same
test on tens of thousands of expressions."""

from __future__ import annotations

import random

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Finding, Status
from tests.frontend import float_exprs as fx

needs_cc = pytest.mark.skipif(fx.CC is None, reason="no C compiler to run the expressions natively")
SAMPLE = {11: 150, 12: 150}  # seed: expressions, one program each (the bench's batches are 200)


@needs_cc
@pytest.mark.parametrize("seed", sorted(SAMPLE))
def test_distaff_computes_what_gcc_computes(seed):
    exprs = fx.expressions(seed, SAMPLE[seed])
    found, _ = fx.check_batch(exprs, fx.inputs(random.Random(seed)))
    assert [fx.describe(x) for x in found] == []


# long double (x87's 80-bit format): seed: (expressions, distaff's checks); z3's FPSort(15, 64) is slow, so
# the symbolic check takes a smaller batch
SAMPLE_LONG = {21: (120, ("concrete",)), 22: (12, ("concrete", "symbolic"))}


@needs_cc
@pytest.mark.parametrize("seed", sorted(SAMPLE_LONG))
def test_distaff_computes_what_gcc_computes_in_long_double(seed):
    size, variants = SAMPLE_LONG[seed]
    exprs = fx.expressions(seed, size, long_double=True)
    assert sum(e.type == "ldouble" for e in exprs) >= size // 3
    found, _ = fx.check_batch(exprs, fx.inputs(random.Random(seed), long_double=True), variants)
    assert [fx.describe(x) for x in found] == []


@needs_cc
@pytest.mark.parametrize("variant", ["concrete", "symbolic"])
def test_a_wrong_long_double_answer_is_found_with_distaffs_own_value(tmp_path, variant):
    exprs = fx.expressions(4, 8, long_double=True)
    values = fx.inputs(random.Random(4), long_double=True)
    answers = fx.native(exprs, values, tmp_path)
    k = next(k for k, e in enumerate(exprs) if e.type == "ldouble" and answers[k] != "nan")
    wrong = list(answers)
    wrong[k] = hex(int(answers[k], 16) ^ 1)
    found = fx.compare([exprs[k]], values, variant, [wrong[k]], tmp_path)
    assert [(x.expr.text, x.gcc, int(x.distaff, 16)) for x in found] == [(exprs[k].text, wrong[k], int(answers[k], 16))]


@needs_cc
@pytest.mark.parametrize("variant,kind", [("concrete", "double"), ("symbolic", "int")])
def test_a_wrong_answer_is_found_with_distaffs_own_value(tmp_path, variant, kind):
    # the comparison is not vacuous: of 12 expressions, the one given a wrong answer is the one
    # reported, with distaff's value, which is gcc's
    exprs = fx.expressions(3, 12)
    values = fx.inputs(random.Random(3))
    answers = fx.native(exprs, values, tmp_path)
    k = next(k for k, e in enumerate(exprs) if e.type == kind and answers[k] != "nan")
    wrong = list(answers)
    wrong[k] = str(int(answers[k]) ^ 1)
    found = fx.compare(exprs, values, variant, wrong, tmp_path)
    assert [(x.expr.text, x.gcc, x.distaff) for x in found] == [(exprs[k].text, wrong[k], answers[k])]


def test_the_long_double_expressions_use_every_form():
    text = " ".join(e.text for seed, (size, _) in SAMPLE_LONG.items()
                    for e in fx.expressions(seed, size, long_double=True))
    for form in ("L)", "l)", "0x", "x0", "(long double)", "LDBL_", "l(", "?", "(int)", " / "):
        assert form in text, form


def test_the_expressions_use_every_form():
    text = " ".join(e.text for seed in SAMPLE for e in fx.expressions(seed, SAMPLE[seed]))
    for form in ("0x", "p-", "f)", "F", "e-", "INFINITY", "NAN", "K(-0.0", "?", "(float)", "(double)", "(int)",
                 "(unsigned long)", "fabs(", "sqrtf(", "floor(", "ceilf(", "trunc", "round", "fmin", "fmaxf(",
                 "isnan(", "isinf(", "isfinite(", "signbit(", " <= ", " != ", " / ", "(- d", "ul0", "u0", "l0"):
        assert form in text, form


def statuses(text: str) -> list[Status]:
    items = list(check_text(text, "f.c", Options(mode="dpor", timeout_s=60)))
    assert [i for i in items if isinstance(i, Finding)] == []
    return [r.status for r in items if isinstance(r, AssertionResult)]


def test_a_conditional_of_float_and_double_is_a_double():
    # the usual arithmetic conversions give ?: its type; the first arm's type (float) lost -2.0's
    # neighbours and 1e-300 altogether, and an int first arm truncated the other
    text = """#include <assert.h>
float f = 0.1f; double d = 1e-300; int c, i = 16777217;
int main(void) {
    double r = c ? -f : -d;
    assert(r == -1e-300);
    assert((c ? f : i) == 16777216.0f);
    assert((c ? 1.5f : 0.1) == 0.1);
    assert((c ? i : 2.5f) == 2.5f);
    assert((c ? i : 1e30) == 1e30);
    return 0;
}
"""
    assert statuses(text) == [Status.HOLDS] * 5


def test_fmin_and_fmax_of_equal_operands_give_the_second_as_glibc_runs_them():
    # glibc's x86-64 fmin/fmax are minsd/maxsd: of two zeros the second; gcc folds constants to the first,
    # so the inputs are variables here, concrete and then symbolic (pinned to the bits of -0.0 and 0.0)
    text = """#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
int main(void) {
    double z = 0.0, n = -0.0;
    float fz = 0.0f, fn = -0.0f;
    assert(!signbit(fmin(n, z)) && signbit(fmin(z, n)));
    assert(!signbit(fmax(n, z)) && signbit(fmax(z, n)));
    assert(!signbit(fminf(fn, fz)) && signbit(fmaxf(fz, fn)));
    double x = __VERIFIER_nondet_double(), y = __VERIFIER_nondet_double();
    uint64_t bx, by;
    memcpy(&bx, &x, 8);
    memcpy(&by, &y, 8);
    __VERIFIER_assume(bx == 0x8000000000000000ULL && by == 0);
    assert(!signbit(fmin(x, y)) && signbit(fmin(y, x)));
    assert(!signbit(fmax(x, y)) && signbit(fmax(y, x)));
    assert(fmin(x, NAN) == x && fmax(NAN, y) == y && isnan(fmin(NAN, NAN)));
    return 0;
}
"""
    assert statuses(text) == [Status.HOLDS] * 6


def test_fmin_and_fmax_of_a_signalling_nan_are_a_nan_as_glibc_computes_them():
    # glibc's fmin/fmax are IEEE 754-2008's minNum/maxNum: a quiet NaN gives the other operand, a signalling
    # one (here inputs' bits; negation and fabs keep it signalling, a conversion to double quiets it) a NaN
    text = """#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
int main(void) {
    double s, q, one = 1.0;
    float sf;
    uint64_t bs = 0x7FF0000000000001ULL, bq = 0xFFF8000000000000ULL;
    uint32_t bsf = 0xFFA00000u;
    memcpy(&s, &bs, 8);
    memcpy(&q, &bq, 8);
    memcpy(&sf, &bsf, 4);
    assert(isnan(fmin(s, one)) && isnan(fmax(one, s)) && isnan(fminf(1.0f, sf)));
    assert(fmin(q, one) == 1.0 && fmax(one, q) == 1.0);
    assert(isnan(fmin(-s, one)) && isnan(fmaxf(fabsf(sf), 2.0f)) && fmax(fabs(sf), 2.0f) == 2.0);
    double x = __VERIFIER_nondet_double();
    float y = __VERIFIER_nondet_float();
    uint64_t bx;
    uint32_t by;
    memcpy(&bx, &x, 8);
    memcpy(&by, &y, 4);
    __VERIFIER_assume(bx == bs && by == bsf);
    assert(isnan(fmin(x, one)) && isnan(fmax(one, x)) && isnan(fminf(1.0f, y)) && isnan(fmaxf(-y, 0.0f)));
    assert(fmin(fabs(y), one) == 1.0);
    return 0;
}
"""
    assert statuses(text) == [Status.HOLDS] * 5


def test_the_constant_minus_zero_is_false_as_a_condition():
    # -0.0 is zero though its pattern is not: a condition on the constant was folded on the pattern
    text = """#include <assert.h>
#include <math.h>
int main(void) {
    int a = -0.0f ? 1 : 2;
    assert(a == 2);
    assert((-0.0 ? 1.5 : 2.5) == 2.5);
    assert(!(-0.0) && !(-0.0f && 1) && (-0.0 || 0) == 0 && (_Bool)-0.0 == 0);
    int n = 0;
    if (-0.0)
        n = 1;
    while (-0.0f)
        n = 3;
    assert(n == 0);
    assert(NAN ? 1 : 0);
    double z = -0.0;
    assert((z ? 1 : 2) == 2 && !z && (_Bool)z == 0);
    return 0;
}
"""
    assert statuses(text) == [Status.HOLDS] * 6
