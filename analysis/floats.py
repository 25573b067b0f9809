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

# bits -> (exponent bits, significand bits including the hidden one); 128 is
# long double, the x87 80-bit format held in 16 bytes (see LONG_DOUBLE below)
FORMATS = {32: (8, 24), 64: (11, 53), 128: (15, 64)}
QUIET_NAN = {32: 0x7FC00000, 64: 0x7FF8000000000000, 128: 0x7FFF_C000_0000_0000_0000}
SIGN = {32: 1 << 31, 64: 1 << 63, 128: 1 << 79}
MATH_UNARY = frozenset({"fabs", "sqrt", "floor", "ceil", "trunc", "round"})
CLASSIFY = frozenset({"isnan", "isinf", "isfinite", "signbit"})
MATH_BINARY = frozenset({"fmin", "fmax"})


def decode(v: int, bits: int) -> float:
    """The number the pattern ``v`` encodes (binary32 values exactly; not
    for a long double, which a Python float does not hold)."""
    if bits == 64:
        return struct.unpack("<d", v.to_bytes(8, "little"))[0]
    return struct.unpack("<f", v.to_bytes(4, "little"))[0]


def encode(x: float, bits: int) -> int:
    """The pattern of ``x`` rounded to the format (NaN the canonical one)."""
    if x != x:
        return QUIET_NAN[bits]
    if bits == LONG_DOUBLE:
        neg = math.copysign(1.0, x) < 0
        return _x_encode(neg, abs(x) if math.isinf(x) else Fraction(abs(x)))
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
    if bits == LONG_DOUBLE:  # the integer bit is stored: 1 for normals and infinities
        if e > emax:
            return sign | (((1 << ebits) - 1) << p) | (1 << (p - 1))
        return sign | ((e + emax if n >> (p - 1) else 0) << p) | n
    if e > emax:
        return sign | (((1 << ebits) - 1) << (p - 1))
    if n >> (p - 1):  # normal: the hidden bit is set
        return sign | ((e + emax) << (p - 1)) | (n & ((1 << (p - 1)) - 1))
    return sign | n  # subnormal


def from_int(i: int, bits: int) -> int:
    """The pattern of the integer ``i`` (signed, any size), correctly rounded."""
    if bits == LONG_DOUBLE:
        return _x_encode(i < 0, Fraction(abs(i)))
    if -(1 << 53) <= i <= 1 << 53:
        return encode(float(i), bits)  # exact in binary64, rounded once
    return round_rational(Fraction(i), bits)


def to_int(v: int, bits: int) -> int | None:
    """The value of ``v`` truncated toward zero, None for a NaN or an infinity."""
    if bits == LONG_DOUBLE:
        neg, q = _x_decode(v)
        return None if q != q or q == math.inf else math.trunc(-q if neg else q)
    x = decode(v, bits)
    if x != x or x in (math.inf, -math.inf):
        return None
    return math.trunc(x)


def convert(v: int, frm: int, to: int) -> int:
    """The pattern of ``v`` converted between formats (rounded when narrowing)."""
    if frm == to:
        return v
    if LONG_DOUBLE in (frm, to):
        neg, x = _x_of_float(v, frm)
        if to == LONG_DOUBLE:
            return _x_encode(neg, x)
        if x != x:
            return QUIET_NAN[to]
        if x == math.inf:
            return encode(-math.inf if neg else math.inf, to)
        return round_rational(-x if neg else x, to) if x else SIGN[to] * neg
    return encode(decode(v, frm), to)


def signalling(v: int, bits: int) -> bool:
    """``v`` is a signalling NaN (its significand's first bit clear). No
    operation makes one; an input's bits (a nondet value, memory) may be one."""
    ebits, p = FORMATS[bits]
    if bits == LONG_DOUBLE:  # (a pseudo-NaN, integer bit clear, is an invalid operand: as signalling)
        exp = ((1 << ebits) - 1) << p
        return v & exp == exp and (not v >> 62 & 1 or not v >> 63 & 1) and bool(v & ((1 << 63) - 1))
    exp = ((1 << ebits) - 1) << (p - 1)
    return v & exp == exp and not v >> (p - 2) & 1 and bool(v & ((1 << (p - 2)) - 1))


