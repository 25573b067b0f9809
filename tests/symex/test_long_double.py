"""long double, the x87 80-bit extended format of the x86-64 data model:
the exact computation on rationals (distaff.analysis.floats) and z3's
FPSort(15, 64) (Values) giving the same bits on the same patterns, rounding's
corner cases, the mapping of the 80-bit pattern (its explicit integer bit,
and the encodings the x87 treats as invalid), literals and printing."""

from __future__ import annotations

from fractions import Fraction

import z3
from hypothesis import given, settings, strategies as st

from distaff.analysis import floats
from distaff.analysis.frontend.lower_literals import parse_float_literal
from distaff.analysis.symex.values import Values
from tests.symex.test_floats import _symbolic

LD = floats.LONG_DOUBLE
ONE = 0x3FFF_8000_0000_0000_0000
MIN_NORMAL = 0x0001_8000_0000_0000_0000
MAX = 0x7FFE_FFFF_FFFF_FFFF_FFFF
INF = 0x7FFF_8000_0000_0000_0000
SIGN = 1 << 79


def ld(q) -> int:
    return floats.round_rational(Fraction(q), LD)


def value(v: int) -> Fraction:
    """The rational a canonical finite pattern denotes, read from its fields."""
    exp, sig = v >> 64 & 0x7FFF, v & ((1 << 64) - 1)
    q = Fraction(sig) * Fraction(2) ** (max(exp, 1) - 16383 - 63)
    return -q if v & SIGN else q


# patterns: canonical numbers near the interesting places, and any 80 bits (non-canonical ones too)
SPECIAL = [0, SIGN, ONE, ONE | SIGN, MIN_NORMAL, MIN_NORMAL - 1, 1, MAX, INF, INF | SIGN, floats.QUIET_NAN[LD],
           ld(Fraction(1, 10)), ld(Fraction(1, 3)), ld(2 ** 63), ld(-(2 ** 63)), ld(2 ** 64 - 1), ld(Fraction(5, 2)),
           ld(Fraction(-7, 2)), ld(2 ** 31), ld(Fraction(2 ** 65 - 1, 2)),
           0x7FFF_0000_0000_0000_0000,  # pseudo-infinity
           0x7FFF_4000_0000_0000_0001,  # pseudo-NaN
           0x3FFF_4000_0000_0000_0000,  # unnormal
           0x0000_8000_0000_0000_0000,  # pseudo-denormal
           0x7FFF_A000_0000_0000_0000]  # signalling NaN
PATTERN = st.one_of(st.sampled_from(SPECIAL), st.integers(0, (1 << 80) - 1),
                    st.builds(lambda e, f, s: s << 79 | e << 64 | 1 << 63 | f,
                              st.integers(1, 0x7FFE), st.integers(0, (1 << 63) - 1), st.integers(0, 1)))


@settings(max_examples=400, deadline=None)
@given(a=PATTERN, b=PATTERN, op=st.sampled_from(["+", "-", "*", "/", "fmin", "fmax"]))
def test_long_double_arithmetic_is_the_same_concretely_and_in_z3(a, b, op):
    V = Values()
    assert V.farith(op, a, b, LD) == _symbolic(V, lambda x, y: V.farith(op, x, y, LD), (a, LD), (b, LD))


@settings(max_examples=300, deadline=None)
@given(a=PATTERN, b=PATTERN, op=st.sampled_from(["-", "fabs", "sqrt", "floor", "ceil", "trunc", "round"]),
       cmp=st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
       cls=st.sampled_from(["isnan", "isinf", "isfinite", "signbit"]))
