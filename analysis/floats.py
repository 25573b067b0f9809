"""IEEE 754 binary floating point, computed concretely on bit patterns.

A floating value of the IR (:class:`distaff.analysis.ir.FloatType`) is the bit
pattern of a ``binary32`` (``float``) or ``binary64`` (``double``) number, an
unsigned integer of 32 or 64 bits. This module gives those patterns their
meaning in Python: decoding to a Python ``float`` (a binary64, so every
binary32 is one exactly), encoding back with correct rounding, exact rounding
of rationals (the literals of C source, integers too wide for a double), and
the operations C has on them, in the default environment: round to nearest,
ties to even, no traps.

Two facts carry the binary32 operations: ``+ - * /`` and ``sqrt`` of two
binary32 numbers computed in binary64 and rounded once to binary32 give the
correctly rounded binary32 result (binary64 has more than twice binary32's
precision plus two bits), and every binary32 converts to binary64 exactly.

Every NaN a computation produces is the one *canonical* pattern
(:data:`QUIET_NAN`): C leaves a NaN's sign and payload unspecified, and one
pattern keeps the concrete and the symbolic values (z3's, in
:mod:`distaff.analysis.symex.values`) the same bits.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

# bits -> (exponent bits, significand bits including the hidden one)
FORMATS = {32: (8, 24), 64: (11, 53)}
QUIET_NAN = {32: 0x7FC00000, 64: 0x7FF8000000000000}
SIGN = {32: 1 << 31, 64: 1 << 63}
MATH_UNARY = frozenset({"fabs", "sqrt", "floor", "ceil", "trunc", "round"})
CLASSIFY = frozenset({"isnan", "isinf", "isfinite", "signbit"})
MATH_BINARY = frozenset({"fmin", "fmax"})


def decode(v: int, bits: int) -> float:
    """The number the pattern ``v`` encodes (binary32 values exactly)."""
    if bits == 64:
        return struct.unpack("<d", v.to_bytes(8, "little"))[0]
    return struct.unpack("<f", v.to_bytes(4, "little"))[0]


def encode(x: float, bits: int) -> int:
    """The pattern of ``x`` rounded to the format (NaN the canonical one)."""
    if x != x:
        return QUIET_NAN[bits]
    if bits == 64:
        return int.from_bytes(struct.pack("<d", x), "little")
    try:
        return int.from_bytes(struct.pack("<f", x), "little")
    except OverflowError:  # rounds beyond the largest binary32: an infinity
        return 0xFF800000 if x < 0 else 0x7F800000


def round_rational(q: Fraction, bits: int) -> int:
    """The pattern of the rational ``q`` rounded to nearest, ties to even
    (gradual underflow, overflow to infinity): a C literal's value."""
    ebits, p = FORMATS[bits]
    sign = SIGN[bits] if q < 0 else 0
    q = abs(q)
    if q == 0:
        return sign
    emax = (1 << (ebits - 1)) - 1
    emin = 1 - emax
    # the exponent e with 2**e <= q < 2**(e+1)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)  # subnormals share the smallest exponent
    scaled = q / Fraction(2) ** (e - p + 1)  # the significand, p bits before rounding
    n, r = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * r
    if twice > scaled.denominator or (twice == scaled.denominator and n & 1):
        n += 1
    if n >> p:  # rounding carried into a new bit
        n >>= 1
        e += 1
    if e > emax:
        return sign | (((1 << ebits) - 1) << (p - 1))
    if n >> (p - 1):  # normal: the hidden bit is set
        return sign | ((e + emax) << (p - 1)) | (n & ((1 << (p - 1)) - 1))
    return sign | n  # subnormal


def from_int(i: int, bits: int) -> int:
    """The pattern of the integer ``i`` (signed, any size), correctly rounded."""
    if -(1 << 53) <= i <= 1 << 53:
        return encode(float(i), bits)  # exact in binary64, rounded once
    return round_rational(Fraction(i), bits)


def to_int(v: int, bits: int) -> int | None:
    """The value of ``v`` truncated toward zero, None for a NaN or an infinity."""
    x = decode(v, bits)
    if x != x or x in (math.inf, -math.inf):
        return None
    return math.trunc(x)


def convert(v: int, frm: int, to: int) -> int:
    """The pattern of ``v`` converted between formats (rounded when narrowing)."""
    return v if frm == to else encode(decode(v, frm), to)


