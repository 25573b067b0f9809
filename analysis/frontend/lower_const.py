"""Building pure IR expressions with constant folding.

The lowering builds every :data:`ir.Expr` through these constructors, so that
constant subexpressions (``sizeof``, enum constants, ``-1``, field offsets)
reach the IR as one :class:`ir.Const`, and array sizes, case labels and static
initialisers can be read off as numbers. Folding follows C's semantics on the
operation's type (wrap-around, truncating division; IEEE 754 arithmetic on
floating constants, which are bit patterns as in the IR); it leaves anything
undefined (division by zero, over-wide shifts, a floating value out of an
integer type's range) unfolded for the engine to report.
"""

from __future__ import annotations

from distaff.analysis import floats
from distaff.analysis.ir import (
    Addr,
    Binary,
    Cast,
    Const,
    CType,
    Expr,
    FloatType,
    IntType,
    PtrAdd,
    PtrType,
    Unary,
)
from distaff.analysis.frontend.ctypes import INT, normalise

_COMPARE = {"==", "!=", "<", "<=", ">", ">="}


def const(value: int, t: CType) -> Const:
    return Const(normalise(value, t), t)


def cast(e: Expr, t: CType) -> Expr:
    """``e`` converted to ``t`` (no node when the type is already ``t``)."""
    if e.type is t or e.type == t:
        return e
    if isinstance(e, Const) and (isinstance(e.type, FloatType) or isinstance(t, FloatType)):
        folded = _convert_float(e, t)
        if folded is not None:
            return folded
    elif isinstance(e, Const) and isinstance(t, (IntType, PtrType)):
        return const(e.value, t)
    if isinstance(t, PtrType):
        if isinstance(e, Addr):
            return Addr(e.name, e.kind, t)
        if isinstance(e, PtrAdd):
            return PtrAdd(e.ptr, e.offset, t)
        if isinstance(e, Cast) and isinstance(e.arg.type, PtrType):
            return cast(e.arg, t)
    return Cast(e, t)


def _convert_float(e: Const, t: CType) -> Const | None:
    """The constant ``e`` converted to ``t`` when one of them is floating
    (None where C leaves the result undefined, or for a pointer)."""
    frm = e.type
    if isinstance(t, FloatType):
        if isinstance(frm, FloatType):
            return Const(floats.convert(e.value, frm.bits, t.bits), t)
        if isinstance(frm, IntType):
            return Const(floats.from_int(e.value, t.bits), t)
        return None
    if isinstance(t, IntType) and isinstance(frm, FloatType):
        if t.is_bool:
            return Const(int(floats.nonzero(e.value, frm.bits)), t)
        v = floats.to_int(e.value, frm.bits)
        if v is None or normalise(v, t) != v:
            return None
        return Const(v, t)
    return None


def unary(op: str, e: Expr, t: CType) -> Expr:
    if isinstance(e, Const) and isinstance(e.type, FloatType):
        if op in floats.CLASSIFY or op == "!":
            on = floats.unary(op, e.value, e.type.bits) if op != "!" else int(not floats.nonzero(e.value, e.type.bits))
            return Const(on, t)
        if op in floats.MATH_UNARY or op == "-":
            return Const(floats.unary(op, e.value, e.type.bits), t)
        if op == "+":
            return e
    elif isinstance(e, Const):
        if op == "-":
            return const(-e.value, t)
        if op == "~":
            return const(~e.value, t)
        if op == "!":
            return Const(0 if e.value else 1, t)
    return Unary(op, e, t)