def test_long_double_functions_comparisons_and_conversions_are_the_same_concretely_and_in_z3(a, b, op, cmp, cls):
    V = Values()
    assert V.funary(op, a, LD) == _symbolic(V, lambda x: V.funary(op, x, LD), (a, LD))
    assert V.fcompare(cmp, a, b, LD) == _symbolic(V, lambda x, y: V.fcompare(cmp, x, y, LD), (a, LD), (b, LD))
    assert V.fclassify(cls, a, LD) == _symbolic(V, lambda x: V.fclassify(cls, x, LD), (a, LD))
    assert V.fnonzero(a, LD) == _symbolic(V, lambda x: V.fnonzero(x, LD), (a, LD))
    for other in (32, 64):
        assert V.fconvert(a, LD, other) == _symbolic(V, lambda x: V.fconvert(x, LD, other), (a, LD))
    for ibits, signed in ((32, True), (32, False), (64, True), (64, False)):
        r, ok = V.to_int(a, LD, ibits, signed)
        assert ok == _symbolic(V, lambda x: V.to_int(x, LD, ibits, signed)[1], (a, LD))
        if ok:
            assert r == _symbolic(V, lambda x: V.to_int(x, LD, ibits, signed)[0], (a, LD))


@settings(max_examples=200, deadline=None)
@given(bits=st.sampled_from([32, 64]), data=st.data())
def test_float_and_double_widen_to_long_double_exactly_and_the_same_in_z3(bits, data):
    a = data.draw(st.integers(0, (1 << bits) - 1))
    V = Values()
    wide = V.fconvert(a, bits, LD)
    assert wide == _symbolic(V, lambda x: V.fconvert(x, bits, LD), (a, bits))
    if not floats.unary("isnan", a, bits):
        assert floats.convert(wide, LD, bits) == a  # exact both ways
    else:
        assert wide == floats.QUIET_NAN[LD]


@settings(max_examples=300, deadline=None)
@given(ibits=st.sampled_from([8, 32, 64]), signed=st.booleans(), data=st.data())
def test_integers_convert_to_long_double_the_same_concretely_and_in_z3(ibits, signed, data):
    i = data.draw(st.integers(0, (1 << ibits) - 1))
    V = Values()
    r = V.from_int(i, ibits, signed, LD)
    assert r == _symbolic(V, lambda x: V.from_int(x, ibits, signed, LD), (i, ibits))
    n = i - (1 << ibits) if signed and i >> (ibits - 1) else i
    assert value(r) == n  # every integer of 64 bits is a long double exactly
    assert floats.to_int(r, LD) == n


@settings(max_examples=300, deadline=None)
@given(a=PATTERN, b=PATTERN, op=st.sampled_from(["+", "-", "*", "/"]))
def test_a_finite_result_is_the_exact_one_rounded_to_nearest(a, b, op):
    # the exact rational of the operands' values, against the neighbours of the result
    x, y = floats._x_decode(a), floats._x_decode(b)
    if not all(isinstance(q, Fraction) for _, q in (x, y)) or (op == "/" and y[1] == 0):
        return
    qx, qy = (-x[1] if x[0] else x[1]), (-y[1] if y[0] else y[1])
    exact = {"+": qx + qy, "-": qx - qy, "*": qx * qy, "/": qx / qy if qy else None}[op]
    r = floats.arith(op, a, b, LD)
    if r & 0x7FFF_0000_0000_0000_0000 == 0x7FFF_0000_0000_0000_0000:  # overflow: beyond MAX's rounding range
        assert abs(exact) >= value(MAX) + Fraction(2) ** (16383 - 64)
        return
    got = value(r)
    ulp = Fraction(2) ** (max(r >> 64 & 0x7FFF, 1) - 16383 - 63)
    assert abs(got - exact) <= ulp / 2
    if abs(got - exact) == ulp / 2:  # a tie: the even significand
        assert r & 1 == 0


