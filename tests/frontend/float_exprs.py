"""Random C floating expressions, the program that computes a batch of them,
its native run, and distaff's check of it: the parts of the differential
test against gcc (``tests/frontend/test_float_native.py``, and at scale
``bench/differential_float.py``).

An expression (:class:`Expr`) is C text with its C type, one of
:data:`FLOATING` or :data:`INTEGER`. It is built from the batch's inputs
(``d0 d1 d2`` double, ``f0 f1 f2`` float, ``i0`` int, ``u0`` unsigned,
``l0`` long, ``ul0`` unsigned long), literals in every form C has (decimal,
exponent, hexadecimal, ``f`` suffix, near overflow and underflow,
subnormal, ``-0.0``, ``INFINITY``, ``NAN``, ``<float.h>``'s limits),
``+ - * /`` with at least one floating operand, comparisons (int), unary
minus of a floating value, casts between float and double and from the
integers, ``?:``, and ``<math.h>``'s exact functions and classifications.
No expression has undefined behaviour or an unspecified value:

- a conversion of a floating value to an integer type is guarded, so it is
  only made when the truncated value fits, ``0`` otherwise
  (``(d > -2147483649.0 && d < 2147483648.0 ? (int)(d) : 0)``);
- integer arithmetic is never generated (no overflow, no division by zero);
- ``signbit`` is only asked of a value that is not a NaN (a NaN's sign is
  unspecified: x86 makes negative NaNs, distaff one positive pattern), and
  its result is compared as zero or not (its non-zero value is unspecified).

``x * (y)`` with ``x`` an input is written ``(y) * x``: distaff's front end
reads ``(x * (y)) - z`` as a cast of ``-z`` to the type ``x *(y)``.

The program (:func:`program`) sets the inputs by their bit patterns, so a
NaN's payload, a signalling NaN and ``-0.0`` are inputs too. Natively
(``NATIVE`` defined) the inputs are volatile and so are the literals
(``K(1.5)``, a volatile compound literal), so gcc folds nothing, and each
result is printed: a NaN as ``nan``, a floating value as its bits, an
integer as its value. For distaff, the inputs are concrete constants
(variant ``concrete``: the concrete evaluator) or ``__VERIFIER_nondet_*``
values assumed equal to the same bits (variant ``symbolic``: z3's
floating-point theory), and every result is compared with the native one
(a NaN only as being a NaN), all ANDed into one assertion; when distaff
does not prove it, bisection finds the expressions it does not prove.
"""

from __future__ import annotations

import decimal
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CC = shutil.which("gcc") or shutil.which("cc")
CFLAGS = ["-std=gnu11", "-w", "-O0", "-ffp-contract=off", "-fno-builtin", "-fexcess-precision=standard"]

FLOATING = ("float", "double")
LONG_FLOATING = ("float", "double", "ldouble")  # with long double (``long_double=True``)
ALL_FLOATING = LONG_FLOATING
INTEGER = ("int", "unsigned", "long", "ulong")
C_NAME = {"float": "float", "double": "double", "ldouble": "long double", "int": "int", "unsigned": "unsigned",
          "long": "long", "ulong": "unsigned long"}
BITS = {"float": 32, "double": 64, "ldouble": 80, "int": 32, "unsigned": 32, "long": 64, "ulong": 64}
INPUTS = {"d0": "double", "d1": "double", "d2": "double", "f0": "float", "f1": "float", "f2": "float",
          "i0": "int", "u0": "unsigned", "l0": "long", "ul0": "ulong"}
LONG_INPUTS = {**INPUTS, "x0": "ldouble", "x1": "ldouble", "x2": "ldouble"}
# the truncated value fits the type exactly when the double is inside these bounds
GUARD = {"int": "> -2147483649.0 && {x} < 2147483648.0", "unsigned": "> -1.0 && {x} < 4294967296.0",
         "long": ">= -9223372036854775808.0 && {x} < 9223372036854775808.0",
         "ulong": "> -1.0 && {x} < 18446744073709551616.0"}


@dataclass(frozen=True)
class Expr:
    text: str
    type: str  # a key of C_NAME


def _rank(t: str) -> int:
    return ("int", "unsigned", "long", "ulong", "float", "double", "ldouble").index(t)


def common(a: str, b: str) -> str:
    """The usual arithmetic conversions' common type (LP64: long holds every unsigned)."""
    if "ldouble" in (a, b):
        return "ldouble"
    if "double" in (a, b) or "float" in (a, b):
        return "double" if "double" in (a, b) else "float"
    if a == b:
        return a
    if {a, b} == {"long", "unsigned"}:
        return "long"
    return a if _rank(a) > _rank(b) else b


# ---------------------------------------------------------------------------
# values: bit patterns of the inputs


