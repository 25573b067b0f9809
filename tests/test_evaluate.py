"""The C meaning of IR expressions (distaff.analysis.evaluate), on concrete and
symbolic values, and the three evaluators built on it agree."""

from __future__ import annotations

import z3

from distaff.analysis.context import terms
from distaff.analysis.evaluate import Evaluator
from distaff.analysis.ir import Addr, Binary, Cast, Const, IntType, ObjKind, PtrType, Unary
from distaff.analysis.summaries.translate import _Placeholders
from distaff.analysis.symex.engine import ThreadEvaluator
from distaff.analysis.symex.memory import PointerLayout
from distaff.analysis.symex.values import Values

I32, U32, I64, BOOL = IntType(32, True), IntType(32, False), IntType(64, True), IntType(8, False, is_bool=True)
INT_MAX = (1 << 31) - 1


class Collecting(Evaluator):
    """Records each check as (message, condition) and gives addresses of
    made-up objects."""

    __slots__ = ("checks",)

    def __init__(self, V):
        super().__init__(V, PointerLayout.for_bits(64), 64)
        self.checks = []

    def check(self, message, ok):
        self.checks.append((message, ok))

    def addr(self, e):
        return self.layout.make({"x": 1, "y": 2}[e.name])


def c(v, t=I32):
    return Const(v & ((1 << t.bits) - 1), t)


def run(e):
    ev = Collecting(Values(z3.Context()))
    return ev.value(e), ev.checks


def test_signed_arithmetic_is_checked_and_unsigned_wraps():
    v, checks = run(Binary("+", c(INT_MAX), c(1), I32))
    assert checks == [("signed integer overflow in addition", False)]
    assert v == 1 << 31  # the bits C would have, were it defined
    v, checks = run(Binary("+", c(0xFFFFFFFF, U32), c(1, U32), U32))
    assert (v, checks) == (0, [])


def test_division_checks_zero_then_overflow():
    _, checks = run(Binary("/", c(-(1 << 31)), c(-1), I32))
    assert checks == [("division by zero", True), ("signed integer overflow in division", False)]
    _, checks = run(Binary("%", c(7), c(0), I32))
    assert checks[0] == ("modulo by zero", False)


def test_shift_counts_outside_the_width_are_errors():
    _, checks = run(Binary("<<", c(1), c(32), I32))
    assert checks == [("shift count out of range", False)]
    v, checks = run(Binary(">>", c(-8), c(1), I32))
    assert (v, checks) == ((-4) & 0xFFFFFFFF, [("shift count out of range", True)])  # arithmetic shift


def test_comparisons_follow_the_operands_signedness():
    assert run(Binary("<", c(-1), c(1), I32))[0] == 1
    assert run(Binary("<", c(-1, U32), c(1, U32), I32))[0] == 0


def test_conversion_to_bool_is_a_test_against_zero_not_a_truncation():
    assert run(Cast(c(256), BOOL))[0] == 1
    assert run(Cast(c(256), IntType(8, False)))[0] == 0
    # an address whose low byte is zero is still true
    assert run(Cast(Addr("x", ObjKind.GLOBAL, PtrType(I32, 64)), BOOL))[0] == 1


def test_negation_of_the_minimum_is_an_error():
    _, checks = run(Unary("-", c(-(1 << 31)), I32))
    assert checks == [("signed integer overflow in negation", False)]


def test_symbolic_operands_give_the_same_conditions():
    V = Values(z3.Context())
    x = z3.BitVec("x", 32, V.ctx)

    class WithX(Collecting):
        __slots__ = ()

        def leaf(self, e):
            return x

    ev = WithX(V)
    ev.value(Binary("+", Sym(), c(1), I32))
    ((message, ok),) = ev.checks
    s = z3.Solver(ctx=V.ctx)
    s.add(z3.Not(ok))
    assert message == "signed integer overflow in addition"
    assert s.check() == z3.sat and s.model().eval(x).as_signed_long() == INT_MAX


class Sym:
    """A leaf the evaluator does not know: the subclass gives its value."""

    type = I32


def test_the_engine_the_translator_and_the_context_terms_use_it():
    assert issubclass(ThreadEvaluator, Evaluator) and issubclass(_Placeholders, Evaluator)
    assert issubclass(terms._Leaves, Evaluator)


def test_context_terms_wrap_without_checks():
    # a term describes a value the program already computed before the context
    V = Values(z3.Context())
    L = PointerLayout.for_bits(64)
    assert terms.evaluate(Binary("+", c(INT_MAX), c(1), I32), V, L, 64, None) == 1 << 31
    assert terms.condition(Binary("<", c(-1), c(1), I32), V, L, 64, None) is True


def test_context_terms_fold_constants_with_the_same_meaning():
    fold = terms.fold
    assert fold(Binary("+", c(INT_MAX), c(1), I32)) == Const(-(1 << 31), I32)  # wraps, signed form
    assert fold(Binary("/", c(-7), c(2), I32)) == Const(-3, I32)  # truncates toward zero
    assert fold(Binary("%", c(-7), c(2), I32)) == Const(-1, I32)
    assert fold(Binary("<", c(-1, U32), c(1, U32), I32)) == Const(0, I32)
    assert fold(Unary("-", c(5), I32)) == Const(-5, I32)
    for undefined in (Binary("/", c(1), c(0), I32), Binary("<<", c(1), c(32), I32)):
        assert fold(undefined) == undefined  # C gives no value: left as it is