def test_rounding_ties_go_to_the_even_significand():
    assert ld(1 + Fraction(1, 2 ** 64)) == ONE  # half an ulp above 1: the even one, 1
    assert ld(1 + Fraction(3, 2 ** 64)) == ONE + 2  # 1.5 ulps: up to the even 2 ulps
    assert ld(1 + Fraction(1, 2 ** 64) + Fraction(1, 2 ** 200)) == ONE + 1  # above the tie
    assert ld(2 ** 64 + 1) == ld(2 ** 64) and ld(2 ** 64 + 3) == ld(2 ** 64 + 4)
    # and once only: a double rounding through binary64 would give 1 for 1 + 2^-63 + 2^-100
    assert ld(1 + Fraction(1, 2 ** 63) + Fraction(1, 2 ** 100)) == ONE + 1


def test_gradual_underflow_and_overflow():
    tiny = Fraction(2) ** (-16382 - 63)  # the smallest denormal
    assert ld(tiny) == 1 and ld(tiny / 2) == 0 and ld(tiny * Fraction(3, 4)) == 1
    assert ld(-tiny / 2) == SIGN  # rounds to -0.0
    assert ld(Fraction(2) ** -16382) == MIN_NORMAL  # the integer bit set from here on
    assert ld(Fraction(2) ** -16382 - tiny) == (1 << 63) - 1  # the largest denormal, integer bit clear
    top = value(MAX)
    assert ld(top + Fraction(2) ** (16383 - 64) - 1) == MAX  # below the midpoint to 2^16384
    assert ld(top + Fraction(2) ** (16383 - 64)) == INF  # the tie goes to the even, which is infinity
    assert floats.arith("*", MAX, ld(2), LD) == INF and floats.arith("-", SIGN | MAX, MAX, LD) == SIGN | INF
    assert floats.arith("*", MIN_NORMAL, ld(Fraction(1, 2)), LD) == 1 << 62  # a denormal, exactly


def test_the_80_bit_pattern_has_an_explicit_integer_bit():
    assert ld(1) == ONE and ld(-2) == SIGN | 0x4000_8000_0000_0000_0000
    assert floats.arith("/", 0, 0, LD) == floats.QUIET_NAN[LD] == 0x7FFF_C000_0000_0000_0000
    assert floats.arith("/", ONE, 0, LD) == INF
    # padding (the 48 bits above the 80) is read as nothing and written as 0
    assert floats.arith("+", ONE | 0xABCD << 80, 0, LD) == ONE
    assert floats.compare("==", ONE | 1 << 100, ONE, LD)


def test_encodings_the_x87_does_not_produce_read_as_it_reads_them():
    pseudo_denormal, smallest_normal = 0x0000_8000_0000_0000_0000, MIN_NORMAL
    assert floats.compare("==", pseudo_denormal, smallest_normal, LD)
    assert floats.arith("+", pseudo_denormal, 0, LD) == smallest_normal
    for invalid in (0x7FFF_0000_0000_0000_0000, 0x7FFF_4000_0000_0000_0001, 0x3FFF_4000_0000_0000_0000):
        assert floats.unary("isnan", invalid, LD) == 1 and floats.unary("isinf", invalid, LD) == 0
        assert floats.arith("*", invalid, ONE, LD) == floats.QUIET_NAN[LD]
        assert not floats.compare("==", invalid, invalid, LD) and floats.compare("!=", invalid, invalid, LD)
        assert floats.to_int(invalid, LD) is None
    # fminl: a NaN with bit 62 clear (pseudo-infinity, signalling NaN) gives a NaN; with it set, the other operand
    assert floats.arith("fmin", 0x7FFF_0000_0000_0000_0000, ONE, LD) == floats.QUIET_NAN[LD]
    assert floats.arith("fmin", 0x7FFF_4000_0000_0000_0001, ONE, LD) == ONE
    assert floats.arith("fmin", 0x3FFF_4000_0000_0000_0000, ONE, LD) == ONE
    # and z3's reading is the same
    V = Values()
    for p in (pseudo_denormal, 0x7FFF_0000_0000_0000_0000, 0x3FFF_4000_0000_0000_0000):
        assert V.farith("+", p, 0, LD) == _symbolic(V, lambda x: V.farith("+", x, V.const(0, LD), LD), (p, LD))