def _bits_of(x: float, bits: int) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0] if bits == 64 else struct.unpack("<I", struct.pack("<f", x))[0]


SPECIAL = {
    64: [0, 1 << 63, 0x3FF0000000000000, 0xBFF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
         0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0x7FF4000000000123,  # NaNs, signalling too
         0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x0010000000000000, 0x0000000000000001, 0x000FFFFFFFFFFFFF,
         0x8000000000000001, 0x4340000000000000, 0x4340000000000001, 0x43E0000000000000, 0xC3E0000000000000,
         0x43F0000000000000, 0x41E0000000000000, 0xC1E0000000000000, 0x41F0000000000000, 0x3FB999999999999A,
         0x3FE0000000000000, 0x3FDFFFFFFFFFFFFF, 0x4004000000000000, 0xC004000000000000, 0x47EFFFFFE0000000,
         0x47EFFFFFF0000000, 0x36A0000000000000, 0x3690000000000000, 0x3810000000000000, 0x43DFFFFFFFFFFFFF],
    32: [0, 1 << 31, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
         0x7FA00123, 0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x00000001, 0x007FFFFF, 0x80000001, 0x4B800000,
         0x4B800001, 0x5F000000, 0xDF000000, 0x4F000000, 0xCF000000, 0x3DCCCCCD, 0x3F000000, 0x3EFFFFFF,
         0x40200000, 0xC0200000, 0x5F800000, 0x4EFFFFFF],
}
INT_SPECIAL = {
    "int": [0, 1, -1, 2147483647, -2147483648, 16777217, -16777217, 3, -7, 1 << 30],
    "unsigned": [0, 1, 4294967295, 2147483648, 16777217, 4294967040, 7],
    "long": [0, -1, 9223372036854775807, -9223372036854775808, 9007199254740993, -9007199254740993,
             (1 << 62) + 1, 12345678901],
    "ulong": [0, 18446744073709551615, 9223372036854775808, 9223372036854777857, 9007199254740993, 5],
}


def _float_value(rnd: random.Random, bits: int) -> int:
    """A pattern: a special one, random bits, or a small number."""
    r = rnd.random()
    if r < 0.4:
        return rnd.choice(SPECIAL[bits])
    if r < 0.7:
        return rnd.getrandbits(bits)
    if r < 0.85:
        sign = rnd.choice((1, -1))
        return _bits_of(sign * rnd.randint(0, 40) / rnd.choice((1, 2, 4, 8, 10, 3)), bits)
    # a random exponent near 0, a random significand
    ebits, p = (11, 53) if bits == 64 else (8, 24)
    bias = (1 << (ebits - 1)) - 1
    e = bias + rnd.randint(-70, 70)
    return (rnd.getrandbits(1) << (bits - 1)) | (e << (p - 1)) | rnd.getrandbits(p - 1)


# x87 80-bit patterns: zeros, ones, the limits, NaNs (quiet, signalling), the encodings the x87 rejects
# (pseudo-infinity, pseudo-NaN, unnormal) and a pseudo-denormal, integers near 2^63 and 2^64
SPECIAL[80] = [0, 1 << 79, 0x3FFF8000000000000000, 0xBFFF8000000000000000, 0x7FFF8000000000000000,
               0xFFFF8000000000000000, 0x7FFFC000000000000000, 0xFFFFC000000000000000, 0x7FFFA000000000000000,
               0x7FFF8000000000000001, 0x7FFEFFFFFFFFFFFFFFFF, 0xFFFEFFFFFFFFFFFFFFFF, 0x00018000000000000000,
               0x00000000000000000001, 0x00007FFFFFFFFFFFFFFF, 0x80000000000000000001, 0x7FFF0000000000000000,
               0x7FFF4000000000000001, 0x3FFF4000000000000000, 0x00008000000000000001, 0x403E8000000000000000,
               0xC03E8000000000000000, 0x403DFFFFFFFFFFFFFFFF, 0x403EFFFFFFFFFFFFFFFF, 0x403F8000000000000000,
               0x401E8000000000000000, 0xC01E8000000000000000, 0x401EFFFFFFFF00000000, 0x3FFBCCCCCCCCCCCCCCCD,
               0x3FFE8000000000000000, 0x3FFDFFFFFFFFFFFFFFFF, 0x4000A000000000000000, 0xC000A000000000000000,
               0x3FFF8000000000000001, 0x43FE8000000000000000, 0x3C008000000000000000, 0x3BCD8000000000000000]


