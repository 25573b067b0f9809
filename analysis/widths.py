"""Widths and signedness of the IR's C types, for the compiled core.

The same functions as :mod:`distaff.analysis.ir`'s of these names
(tests/test_core.py checks that they agree on every kind of type): the
engine asks them at nearly every instruction, and from compiled code a call
into an interpreted module costs more than their work.
"""

from __future__ import annotations

from typing import Final

from distaff.analysis.ir import type_size as _sized
from distaff.analysis.irclasses import INT_TYPE, PTR_TYPE, VOID_TYPE


# 2**bits and 2**bits - 1 for the widths C has, made once: a 64-bit one is a
# Python long, which costs an allocation every time it is computed
_POWERS: Final = tuple(1 << b for b in range(129))
_MASKS: Final = tuple((1 << b) - 1 for b in range(129))


def mask(bits: int) -> int:
    return _MASKS[bits] if 0 <= bits <= 128 else (1 << bits) - 1


def to_signed(v: int, bits: int) -> int:
    """The two's complement reading of the bit pattern ``v`` (in
    ``range(0, 2**bits)``)."""
    if not v >> (bits - 1):
        return v
    return v - (_POWERS[bits] if 0 <= bits <= 128 else 1 << bits)


def is_scalar(t) -> bool:
    c = type(t)
    return c is INT_TYPE or c is PTR_TYPE


def is_signed(t) -> bool:
    return type(t) is INT_TYPE and t.signed


def bits_of(t, ptr_bits: int) -> int:
    """Bit width of a value of type ``t``; ``ptr_bits`` for a pointer-like
    non-scalar (see :func:`distaff.analysis.ir.bits_of`)."""
    c = type(t)
    return t.bits if c is INT_TYPE or c is PTR_TYPE else ptr_bits


def type_size(t) -> int:
    """Size in bytes as ``sizeof`` gives it (0 for void and incomplete types)."""
    c = type(t)
    if c is INT_TYPE or c is PTR_TYPE:
        return t.bits // 8
    if c is VOID_TYPE:
        return 0
    return _sized(t)