def arith(op: str, a: int, b: int, bits: int) -> int:
    """``a op b`` for ``op`` in ``+ - * /`` and ``fmin``/``fmax``. ``fmin``
    and ``fmax`` are glibc's (IEEE 754-2008's minNum, maxNum): a quiet NaN
    operand gives the other operand, a signalling one a NaN."""
    if bits == LONG_DOUBLE and op in ("+", "-", "*", "/"):
        return _x_arith(op, a & ((1 << 80) - 1), b & ((1 << 80) - 1))
    if bits == LONG_DOUBLE:
        return _x_minmax(op, a & ((1 << 80) - 1), b & ((1 << 80) - 1))
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
    if bits == LONG_DOUBLE:
        return _x_compare(op, a, b)
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
    if bits == LONG_DOUBLE:
        return _x_unary(op, a)
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
    if bits == LONG_DOUBLE:
        return bool(a & ((1 << 79) - 1))
    return bool(a & ~SIGN[bits])


def text(v: int, bits: int) -> str:
    """The value as C source would write it: the shortest decimal that reads
    back as the same number (``0.1``, ``1e+30``, ``-0.0``, ``inf``, ``nan``),
    with an ``f`` for a float, an ``L`` for a long double."""
    if bits == LONG_DOUBLE:
        return _x_text(v)
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


# --------------------------------------------------------------------------
# long double: the x87 80-bit extended format of the x86-64 data model
#
# A long double value is held in 128 bits (its sizeof is 16): the low 80 are
# the x87 pattern (sign, 15 exponent bits, an explicit integer bit, 63
# fraction bits), the 48 above them padding that no operation reads and every
# operation's result leaves zero. Its operations are computed exactly on
# rationals and rounded once to the 64-bit significand.
#
# Patterns the x87 does not produce are read as it reads them: a
# pseudo-denormal (exponent 0, integer bit 1) is the number its bits give with
# the exponent of the denormals, so the same as a normal of exponent 1; an
# unnormal (exponent neither 0 nor all ones, integer bit 0), a pseudo-infinity
# and a pseudo-NaN (exponent all ones, integer bit 0) are invalid operands: the
# x87 computes with them as with a NaN (an arithmetic result is its default
# NaN, a comparison is unordered).

LONG_DOUBLE = 128
_X_SIG = (1 << 64) - 1
_X_EMAX = 0x7FFF
_X_BIAS = 16383


def _x_decode(v: int) -> tuple[bool, Fraction | float]:
    """The sign and magnitude of the x87 pattern ``v``: a Fraction, ``math.inf``
    or ``math.nan`` (an invalid encoding too)."""
    neg = bool(v >> 79 & 1)
    exp = v >> 64 & _X_EMAX
    sig = v & _X_SIG
    integer = sig >> 63
    if exp == _X_EMAX:
        if not integer or sig & ((1 << 63) - 1):
            return neg, math.nan
        return neg, math.inf
    if exp and not integer:
        return neg, math.nan  # an unnormal
    e = max(exp, 1) - _X_BIAS - 63
    return neg, Fraction(sig * (1 << e)) if e >= 0 else Fraction(sig, 1 << -e)


def _x_encode(neg: bool, x: Fraction | float) -> int:
    """The pattern of ``±x`` rounded to the format (NaN the canonical one)."""
    if x != x:
        return QUIET_NAN[LONG_DOUBLE]
    if x == math.inf:
        return (neg << 79) | (_X_EMAX << 64) | (1 << 63)
    return round_rational(-x if neg else x, LONG_DOUBLE) if x else neg << 79


def _x_of_float(v: int, bits: int) -> tuple[bool, Fraction | float]:
    if bits == LONG_DOUBLE:
        return _x_decode(v)
    x = decode(v, bits)
    neg = math.copysign(1.0, x) < 0
    if x != x or x in (math.inf, -math.inf):
        return neg, abs(x)
    return neg, Fraction(abs(x))