def _long_double_value(rnd: random.Random) -> int:
    """An x87 pattern: a special one, random bits (the integer bit set mostly), or a small number."""
    r = rnd.random()
    if r < 0.35:
        return rnd.choice(SPECIAL[80])
    if r < 0.55:
        v = rnd.getrandbits(80)
        return v | (1 << 63) if rnd.random() < 0.9 else v
    if r < 0.75:
        sign = rnd.choice((0, 1))
        q = Fraction(rnd.randint(0, 40), rnd.choice((1, 2, 4, 8, 10, 3)))
        return (sign << 79) | _ld_bits(q)
    e = 16383 + rnd.choice((rnd.randint(-70, 70), rnd.randint(-1100, 1100)))
    return (rnd.getrandbits(1) << 79) | (e << 64) | (1 << 63) | rnd.getrandbits(63)


def _ld_bits(q: Fraction) -> int:
    """An x87 pattern near the non-negative rational ``q`` (a normal number;
    any rounding will do: an input only needs to be some value)."""
    if q == 0:
        return 0
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    n = round(q / Fraction(2) ** (e - 63))
    if n >> 64:
        n, e = n >> 1, e + 1
    return ((e + 16383) << 64) | n


def _ld_fraction(v: int) -> Fraction | None:
    """The value of a canonical finite x87 pattern, None for any other."""
    exp, sig = v >> 64 & 0x7FFF, v & ((1 << 64) - 1)
    if exp == 0x7FFF or (exp and not sig >> 63) or (not exp and sig >> 63):
        return None
    q = sig * Fraction(2) ** (max(exp, 1) - 16383 - 63)
    return -q if v >> 79 & 1 else q


def _int_value(rnd: random.Random, t: str) -> int:
    if rnd.random() < 0.5:
        return rnd.choice(INT_SPECIAL[t])
    b = BITS[t]
    v = rnd.getrandbits(rnd.choice((8, 20, b)))
    if t in ("int", "long") and v >> (b - 1):
        v -= 1 << b
    return v


def inputs(rnd: random.Random, long_double: bool = False) -> dict[str, int]:
    """Each input's value: a floating one's bit pattern, an integer's value."""
    values = {name: _float_value(rnd, BITS[t]) if t in FLOATING else _int_value(rnd, t)
              for name, t in INPUTS.items()}
    if long_double:
        values.update({name: _long_double_value(rnd) for name in LONG_INPUTS if name not in INPUTS})
    return values


# ---------------------------------------------------------------------------
# literals


NAMED = {
    "double": ["INFINITY", "-INFINITY", "NAN", "HUGE_VAL", "DBL_MAX", "DBL_MIN", "DBL_TRUE_MIN", "DBL_EPSILON",
               "M_PI", "-0.0", "0.0", "1.7976931348623157e308", "1.7976931348623158e308", "1.797693134862315807e308",
               "1.8e308", "4.9406564584124654e-324", "2.4703282292062328e-324", "2.4703282292062327e-324",
               "1e-400", "2.2250738585072011e-308", "9007199254740993.0", "9007199254740993.0000001",
               "0x1p-1074", "0x1.fffffffffffffp1023", "0x1.fffffffffffff8p1023", "0x1.00000000000008p0",
               "0x1.000000000000080001p0", "0x.8p-1073", "0X1P+1024", "1e23", "8.5", "2.5", "-2.5",
               "0.49999999999999994", "4503599627370496.5", "1e-5", ".5", "5.", "0e0", "0x0p0"],
    "ldouble": ["LDBL_MAX", "LDBL_MIN", "LDBL_TRUE_MIN", "LDBL_EPSILON", "HUGE_VALL", "-0.0L", "0.0L", "0.1L",
                "1.18973149535723176502e+4932L", "1.18973149535723176508e+4932L", "1.2e4932L", "1e5000L",
                "3.64519953188247460253e-4951L", "1.8225997659412373012e-4951L", "1.8225997659412373013e-4951L",
                "1e-4952L", "3.36210314311209350626e-4932L", "0x1p-16445L", "0x1.0000000000000001p0L",
                "0x1.00000000000000008p0L", "0x1.000000000000000080001p0L", "0x1.00000000000000018p0L",
                "0xf.fffffffffffffffp+16380L", "0xf.fffffffffffffff8p+16380L", "0x.8p-16444L",
                "18446744073709551615.0L", "18446744073709551616.5L", "9223372036854775807.5L", "1e19L",
                "2.5L", "-2.5l", ".5L", "5.L", "0e0L", "0x0p0L", "3.14159265358979323846264338327950288L"],
    "float": ["HUGE_VALF", "FLT_MAX", "FLT_MIN", "FLT_TRUE_MIN", "FLT_EPSILON", "-0.0f", "0.0f", "3.40282347e38f",
              "3.4028235677973366e38f", "3.4028235677973367e38f", "3.5e38f", "1.4e-45f", "7.006492321624086e-46f",
              "7.006492321624087e-46f", "1e-50f", "1.17549435e-38F", "16777217.0f", "16777217.000001f",
              "0x1.fffffep127f", "0x1.ffffffp127f", "0x1p-149f", "0x1.000001p0f", "0x1.0000010001p0F",
              "0x.8p-148f", "0.1f", "2.5f", ".5f", "5.f", "1e10f", "0x0p0f"],
}


