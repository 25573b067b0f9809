"""Concrete folding and z3 terms agree, and both follow C: for random operands
of each width, every operation computed on Python ints equals the z3 term
evaluated at the same operands, and the C reference (big-int arithmetic
reduced modulo 2^bits, division truncating toward zero)."""

from __future__ import annotations

from fractions import Fraction
import math

import z3
from hypothesis import given, settings, strategies as st

from distaff.analysis.symex.values import Values, mask, to_signed

V = Values()
WIDTHS = st.sampled_from([8, 16, 32, 64])


def as_z3(bits: int):
    return z3.BitVec(f"a{bits}", bits, V.ctx), z3.BitVec(f"b{bits}", bits, V.ctx)


def eval_at(term, a, b, x, y, bits):
    if isinstance(term, (int, bool)):
        return term
    m = z3.substitute(term, (a, V.const(x, bits)), (b, V.const(y, bits)))
    s = z3.simplify(m)
    if z3.is_true(s):
        return True
    if z3.is_false(s):
        return False
    return s.as_long()


def ref_div(x: int, y: int) -> int:
    return math.trunc(Fraction(x, y))


@settings(max_examples=80, deadline=None)
@given(WIDTHS, st.data())
def test_operations_fold_like_z3_and_like_c(bits, data):
    x = data.draw(st.integers(0, mask(bits)))
    y = data.draw(st.integers(0, mask(bits)))
    a, b = as_z3(bits)
    sx, sy = to_signed(x, bits), to_signed(y, bits)
    cases = {
        "add": (V.add, (x + y) & mask(bits)),
        "sub": (V.sub, (x - y) & mask(bits)),
        "mul": (V.mul, (x * y) & mask(bits)),
        "band": (V.band, x & y),
        "bor": (V.bor, x | y),
        "bxor": (V.bxor, x ^ y),
        "add_overflows": (V.add_overflows, not (-(1 << (bits - 1)) <= sx + sy < (1 << (bits - 1)))),
        "sub_overflows": (V.sub_overflows, not (-(1 << (bits - 1)) <= sx - sy < (1 << (bits - 1)))),
        "mul_overflows": (V.mul_overflows, not (-(1 << (bits - 1)) <= sx * sy < (1 << (bits - 1)))),
        "eq": (V.eq, x == y),
    }
    for name, (fn, want) in cases.items():
        concrete = fn(x, y, bits)
        symbolic = eval_at(fn(a, b, bits), a, b, x, y, bits)
        assert concrete == want == symbolic, name
    for signed in (False, True):
        want_lt = (sx < sy) if signed else (x < y)
        assert V.lt(x, y, bits, signed) == want_lt == eval_at(V.lt(a, b, bits, signed), a, b, x, y, bits)
        want_le = (sx <= sy) if signed else (x <= y)
        assert V.le(x, y, bits, signed) == want_le == eval_at(V.le(a, b, bits, signed), a, b, x, y, bits)
        if y != 0 and not (signed and sx == -(1 << (bits - 1)) and sy == -1):
            q = ref_div(sx, sy) & mask(bits) if signed else x // y
            rem = (sx - sy * ref_div(sx, sy)) & mask(bits) if signed else x % y
            assert V.div(x, y, bits, signed) == q == eval_at(V.div(a, b, bits, signed), a, b, x, y, bits)
            assert V.rem(x, y, bits, signed) == rem == eval_at(V.rem(a, b, bits, signed), a, b, x, y, bits)
        n = y % bits
        want_shr = (sx >> n) & mask(bits) if signed else x >> n
        assert V.shr(x, n, bits, signed) == want_shr == eval_at(V.shr(a, V.const(n, bits), bits, signed), a, b, x, y, bits)
    n = y % bits
    assert V.shl(x, n, bits) == (x << n) & mask(bits) == eval_at(V.shl(a, V.const(n, bits), bits), a, b, x, y, bits)


@settings(max_examples=100, deadline=None)
@given(WIDTHS, WIDTHS, st.data(), st.booleans())
def test_conversions(frm, to, data, signed):
    x = data.draw(st.integers(0, mask(frm)))
    a = z3.BitVec(f"c{frm}", frm, V.ctx)
    got = V.convert(x, frm, to, signed)
    want = (to_signed(x, frm) if signed else x) & mask(to)
    assert got == want
    term = V.convert(a, frm, to, signed)
    sym = z3.simplify(z3.substitute(term, (a, V.const(x, frm)))) if not isinstance(term, int) else term
    assert (sym if isinstance(sym, int) else sym.as_long()) == want


def test_condition_unwraps_its_own_zero_one_encoding():
    a, _ = as_z3(32)
    c = a > V.const(3, 32)
    assert V.cond_of(V.of_cond(c, 32), 32) is c or V.cond_of(V.of_cond(c, 32), 32).eq(c)
    assert V.cond_of(7, 32) is True and V.cond_of(0, 8) is False


def test_symbols_of_a_term():
    a, b = as_z3(16)
    t = (a + V.const(1, 16)) * b
    assert V.symbols(t) == {"a16", "b16"}
    assert V.symbols(V.const(3, 16)) == frozenset()
    assert V.symbols(5) == frozenset()


def test_constant_conditions_make_no_context():
    """A conjunction or disjunction of constants folds without z3: a check
    whose values all stay concrete never creates a context (about a
    millisecond), and never asks the solver for its counterexample."""
    W = Values()
    assert W.and_(True, True) is True and W.or_(False, False) is False
    assert W.and_(True, False) is False and W.or_(True, False) is True
    assert W.and_() is True and W.or_() is False
    assert not W.has_terms
    x = z3.BitVec("x", 8, W.ctx)
    assert W.and_(True, x > 1) is not True and W.has_terms
