"""Floating point: the programs of tests/programs/float in every mode, their
counterexamples as C writes floating values, and the two computations of
IEEE 754 (Python's binary64 in distaff.analysis.floats, z3's floating-point
theory in Values) giving the same bits on the same operands."""

from __future__ import annotations

import json
import math
import struct
from fractions import Fraction

import pytest
import z3
from hypothesis import given, settings, strategies as st

from distaff.analysis import floats
from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.frontend.lower_literals import parse_float_literal
from distaff.analysis.report import AssertionResult, Finding, Status
from distaff.analysis.symex.values import Values
from distaff.server import cli
from tests.explore.expectations import PROGRAMS, read

FLOAT = PROGRAMS / "float"
FILES = sorted(FLOAT.glob("*.c"))
MODES = {m: Options(mode=m, timeout_s=120) for m in ("dpor", "dpor-ag")}


def _check(path, options):
    items = list(check(parse_program(path.read_text(), str(path)), options))
    return [i for i in items if isinstance(i, AssertionResult)], [i for i in items if isinstance(i, Finding)]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_float_programs_have_the_verdicts_their_headers_say(path, mode):
    e = read(f"float/{path.name}")
    results, findings = _check(path, MODES[mode])
    assert results
    for r in results:
        assert r.status.label == e.verdict_at(r.span.line), (r.span.line, r.status, r.message)
    if e.no_findings:
        assert findings == []


def test_a_lost_float_update_shows_its_input_as_c_writes_it(capsys):
    status = cli.main(["check", "--no-findings", "--format", "json", str(FLOAT / "racy_mean.c")])
    assert status == cli.EXIT_FOUND
    (result,) = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    (inp,) = result["counterexample"]["inputs"]
    assert inp["text"].endswith("f")
    x = float(inp["text"][:-1])
    assert 1.0 <= x <= 4.0 and floats.encode(x, 32) == inp["value"]
    # the steps read the shared sum as a float, and the lost update is there
    actions = [s["action"] for s in result["counterexample"]["steps"]]
    assert actions.count("read sum == 0.0f") == 2


# --------------------------------------------------------------------------
# concrete and symbolic arithmetic agree bit for bit

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, -2.5, 3.0, 1e-310, -1e-310, 5e-324, 1e308, -1e308, math.inf, -math.inf,
           math.nan, 0.1, 1 / 3, 2.0 ** 53, 2.0 ** 63, -(2.0 ** 63), 2.0 ** 31, 4294967295.5, 1e-45, 3.4e38]


def _pattern(bits):
    special = st.sampled_from(SPECIAL).map(lambda x: floats.encode(x, bits))
    return st.one_of(special, st.integers(0, (1 << bits) - 1))


def _symbolic(V, f, *args):
    """``f`` on z3 constants (the symbolic path), simplified to a value."""
    r = f(*[V.const(a, b) for a, b in args])
    if isinstance(r, tuple):
        r = r[0]
    r = z3.simplify(r)
    return z3.is_true(r) if z3.is_bool(r) else r.as_long()


@settings(max_examples=300, deadline=None)
@given(bits=st.sampled_from([32, 64]), data=st.data(),
       op=st.sampled_from(["+", "-", "*", "/", "fmin", "fmax"]))
def test_arithmetic_is_the_same_concretely_and_in_z3(bits, data, op):
    a, b = data.draw(_pattern(bits)), data.draw(_pattern(bits))
    V = Values()
    assert V.farith(op, a, b, bits) == _symbolic(V, lambda x, y: V.farith(op, x, y, bits), (a, bits), (b, bits))


@settings(max_examples=300, deadline=None)
@given(bits=st.sampled_from([32, 64]), data=st.data(),
       op=st.sampled_from(["-", "fabs", "sqrt", "floor", "ceil", "trunc", "round"]),
       cmp=st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
       cls=st.sampled_from(["isnan", "isinf", "isfinite", "signbit"]))