def test_sqrt_and_rounding_functions_are_exact():
    two = ld(2)
    root = floats.unary("sqrt", two, LD)
    r = value(root)
    assert (r - value(root - 1)) > 0 and abs(r * r - 2) < abs(value(root + 1) ** 2 - 2)
    assert abs(r * r - 2) < abs(value(root - 1) ** 2 - 2)
    assert floats.unary("sqrt", ld(Fraction(9, 4)), LD) == ld(Fraction(3, 2))
    assert floats.unary("round", ld(Fraction(-5, 2)), LD) == ld(-3)
    assert floats.unary("floor", ld(Fraction(-1, 2)), LD) == ld(-1)
    assert floats.unary("ceil", ld(Fraction(-1, 2)), LD) == SIGN  # -0.0
    big = ld(2 ** 63 + Fraction(1, 2))  # 2^63 + 1/2 rounds: beyond 64 bits of significand
    assert floats.unary("trunc", big, LD) == big


def test_long_double_literals_round_once_from_their_exact_value():
    assert parse_float_literal("0.1L").value == ld(Fraction(1, 10))
    assert parse_float_literal("0x1.0000000000000001p0L").value == ld(1 + Fraction(1, 2 ** 64))
    assert parse_float_literal("0x1.0000000000000002p0l").value == ONE + 1
    assert parse_float_literal("1e5000L").value == INF
    assert parse_float_literal("3.6e-4951L").value == 1
    assert parse_float_literal("-0.0L").value == SIGN
    assert parse_float_literal("0.1L").type.bits == LD


def test_long_double_values_print_as_the_shortest_c_text_that_reads_back():
    assert floats.text(ld(Fraction(1, 10)), LD) == "0.1L"
    assert floats.text(ld(1), LD) == "1.0L"
    assert floats.text(SIGN, LD) == "-0.0L"
    assert floats.text(ld(Fraction(1, 3)), LD) == "0.33333333333333333334L"
    assert floats.text(ld(Fraction(10) ** 30), LD) == "1e+30L"
    assert floats.text(floats.QUIET_NAN[LD], LD) == "nan"
    assert floats.text(SIGN | INF, LD) == "-inf"
    for v in SPECIAL[:20]:
        t = floats.text(v, LD)
        if t not in ("inf", "-inf", "nan"):
            assert parse_float_literal(t).value == v


# --------------------------------------------------------------------------
# what a user reads: counterexamples, steps and summaries write long doubles as C


def test_a_long_double_input_is_shown_as_c_writes_it(capsys):
    import json

    from distaff.server import cli
    from tests.explore.expectations import PROGRAMS

    path = PROGRAMS / "float" / "long_double_sum.c"
    assert cli.main(["check", "--no-findings", "--format", "json", str(path)]) == cli.EXIT_FOUND
    failed = [a for a in json.loads(capsys.readouterr().out)["files"][0]["assertions"] if a.get("counterexample")]
    assert len(failed) == 2
    for a in failed:
        (inp,) = a["counterexample"]["inputs"]
        assert inp["text"].endswith("L") and parse_float_literal(inp["text"]).value == inp["value"] & ((1 << 80) - 1)
        x = value(inp["value"] & ((1 << 80) - 1))
        assert 1 <= x < 2
        actions = [s["action"] for s in a["counterexample"]["steps"]]
        assert f"nondet_long_double = {inp['text']}" in actions
        assert any(t.startswith("read total == 1.00000000000000000") and t.endswith("L") for t in actions)


def test_summaries_over_long_doubles_read_as_c(capsys):
    import json

    from distaff.server import cli
    from tests.explore.expectations import PROGRAMS

    path = PROGRAMS / "float" / "long_double_sum.c"
    cli.main(["check", "--no-findings", "--format", "json", "--summaries", str(path)])
    assertions = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    texts = [s["expr"] for a in assertions for s in a.get("summaries", [])]
    assert any("term" in t for t in texts)
    assert not any("fp(" in t or "_BitInt" in t or "?" in t or "to_fp" in t for t in texts), texts