def _random_literal(rnd: random.Random, t: str) -> str:
    """A random finite number written as C would: decimal with a random
    number of digits (rounded on reading), exponent, or hexadecimal."""
    bits = BITS[t]
    v = _float_value(rnd, bits)
    ebits = 11 if bits == 64 else 8
    if (v >> (bits - 1 - ebits)) & ((1 << ebits) - 1) == (1 << ebits) - 1:  # not finite: write 1.5
        v = _bits_of(1.5, bits)
    x = abs(struct.unpack("<d", struct.pack("<Q", v))[0] if bits == 64 else struct.unpack("<f", struct.pack("<I", v))[0])
    suffix = rnd.choice(("f", "F")) if t == "float" else ""
    form = rnd.randrange(5)
    if form == 0:
        digits = rnd.randint(1, 25)
        s = f"{x:.{digits}e}"
        if rnd.random() < 0.5:
            s = s.replace("e", "E")
    elif form == 1:
        s = repr(x)
        if "e" not in s and "." not in s:
            s += "."
    elif form == 2:
        s = x.hex()  # 0x1.8000000000000p+3
        if rnd.random() < 0.5:
            mant, exp = s.split("p")
            mant = mant.rstrip("0").rstrip(".") if "." in mant else mant
            extra = "".join(rnd.choice("0123456789abcdef") for _ in range(rnd.randint(0, 16)))
            s = (mant + ("" if "." in mant else ".") + extra if extra else mant) + "p" + exp
        if rnd.random() < 0.3:
            s = s.upper().replace("0X", rnd.choice(("0x", "0X")))
    elif form == 3:
        s = f"{rnd.randint(0, 999999)}.{rnd.randint(0, 999999):06d}".lstrip("0") or "0."
        if s.startswith("."):
            s = "0" + s if rnd.random() < 0.5 else s
    else:
        s = f"{rnd.randint(1, 9)}e{rnd.choice('+-') if rnd.random() < 0.5 else ''}{rnd.randint(0, 330 if bits == 64 else 50)}"
    return s + suffix


def _random_long_literal(rnd: random.Random) -> str:
    """A random finite long double written as C would: decimal with a random
    number of digits, exponent, or hexadecimal, with ``L`` or ``l``."""
    v = _long_double_value(rnd)
    q = _ld_fraction(v)
    if q is None:
        q = Fraction(3, 2)
    q = abs(q)
    form = rnd.randrange(4)
    if form == 0 and q:  # decimal, rounded to a random number of digits (exactly, by Decimal)
        digits = rnd.randint(1, 30)
        with decimal.localcontext() as ctx:
            ctx.prec, ctx.Emax, ctx.Emin = digits, 999999, -999999
            d = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator) if q.numerator.bit_length() < 12000 \
                and q.denominator.bit_length() < 12000 else decimal.Decimal(1)
        s = f"{d:e}"
    elif form == 1 or not q:  # hexadecimal, the significand's bits in a random place
        n, e = q.numerator, 0
        if q.denominator > 1:
            e = -(q.denominator.bit_length() - 1)
            n = q.numerator
        shift = rnd.choice((0, 1, 2, 3))
        s = f"0x{n << shift:x}p{e - shift}" if n else "0x0p0"
    elif form == 2:
        s = f"{rnd.randint(0, 999999)}.{rnd.randint(0, 10 ** 12):012d}".lstrip("0") or "0."
    else:
        s = f"{rnd.randint(1, 9)}e{rnd.choice('+-') if rnd.random() < 0.5 else ''}{rnd.randint(0, 4960)}"
    return s + rnd.choice(("L", "l"))


def literal(rnd: random.Random, fl: tuple[str, ...] = FLOATING) -> Expr:
    """A floating literal, in ``K()``: natively a volatile compound literal,
    which gcc cannot fold (gcc 12 folds ``0.0 - (x >= y)`` to ``-0.0``)."""
    t = rnd.choice(fl)
    if rnd.random() < 0.4:
        s = rnd.choice(NAMED[t])
        if s in ("INFINITY", "NAN", "-INFINITY"):  # float, in <math.h>
            t = "float"
    else:
        s = _random_long_literal(rnd) if t == "ldouble" else _random_literal(rnd, t)
    return Expr(f"K({s})", t)