def test_functions_comparisons_and_conversions_are_the_same_concretely_and_in_z3(bits, data, op, cmp, cls):
    a, b = data.draw(_pattern(bits)), data.draw(_pattern(bits))
    V = Values()
    assert V.funary(op, a, bits) == _symbolic(V, lambda x: V.funary(op, x, bits), (a, bits))
    assert V.fcompare(cmp, a, b, bits) == _symbolic(V, lambda x, y: V.fcompare(cmp, x, y, bits), (a, bits), (b, bits))
    assert V.fclassify(cls, a, bits) == _symbolic(V, lambda x: V.fclassify(cls, x, bits), (a, bits))
    assert V.fnonzero(a, bits) == _symbolic(V, lambda x: V.fnonzero(x, bits), (a, bits))
    other = 96 - bits
    assert V.fconvert(a, bits, other) == _symbolic(V, lambda x: V.fconvert(x, bits, other), (a, bits))
    for ibits, signed in ((32, True), (32, False), (64, True), (64, False)):
        value, ok = V.to_int(a, bits, ibits, signed)
        assert ok == _symbolic(V, lambda x: V.to_int(x, bits, ibits, signed)[1], (a, bits))
        if ok:
            assert value == _symbolic(V, lambda x: V.to_int(x, bits, ibits, signed)[0], (a, bits))


@settings(max_examples=300, deadline=None)
@given(bits=st.sampled_from([32, 64]), ibits=st.sampled_from([8, 32, 64]), signed=st.booleans(), data=st.data())
def test_integers_convert_the_same_concretely_and_in_z3(bits, ibits, signed, data):
    i = data.draw(st.integers(0, (1 << ibits) - 1))
    V = Values()
    assert V.from_int(i, ibits, signed, bits) == _symbolic(V, lambda x: V.from_int(x, ibits, signed, bits), (i, ibits))


# --------------------------------------------------------------------------
# literals: rounded once, from the exact value


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(1, 20))
def test_decimal_literals_read_as_the_nearest_double_and_float(x, digits):
    text = f"{x:.{digits}e}"
    exact = Fraction(text)
    assert parse_float_literal(text).value == floats.encode(float(text), 64)  # CPython reads decimals exactly
    # binary32: the nearest float to the exact decimal, which rounding via a double may miss
    f32 = parse_float_literal(text + "f").value
    lo = struct.unpack("<f", struct.pack("<I", f32))[0]
    if math.isfinite(lo):
        neighbours = [struct.unpack("<f", struct.pack("<I", p))[0] for p in (f32 - 1, f32 + 1)
                      if 0 <= p < 0x7F800000 or 0x80000000 <= p < 0xFF800000]
        assert all(abs(Fraction(lo) - exact) <= abs(Fraction(n) - exact) for n in neighbours if math.isfinite(n))


def test_a_float_literal_rounds_from_the_decimal_not_from_a_double():
    # the decimal just below the midpoint between FLT_MAX and 2^128: a double
    # rounds it to the midpoint, which a second rounding sends to infinity
    assert parse_float_literal("3.4028235677973366e38f").value == 0x7F7FFFFF
    assert parse_float_literal("0x1.8p3").value == floats.encode(12.0, 64)
    assert parse_float_literal("0x1p-149f").value == 1
    assert parse_float_literal("1e400").value == floats.encode(math.inf, 64)
    assert parse_float_literal("1.0L").value == 0x3FFF_8000_0000_0000_0000  # x86-64's long double


def test_values_print_as_the_shortest_c_text_that_reads_back():
    assert floats.text(floats.encode(0.1, 32), 32) == "0.1f"
    assert floats.text(floats.encode(0.1, 64), 64) == "0.1"
    assert floats.text(floats.encode(-0.0, 64), 64) == "-0.0"
    assert floats.text(floats.encode(3.0, 32), 32) == "3.0f"
    assert floats.text(floats.QUIET_NAN[64], 64) == "nan"
    assert floats.text(floats.encode(-math.inf, 32), 32) == "-inf"


def test_summaries_over_floats_read_as_c(capsys):
    status = cli.main(["check", "--no-findings", "--format", "json", "--summaries", str(FLOAT / "locked_sum.c")])
    assert status == cli.EXIT_OK
    assertions = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    texts = [s["expr"] for a in assertions for s in a.get("summaries", [])]
    assert any("total" in t for t in texts)
    assert not any("fp." in t or "to_fp" in t or "roundNearest" in t for t in texts), texts