def _fold(op: str, a: int, b: int, operand: CType, t: CType) -> int | None:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op in ("/", "%"):
        if b == 0:
            return None
        q = abs(a) // abs(b)
        if (a < 0) != (b < 0):
            q = -q
        return q if op == "/" else a - q * b
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    if op in ("<<", ">>"):
        bits = t.bits if isinstance(t, IntType) else 64
        if b < 0 or b >= bits or (op == "<<" and a < 0):
            return None
        return a << b if op == "<<" else a >> b
    if op == "==":
        return int(a == b)
    if op == "!=":
        return int(a != b)
    if op == "<":
        return int(a < b)
    if op == "<=":
        return int(a <= b)
    if op == ">":
        return int(a > b)
    if op == ">=":
        return int(a >= b)
    if op == "&&":
        return int(bool(a) and bool(b))
    if op == "||":
        return int(bool(a) or bool(b))
    return None


def binary(op: str, left: Expr, right: Expr, t: CType) -> Expr:
    """``left op right`` of result type ``t`` (operands already converted)."""
    if isinstance(left, Const) and isinstance(right, Const) and isinstance(left.type, FloatType):
        bits = left.type.bits
        if op in _COMPARE:
            return Const(int(floats.compare(op, left.value, right.value, bits)), t)
        if op in ("+", "-", "*", "/") or op in floats.MATH_BINARY:
            return Const(floats.arith(op, left.value, right.value, bits), t)
        return Binary(op, left, right, t)
    if isinstance(left, Const) and isinstance(right, Const):
        v = _fold(op, left.value, right.value, left.type, t)
        if v is not None and (op in _COMPARE or op in ("&&", "||") or isinstance(t, IntType)):
            return const(v, t)
    if op in ("&&", "||") and isinstance(left, Const):
        # a constant left side decides or disappears; the right side is pure here
        if (op == "&&") == bool(left.value):
            return truth(right)
        return Const(1 if op == "||" else 0, INT)
    return Binary(op, left, right, t)


def truth(e: Expr) -> Expr:
    """``e != 0`` as an int 0/1 (``e`` itself if it already is one)."""
    if isinstance(e, Binary) and e.type == INT and (e.op in _COMPARE or e.op in ("&&", "||")):
        return e
    if isinstance(e, Unary) and e.op == "!":
        return e
    if isinstance(e, Const):
        on = floats.nonzero(e.value, e.type.bits) if isinstance(e.type, FloatType) else e.value
        return Const(1 if on else 0, INT)
    return Binary("!=", e, Const(0, e.type), INT)


def ptr_add(p: Expr, offset: Expr, t: CType) -> Expr:
    """``p`` plus ``offset`` bytes, as pointer type ``t``."""
    if isinstance(offset, Const) and offset.value == 0:
        return cast(p, t)
    if isinstance(p, PtrAdd) and isinstance(p.offset, Const) and isinstance(offset, Const):
        return ptr_add(p.ptr, const(p.offset.value + offset.value, offset.type), t)
    return PtrAdd(p, offset, t)


def null_based(e: Expr) -> Expr:
    """``e`` as a constant when it converts to an integer an address counted
    from a null pointer (``(size_t)&((T *)0)->m``, offsetof written out, which
    C compilers fold), else ``e`` itself."""
    if not (isinstance(e, Cast) and isinstance(e.type, IntType)):
        return e
    p, offset = e.arg, 0
    while isinstance(p, (PtrAdd, Cast)) and isinstance(p.type, PtrType):
        if isinstance(p, PtrAdd):
            if not isinstance(p.offset, Const):
                return e
            offset += p.offset.value
            p = p.ptr
        else:
            p = p.arg
    if isinstance(p, Const) and isinstance(p.type, PtrType):
        return const(p.value + offset, e.type)
    return e


def const_value(e: Expr) -> int | None:
    """The value of an integer or pointer constant (None for anything else)."""
    return e.value if isinstance(e, Const) and not isinstance(e.type, FloatType) else None


def is_static_address(e: Expr) -> bool:
    """Whether ``e`` is a link-time constant: Const, Addr, or PtrAdd of them."""
    if isinstance(e, (Const, Addr)):
        return True
    if isinstance(e, PtrAdd):
        return is_static_address(e.ptr) and isinstance(e.offset, Const)
    if isinstance(e, Cast):
        return is_static_address(e.arg)
    return False