def int_literal(rnd: random.Random) -> Expr:
    v, t = rnd.choice([("3", "int"), ("-7", "int"), ("2147483647", "int"), ("4294967295u", "unsigned"),
                       ("16777217", "int"), ("9007199254740993L", "long"), ("18446744073709551615UL", "ulong"),
                       ("0", "int"), ("-9223372036854775807L", "long")])
    return Expr(f"K({v})", t)


# ---------------------------------------------------------------------------
# expressions

UNARY_MATH = ("fabs", "sqrt", "floor", "ceil", "trunc", "round")


def _leaf(rnd: random.Random, floating: bool, fl: tuple[str, ...] = FLOATING) -> Expr:
    r = rnd.random()
    if r < 0.55:
        inputs = LONG_INPUTS if "ldouble" in fl else INPUTS
        names = [n for n, t in inputs.items() if not floating or t in fl]
        n = rnd.choice(names)
        return Expr(n, inputs[n])
    if r < 0.9 or floating:
        return literal(rnd, fl)
    return int_literal(rnd)


def float_to_int(e: Expr, t: str) -> Expr:
    """``(t)e`` when the truncated value fits, else 0 (a long double is
    compared as itself: a double may round it into the range)."""
    if e.type == "ldouble":
        x = f"(long double)({e.text})"
        guard = GUARD[t].replace(".0", ".0L").format(x=x)
    else:
        x = f"(double)({e.text})"
        guard = GUARD[t].format(x=x)
    return Expr(f"({x} {guard} ? ({C_NAME[t]})({e.text}) : 0)", t)


def expr(rnd: random.Random, depth: int, floating: bool = False, fl: tuple[str, ...] = FLOATING) -> Expr:
    """A random expression; ``floating``: of a floating type (one of ``fl``)."""
    if depth <= 0 or rnd.random() < 0.15:
        return _leaf(rnd, floating, fl)
    k = rnd.random()
    if k < 0.3:  # arithmetic: one floating operand at least
        a = expr(rnd, depth - 1, True, fl)
        b = expr(rnd, depth - 1, False, fl)
        if rnd.random() < 0.5:
            a, b = b, a
        op = rnd.choice("+-*/")
        if op == "*" and a.text in INPUTS and b.text.startswith(("(", "K(")):
            a, b = b, a  # distaff's front end reads (x * (y)) - z as a cast of -z to the type x *(y)
        return Expr(f"({a.text} {op} {b.text})", common(a.type, b.type))
    if k < 0.38:
        a = expr(rnd, depth - 1, True, fl)
        return Expr(f"(- {a.text})", a.type)
    if k < 0.5:  # casts
        a = expr(rnd, depth - 1, False, fl)
        if a.type in fl and not floating and rnd.random() < 0.4:
            return float_to_int(a, rnd.choice(INTEGER))
        t = rnd.choice(fl)
        return Expr(f"(({C_NAME[t]})({a.text}))", t)
    if k < 0.68:  # <math.h>
        t = rnd.choice(fl)
        suffix = {"float": "f", "double": "", "ldouble": "l"}[t]
        if rnd.random() < 0.75:
            a = expr(rnd, depth - 1, False, fl)
            return Expr(f"{rnd.choice(UNARY_MATH)}{suffix}({a.text})", t)
        a, b = expr(rnd, depth - 1, False, fl), expr(rnd, depth - 1, False, fl)
        return Expr(f"{rnd.choice(('fmin', 'fmax'))}{suffix}({a.text}, {b.text})", t)
    if k < 0.82 and not floating:  # comparisons and classifications: int
        if rnd.random() < 0.6:
            a = expr(rnd, depth - 1, True, fl)
            b = expr(rnd, depth - 1, False, fl)
            if rnd.random() < 0.5:
                a, b = b, a
            return Expr(f"({a.text} {rnd.choice(('==', '!=', '<', '<=', '>', '>='))} {b.text})", "int")
        a = expr(rnd, depth - 1, True, fl)
        f = rnd.choice(("isnan", "isinf", "isfinite", "signbit"))
        if f == "signbit":  # a NaN's sign is unspecified
            # and gcc folds signbit of a constant to 1, where its run gives the bit where it stands
            return Expr(f"(isnan({a.text}) ? 0 : signbit({a.text}) != 0)", "int")
        return Expr(f"{f}({a.text})", "int")
    c = expr(rnd, depth - 1, False, fl)
    a = expr(rnd, depth - 1, floating, fl)
    b = expr(rnd, depth - 1, floating, fl)
    return Expr(f"({c.text} ? {a.text} : {b.text})", common(a.type, b.type))