def test_printf_writes_long_doubles_as_glibc_does():
    from distaff.analysis.symex import libc

    def printed(conv, flags, width, prec, v):
        return libc._convert_long_double(conv, flags, width, prec, v).decode()

    third = floats.arith("/", ONE, ld(3), LD)
    assert printed("f", "", b"", None, third) == "0.333333"
    assert printed("g", "", b"", b"25", ld(Fraction(1, 10))) == "0.1000000000000000000013553"
    assert printed("e", "", b"", None, ld(Fraction(1, 10))) == "1.000000e-01"
    assert printed("a", "", b"", None, ONE) == "0x8p-3"
    assert printed("a", "", b"", None, 1) == "0x0.000000000000001p-16385"
    assert printed("a", "", b"", None, ld(Fraction(1, 10))) == "0xc.ccccccccccccccdp-7"
    assert printed("f", "", b"", b"0", ld(Fraction(5, 2))) == "2" and printed("f", "+", b"8", b"1", SIGN) == "    -0.0"
    assert printed("g", "", b"", None, ld(Fraction(10) ** 600)) == "1e+600"
    assert printed("f", "", b"", None, INF) == "inf" and printed("E", "", b"", None, SIGN | INF) == "-INF"
    assert libc._convert_long_double("f", "", b"", None, floats.QUIET_NAN[LD]) is None


def test_snprintf_of_long_doubles_is_the_text_gcc_and_glibc_give():
    # the expected text is what gcc 12 / glibc on x86-64 print for these values
    from distaff.analysis.check import Options, check_text
    from distaff.analysis.report import AssertionResult, Finding, Status

    text = """#include <assert.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    char buf[64];
    long double third = 1.0L / 3;
    int n = snprintf(buf, sizeof buf, "%.20Lf|%La|%Lg", third, third, third * 3);
    assert(n == (int)strlen(buf));
    assert(strcmp(buf, "0.33333333333333333334|0xa.aaaaaaaaaaaaaabp-5|1") == 0);
    return 0;
}
"""
    items = list(check_text(text, "p.c", Options(mode="dpor", unwind=64, timeout_s=60)))
    assert [i for i in items if isinstance(i, Finding)] == []
    assert [r.status for r in items if isinstance(r, AssertionResult)] == [Status.HOLDS] * 2


def test_roundl_on_an_unnormal_is_what_glibcs_integer_code_gives():
    # glibc's roundl works on the pattern's fields, not on the x87 (which would make a NaN of an unnormal):
    # the bits gcc's run of glibc 2.36 gives, from the differential test's disagreement (seed 88)
    V = Values()
    for given, expected in [(0x2D3E_3828_920F_32ED_24F6, 0), (0x3FFF_4000_0000_0000_0000, ONE),
                            (0x4000_4000_0000_0000_0000, 0x4000_4000_0000_0000_0000),
                            (0x403E_4000_0000_0000_0001, 0x403E_4000_0000_0000_0001),
                            (0x4010_0000_0000_0000_0001, 0x4010_8000_0000_0000_0000),
                            (0x401E_7FFF_FFFF_FFFF_FFFF, 0x401E_8000_0000_0000_0000),
                            (0x0000_8000_0000_0000_0001, 0), (0x7FFF_0000_0000_0000_0000, floats.QUIET_NAN[LD])]:
        assert floats.unary("round", given, LD) == expected
        assert _symbolic(V, lambda x: V.funary("round", x, LD), (given, LD)) == expected
    # and on a canonical number the nearest integer, halves away from zero
    assert floats.unary("round", ld(Fraction(-5, 2)), LD) == ld(-3)
    assert floats.unary("round", ld(2 ** 62 + Fraction(1, 2)), LD) == ld(2 ** 62 + 1)