def signalling(v: int, bits: int) -> bool:
    """``v`` is a signalling NaN (its significand's first bit clear). No
    operation makes one; an input's bits (a nondet value, memory) may be one."""
    ebits, p = FORMATS[bits]
    exp = ((1 << ebits) - 1) << (p - 1)
    return v & exp == exp and not v >> (p - 2) & 1 and bool(v & ((1 << (p - 2)) - 1))


def arith(op: str, a: int, b: int, bits: int) -> int:
    """``a op b`` for ``op`` in ``+ - * /`` and ``fmin``/``fmax``. ``fmin``
    and ``fmax`` are glibc's (IEEE 754-2008's minNum, maxNum): a quiet NaN
    operand gives the other operand, a signalling one a NaN."""
    x, y = decode(a, bits), decode(b, bits)
    if op == "+":
        r = x + y
    elif op == "-":
        r = x - y
    elif op == "*":
        r = x * y
    elif op == "/":
        if y == 0:
            if x == 0 or x != x:
                r = math.nan
            else:
                r = math.copysign(math.inf, x) * math.copysign(1.0, y)
        else:
            r = x / y
    elif signalling(a, bits) or signalling(b, bits):  # fmin or fmax: IEEE's minNum, as glibc's
        r = math.nan
    elif op == "fmin":  # equal operands (zeros of two signs) give the second, as glibc's run does
        r = y if x != x else x if y != y else x if x < y else y
    elif op == "fmax":
        r = y if x != x else x if y != y else x if x > y else y
    else:
        raise ValueError(f"floating operator {op}")
    return encode(r, bits)


def compare(op: str, a: int, b: int, bits: int) -> bool:
    """IEEE's comparison: false when either is a NaN, except ``!=``."""
    x, y = decode(a, bits), decode(b, bits)
    if op == "==":
        return x == y
    if op == "!=":
        return x != y
    if op == "<":
        return x < y
    if op == "<=":
        return x <= y
    if op == ">":
        return x > y
    return x >= y


def unary(op: str, a: int, bits: int) -> int:
    """Negation and the exact ``<math.h>`` functions of :data:`MATH_UNARY`;
    the classifications of :data:`CLASSIFY` give 0 or 1."""
    if op == "-":
        return a ^ SIGN[bits]
    if op == "fabs":
        return a & ~SIGN[bits]
    if op == "signbit":
        return int(bool(a & SIGN[bits]))
    x = decode(a, bits)
    if op == "isnan":
        return int(x != x)
    if op == "isinf":
        return int(x in (math.inf, -math.inf))
    if op == "isfinite":
        return int(x == x and x not in (math.inf, -math.inf))
    if op == "sqrt":
        return encode(math.nan if x < 0 else math.sqrt(x), bits)
    if x != x or x in (math.inf, -math.inf) or x == 0:
        return encode(x, bits)
    if op == "floor":
        r = float(math.floor(x))
    elif op == "ceil":
        r = float(math.ceil(x))
    elif op == "trunc":
        r = float(math.trunc(x))
    elif op == "round":  # halves away from zero; x - trunc(x) is exact
        t = math.trunc(x)
        r = float(t + (0 if abs(x - t) < 0.5 else (1 if x > 0 else -1)))
    else:
        raise ValueError(f"floating function {op}")
    return encode(math.copysign(r, x), bits)


def nonzero(a: int, bits: int) -> bool:
    """``a != 0.0`` (a NaN is non-zero)."""
    return bool(a & ~SIGN[bits])


def text(v: int, bits: int) -> str:
    """The value as C source would write it: the shortest decimal that reads
    back as the same number (``0.1``, ``1e+30``, ``-0.0``, ``inf``, ``nan``),
    with an ``f`` for a float."""
    x = decode(v, bits)
    if x != x:
        return "nan"
    if x in (math.inf, -math.inf):
        return "inf" if x > 0 else "-inf"
    if bits == 64:
        return repr(x)
    for p in range(1, 10):  # nine digits always read back as the same binary32
        s = f"{x:.{p}g}"
        if encode(float(s), 32) == v:
            break
    return (s if "." in s or "e" in s else s + ".0") + "f"


__all__ = [
    "CLASSIFY", "FORMATS", "MATH_BINARY", "MATH_UNARY", "QUIET_NAN", "SIGN", "arith", "compare", "convert",
    "decode", "encode", "from_int", "nonzero", "round_rational", "signalling", "text", "to_int", "unary",
]