def expressions(seed: int, n: int, depth: int = 3, long_double: bool = False) -> list[Expr]:
    """``n`` expressions drawn from ``seed``, each at most ``depth`` operators
    deep; ``long_double``: long double among the types (and the inputs
    ``x0 x1 x2``), each expression of that type or with one inside it."""
    rnd = random.Random(seed)
    if not long_double:
        return [expr(rnd, rnd.randint(1, depth)) for _ in range(n)]
    out = []
    while len(out) < n:
        e = expr(rnd, rnd.randint(1, depth), False, LONG_FLOATING)
        inside = r"\bx\d|K\([^()]*[.eEpP][^()]*[lL]\)|LDBL|VALL|long double|\b[a-z]+l\("
        if e.type == "ldouble" or re.search(inside, e.text):
            out.append(e)
    return out


# ---------------------------------------------------------------------------
# the program


HEAD = """#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#ifdef NATIVE
#include <stdio.h>
#define VOL volatile
#define K(x) ((volatile __typeof__(x)){ x })
#else
#define VOL
#define K(x) (x)
#endif
"""


def _set_input(name: str, t: str, v: int, variant: str) -> str:
    if t == "ldouble":  # its 10 bytes: the significand, then sign and exponent
        lo, hi = f"0x{v & ((1 << 64) - 1):x}ULL", f"0x{v >> 64:x}u"
        if variant == "symbolic":
            return (f"    {name} = __VERIFIER_nondet_long_double();\n"
                    f"    {{ uint64_t lo; uint16_t hi; memcpy(&lo, (void *)&{name}, 8); "
                    f"memcpy(&hi, (char *)&{name} + 8, 2); __VERIFIER_assume(lo == {lo} && hi == {hi}); }}\n")
        return (f"    {{ uint64_t lo = {lo}; uint16_t hi = {hi}; memcpy((void *)&{name}, &lo, 8); "
                f"memcpy((char *)&{name} + 8, &hi, 2); }}\n")
    if t in FLOATING:
        u = "uint64_t" if t == "double" else "uint32_t"
        lit = f"0x{v:x}ULL" if t == "double" else f"0x{v:x}u"
        if variant == "symbolic":
            return (f"    {name} = __VERIFIER_nondet_{t}();\n"
                    f"    {{ {u} b; memcpy(&b, (void *)&{name}, sizeof b); __VERIFIER_assume(b == {lit}); }}\n")
        return f"    {{ {u} b = {lit}; memcpy((void *)&{name}, &b, sizeof b); }}\n"
    lit = f"{v}" if t == "int" else f"{v}u" if t == "unsigned" else f"{v}UL" if t == "ulong" else f"{v}L"
    if v == -(1 << 31) and t == "int":
        lit = "(-2147483647 - 1)"
    if v == -(1 << 63):
        lit = "(-9223372036854775807L - 1)"
    if variant == "symbolic":
        nondet = {"int": "int", "unsigned": "uint", "long": "long", "ulong": "ulong"}[t]
        return f"    {name} = __VERIFIER_nondet_{nondet}();\n    __VERIFIER_assume({name} == {lit});\n"
    return f"    {name} = {lit};\n"


def _result(k: int, e: Expr) -> str:
    return f"    {C_NAME[e.type]} r{k} = {e.text};\n"


def _native_print(k: int, e: Expr) -> str:
    if e.type == "ldouble":
        return (f"    if (isnan(r{k})) printf(\"nan\\n\");\n"
                f"    else {{ uint64_t lo; uint16_t hi; memcpy(&lo, &r{k}, 8); memcpy(&hi, (char *)&r{k} + 8, 2); "
                f"printf(\"0x%04x%016llx\\n\", hi, (unsigned long long)lo); }}\n")
    if e.type in FLOATING:
        u = "uint64_t" if e.type == "double" else "uint32_t"
        return (f"    if (isnan(r{k})) printf(\"nan\\n\");\n"
                f"    else {{ {u} b; memcpy(&b, &r{k}, sizeof b); printf(\"%llu\\n\", (unsigned long long)b); }}\n")
    fmt = "%lld" if e.type in ("int", "long") else "%llu"
    cast = "long long" if e.type in ("int", "long") else "unsigned long long"
    return f"    printf(\"{fmt}\\n\", ({cast})r{k});\n"


def _agrees(k: int, e: Expr, answer: str) -> str:
    """A C condition: r{k} is what gcc computed."""
    if answer == "nan":
        return f"isnan(r{k})"
    if e.type == "ldouble":
        v = int(answer, 16)
        return (f"({{ uint64_t lo; uint16_t hi; memcpy(&lo, &r{k}, 8); memcpy(&hi, (char *)&r{k} + 8, 2); "
                f"lo == 0x{v & ((1 << 64) - 1):x}ULL && hi == 0x{v >> 64:x}u; }})")
    if e.type in FLOATING:
        u = "uint64_t" if e.type == "double" else "uint32_t"
        lit = f"0x{int(answer):x}ULL"
        return f"({{ {u} b; memcpy(&b, &r{k}, sizeof b); b == ({u}){lit}; }})"
    v = int(answer)
    lit = {"int": f"{v}", "long": f"{v}L", "unsigned": f"{v}u", "ulong": f"{v}UL"}[e.type]
    if v in (-(1 << 31), -(1 << 63)):
        lit = f"({v + 1}{'L' if e.type == 'long' else ''} - 1)"
    return f"r{k} == {lit}"