def _x_arith(op: str, a: int, b: int) -> int:
    (na, x), (nb, y) = _x_decode(a), _x_decode(b)
    if x != x or y != y:
        return QUIET_NAN[LONG_DOUBLE]
    if op == "-":
        op, nb = "+", not nb
    if op == "+":
        if x == math.inf or y == math.inf:
            if x == y == math.inf and na != nb:
                return QUIET_NAN[LONG_DOUBLE]
            return _x_encode(na if x == math.inf else nb, math.inf)
        q = (-x if na else x) + (-y if nb else y)
        if q == 0:  # an exact zero: -0 only as the sum of two -0s (round to nearest)
            return _x_encode(na and nb and x == 0, 0)
        return _x_encode(q < 0, abs(q))
    neg = na != nb
    if op == "*":
        if x == math.inf or y == math.inf:
            return QUIET_NAN[LONG_DOUBLE] if x == 0 or y == 0 else _x_encode(neg, math.inf)
        return _x_encode(neg, x * y)
    if op == "/":
        if x == math.inf:
            return QUIET_NAN[LONG_DOUBLE] if y == math.inf else _x_encode(neg, math.inf)
        if y == math.inf:
            return _x_encode(neg, 0)
        if y == 0:
            return QUIET_NAN[LONG_DOUBLE] if x == 0 else _x_encode(neg, math.inf)
        return _x_encode(neg, x / y)
    raise ValueError(f"floating operator {op}")


def _x_minmax(op: str, a: int, b: int) -> int:
    """glibc's x86-64 ``fminl``/``fmaxl``: a NaN operand (an invalid encoding
    is one) whose quiet bit (62) is clear gives a NaN, a quiet one the other
    operand; of equal operands ``fminl`` gives the first, ``fmaxl`` the second
    (its x87 code: ``fucomi``, then ``fcmovnb``/``fcmovb``)."""
    (na, x), (nb, y) = _x_decode(a), _x_decode(b)
    if x != x or y != y:
        if any(z != z and not w >> 62 & 1 for z, w in ((x, a), (y, b))):
            return QUIET_NAN[LONG_DOUBLE]
        return _x_encode(nb, y) if x != x else a
    sx, sy = (-x if na else x), (-y if nb else y)
    if op == "fmin":
        return a if sx <= sy else b
    if op == "fmax":
        return a if sx > sy else b
    raise ValueError(f"floating function {op}")


def _x_compare(op: str, a: int, b: int) -> bool:
    (na, x), (nb, y) = _x_decode(a), _x_decode(b)
    if x != x or y != y:
        return op == "!="
    sx = -x if na else x
    sy = -y if nb else y
    return {"==": sx == sy, "!=": sx != sy, "<": sx < sy, "<=": sx <= sy, ">": sx > sy, ">=": sx >= sy}[op]