def program(exprs: list[Expr], values: dict[str, int], variant: str = "native",
            answers: list[str] | None = None) -> str:
    """The C program computing ``exprs`` on the inputs ``values``: with
    ``variant`` ``native`` (compile with ``-DNATIVE``) it prints the results;
    ``concrete`` or ``symbolic`` assert that they are ``answers`` (what
    :func:`native` read), all in one assertion."""
    used = {n: t for n, t in LONG_INPUTS.items() if n in values}
    decls = "".join(f"VOL {C_NAME[t]} {n};\n" for n, t in used.items())
    body = "".join(_set_input(n, t, values[n], "concrete" if variant == "native" else variant)
                   for n, t in used.items())
    for k, e in enumerate(exprs):
        body += _result(k, e)
    if variant == "native":
        body += "".join(_native_print(k, e) for k, e in enumerate(exprs))
    else:
        body += "    int ok = 1;\n"
        body += "".join(f"    ok &= {_agrees(k, e, a)};\n" for k, (e, a) in enumerate(zip(exprs, answers)))
        body += "    assert(ok);\n"
    return f"{HEAD}{decls}\nint main(void) {{\n{body}    return 0;\n}}\n"


def witnessed(e: Expr, values: dict[str, int], variant: str, answer: str) -> str:
    """The one-expression program asserting that ``e`` is ``answer``, which
    first writes what it computed to globals, so that a counterexample's
    trace shows it (``write seen_bits = ...``, ``write seen_nan = ...``)."""
    text = program([e], values, variant, [answer])
    if e.type == "ldouble":
        seen = ("    { uint64_t b = 0; uint16_t h = 0; memcpy(&b, &r0, 8); memcpy(&h, (char *)&r0 + 8, 2); "
                "seen_bits = b; seen_high = h; }\n    seen_nan = isnan(r0) != 0;\n")
    elif e.type in FLOATING:
        seen = ("    { uint64_t b = 0; memcpy(&b, &r0, sizeof r0); seen_bits = b; }\n"
                "    seen_nan = isnan(r0) != 0;\n")
    else:
        seen = "    seen_bits = (uint64_t)r0;\n"
    text = text.replace("\nint main(void) {\n", "uint64_t seen_bits, seen_high;\nint seen_nan;\n\nint main(void) {\n")
    return text.replace("    int ok = 1;\n", seen + "    int ok = 1;\n")


# ---------------------------------------------------------------------------
# running them


def native(exprs: list[Expr], values: dict[str, int], workdir: Path) -> list[str]:
    """gcc's results: ``nan``, or a floating result's bits, or an integer's value, as text."""
    src, exe = workdir / "native.c", workdir / "native"
    src.write_text(program(exprs, values, "native"))
    subprocess.run([CC, *CFLAGS, "-DNATIVE", "-o", str(exe), str(src), "-lm"], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=30).stdout.split()
    assert len(out) == len(exprs)
    return out


@dataclass(frozen=True)
class Check:
    """distaff's verdicts on a program: one status per assertion, in source
    order, and the findings' messages."""
    statuses: tuple[str, ...]
    findings: tuple[str, ...]
    reasons: tuple[str, ...]
    actions: tuple[str, ...] = ()  # the first counterexample's steps

    @property
    def holds(self) -> bool:
        return not self.findings and all(s == "holds" for s in self.statuses)


def distaff(text: str, workdir: Path, name: str = "p.c", timeout_s: float = 600) -> Check:
    """``python3 -m distaff check PROG.c --format json`` on ``text``."""
    path = workdir / name
    path.write_text(text)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "distaff", "check", str(path), "--format", "json", "--workers", "1",
         "--max-memory", "0", "--timeout", str(timeout_s)],
        capture_output=True, text=True, env=env, cwd=str(ROOT))
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return Check((), (f"distaff exit {proc.returncode}: {proc.stderr.strip()[-2000:]}",), ())
    f = report["files"][0]
    assertions = sorted(f["assertions"], key=lambda a: (a["line"], a["column"]))
    trace = next((a["counterexample"] for a in assertions if a.get("counterexample")), None)
    return Check(tuple(a["status"] for a in assertions),
                 tuple(str(x.get("message", x)) for x in f["findings"]),
                 tuple(a.get("reason") or "" for a in assertions),
                 tuple(step["action"] for step in trace["steps"]) if trace else ())


def distaff_answer(e: Expr, c: Check) -> str:
    """What distaff computed for ``e`` (as :func:`native` writes it), read
    from the counterexample of :func:`witnessed`'s program."""
    seen = {}
    for a in c.actions:
        m = re.fullmatch(r"write (seen_bits|seen_high|seen_nan) = (-?\d+)", a)
        if m:
            seen[m.group(1)] = int(m.group(2))
    if "seen_bits" not in seen:
        return (f"no value: {list(c.statuses)} {sorted(set(c.reasons) - {''})} {list(c.findings)}")
    if seen.get("seen_nan"):
        return "nan"
    if e.type == "ldouble":
        return f"0x{seen.get('seen_high', 0) & 0xFFFF:04x}{seen['seen_bits'] & ((1 << 64) - 1):016x}"
    v = seen["seen_bits"] & ((1 << BITS[e.type]) - 1)
    if e.type in ("int", "long") and v >> (BITS[e.type] - 1):
        v -= 1 << BITS[e.type]
    return str(v)


@dataclass(frozen=True)
class Disagreement:
    variant: str
    expr: Expr
    values: dict
    gcc: str
    distaff: str
    program: str


def _culprits(ks: list[int], exprs: list[Expr], values: dict[str, int], variant: str, answers: list[str],
              wd: Path, known_bad: bool = True) -> list[int]:
    """The expressions among ``ks`` distaff does not prove, by bisection
    (``known_bad``: ``ks`` together are known not to be proved)."""
    if not known_bad and distaff(program([exprs[k] for k in ks], values, variant, [answers[k] for k in ks]),
                                 wd, "part.c").holds:
        return []
    if len(ks) == 1:
        return ks
    half = len(ks) // 2
    bad = _culprits(ks[:half], exprs, values, variant, answers, wd, False)
    # when the first half is proved, the second is known to fail
    return bad + _culprits(ks[half:], exprs, values, variant, answers, wd, bool(not bad))


def compare(exprs: list[Expr], values: dict[str, int], variant: str, answers: list[str],
            wd: Path) -> list[Disagreement]:
    """distaff's check, in ``variant``, that ``exprs`` compute ``answers``:
    the expressions it does not prove, each with distaff's own value."""
    if distaff(program(exprs, values, variant, answers), wd, f"{variant}.c").holds:
        return []
    found = []
    for k in _culprits(list(range(len(exprs))), exprs, values, variant, answers, wd):
        one = witnessed(exprs[k], values, variant, answers[k])
        single = distaff(one, wd, "one.c")
        got = distaff_answer(exprs[k], single)
        if single.findings:
            got += f" (findings: {'; '.join(single.findings)})"
        found.append(Disagreement(variant, exprs[k], values, answers[k], got, one))
    return found


def check_batch(exprs: list[Expr], values: dict[str, int], variants=("concrete", "symbolic"),
                workdir: Path | None = None) -> tuple[list[Disagreement], dict]:
    """Every expression of the batch, natively and by distaff in each
    variant; the disagreements and the seconds each side took."""
    with tempfile.TemporaryDirectory() as d:
        wd = Path(workdir or d)
        t0 = time.monotonic()
        answers = native(exprs, values, wd)
        times = {"native": time.monotonic() - t0}
        found = []
        for variant in variants:
            t0 = time.monotonic()
            found += compare(exprs, values, variant, answers, wd)
            times[variant] = time.monotonic() - t0
    return found, times


def describe(x: Disagreement) -> str:
    """A disagreement as Markdown: the expression, both answers, the program."""
    def show(a: str, t: str) -> str:
        if t == "ldouble" and a.startswith("0x"):
            from distaff.analysis import floats
            return f"{a} ({floats.text(int(a, 16), floats.LONG_DOUBLE)})"
        if a.isdigit() and t in FLOATING:
            v = int(a)
            f = struct.unpack("<d", struct.pack("<Q", v))[0] if t == "double" else \
                struct.unpack("<f", struct.pack("<I", v))[0]
            return f"0x{v:0{BITS[t] // 4}x} ({f!r})"
        return a
    return (f"- {x.variant}: `{x.expr.text}` ({C_NAME.get(x.expr.type, x.expr.type)}): gcc {show(x.gcc, x.expr.type)}, "
            f"distaff {show(x.distaff, x.expr.type)}\n\n```c\n{x.program}```\n")


__all__ = ["CC", "Check", "Disagreement", "Expr", "check_batch", "compare", "describe", "distaff", "expressions",
           "inputs", "native", "program", "witnessed"]