def _x_sqrt(x: Fraction) -> Fraction:
    """A rational that rounds as ``sqrt(x)`` does: the root itself when it is
    exact, else a value strictly between two neighbours far finer than the
    significand (a root of a long double is never a rounding tie)."""
    s = 80 + max(0, (x.denominator.bit_length() - x.numerator.bit_length()) // 2 + 1)
    scaled = x * (1 << (2 * s))
    n = scaled.numerator // scaled.denominator
    t = math.isqrt(n)
    if t * t == scaled:
        return Fraction(t, 1 << s)
    return Fraction(2 * t + 1, 1 << (s + 1))


def _x_unary(op: str, a: int) -> int:
    a &= (1 << 80) - 1
    sign = SIGN[LONG_DOUBLE]
    if op == "-":
        return a ^ sign
    if op == "fabs":
        return a & ~sign
    if op == "signbit":
        return int(bool(a & sign))
    neg, x = _x_decode(a)
    if op == "isnan":
        return int(x != x)
    if op == "isinf":
        return int(x == math.inf)
    if op == "isfinite":
        return int(x == x and x != math.inf)
    if op == "round":
        return _x_roundl(a)
    if x != x:
        return QUIET_NAN[LONG_DOUBLE]
    if op == "sqrt":
        if neg and x != 0:
            return QUIET_NAN[LONG_DOUBLE]
        return _x_encode(neg, x if x in (0, math.inf) else _x_sqrt(x))
    if x == math.inf or x == 0:
        return _x_encode(neg, x)
    s = -x if neg else x
    if op == "floor":
        r = math.floor(s)
    elif op == "ceil":
        r = math.ceil(s)
    elif op == "trunc":
        r = math.trunc(s)
    else:
        raise ValueError(f"floating function {op}")
    return _x_encode(neg, abs(Fraction(r)))


def _x_roundl(a: int) -> int:
    """glibc's ``roundl`` (ldbl-96, integer code on the pattern's fields, not
    the x87's): on a canonical number the nearest integer, halves away from
    zero; on an unnormal what its bit operations give (the pattern itself when
    the bits below the integer part are clear, else those bits cleared after
    adding half, the integer bit set when the exponent is below 31 or the sum
    carried); a NaN, infinity or pseudo one as ``x + x``."""
    sign, exp, sig = a & SIGN[LONG_DOUBLE], a >> 64 & _X_EMAX, a & _X_SIG
    j0 = exp - _X_BIAS
    if exp == _X_EMAX:
        return _x_arith("+", a, a)
    if j0 < 0:  # |x| < 1: 0, or 1 from exponent -1 on
        return sign | ((_X_BIAS << 64 | 1 << 63) if j0 == -1 else 0)
    if j0 > 62:  # an integer already
        return a
    below = (1 << (63 - j0)) - 1
    if not sig & below:
        return a
    total = sig + (1 << (62 - j0))
    carry = total >> 64
    sig = total & _X_SIG & ~below
    if j0 < 31 or carry:
        sig |= 1 << 63
    return sign | (exp + carry) << 64 | sig


def _x_text(v: int) -> str:
    """The shortest decimal that reads back as the same long double, with ``L``."""
    neg, x = _x_decode(v)
    if x != x:
        return "nan"
    if x == math.inf:
        return "-inf" if neg else "inf"
    if x == 0:
        return "-0.0L" if neg else "0.0L"
    want = _x_encode(False, x)
    for p in range(1, 22):  # 21 digits always read back as the same 64-bit significand
        n, k = decimal_digits(x, p)
        if round_rational(n * Fraction(10) ** k, LONG_DOUBLE) == want:
            break
    ds = str(n).rstrip("0")
    k += len(str(n)) - len(ds)
    point = len(ds) + k  # digits before the decimal point
    if -4 < point <= 16:  # positional, as Python's repr writes a float
        if point <= 0:
            s = "0." + "0" * -point + ds
        elif point >= len(ds):
            s = ds + "0" * (point - len(ds)) + ".0"
        else:
            s = ds[:point] + "." + ds[point:]
    else:
        s = ds[0] + ("." + ds[1:] if len(ds) > 1 else "") + f"e{point - 1:+03d}"
    return ("-" if neg else "") + s + "L"


def decimal_digits(x: Fraction, p: int) -> tuple[int, int]:
    """The positive rational ``x`` rounded to ``p`` significant decimal digits,
    ties to even: ``(n, k)`` with ``x ~ n * 10**k`` and ``n`` of ``p`` digits
    (``p + 1`` when rounding carried, as ``9.99 -> 10.0``)."""
    k = (x.numerator.bit_length() - x.denominator.bit_length()) * 30103 // 100000 - p + 1  # log10(2) below
    while x >= Fraction(10) ** (k + p):
        k += 1
    while x < Fraction(10) ** (k + p - 1):
        k -= 1
    return round(x / Fraction(10) ** k), k



def long_double_value(v: int) -> tuple[bool, Fraction | float]:
    """The sign and magnitude a long double pattern denotes: a Fraction,
    ``math.inf`` or ``math.nan`` (an encoding the x87 rejects too)."""
    return _x_decode(v & ((1 << 80) - 1))

__all__ = [
    "CLASSIFY", "FORMATS", "LONG_DOUBLE", "MATH_BINARY", "MATH_UNARY", "QUIET_NAN", "SIGN", "arith", "compare",
    "convert", "decimal_digits", "decode", "encode", "from_int", "long_double_value", "nonzero", "round_rational",
    "signalling", "text", "to_int", "unary",
]
