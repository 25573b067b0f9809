"""Abstract values of the context analyses: IR expressions over symbols.

A *term* is what a dataflow analysis knows about a value at a program
point: an :mod:`distaff.analysis.ir` expression (:class:`~distaff.analysis.ir.Const`,
:class:`~distaff.analysis.ir.Addr`, :class:`~distaff.analysis.ir.Binary`, ...) whose leaves
are constants, addresses of globals and functions, and two leaves of our
own:

* :class:`Sym` -- a symbolic constant of the initial state: a value the
  analysis could not pin down (the value of a register where paths with
  different definitions join, a load of shared memory, a call's result).
  Its ``origin`` is the instruction that introduced it; ``per_thread``
  symbols stand for a different value in each thread instance (two
  instances of one routine have different loop counters), the others are
  shared by all threads (values computed by ``main`` before it created
  them).
* :class:`ObjRef` -- the address of a heap block the analysis *materialised*:
  one allocated exactly once before the context (e.g. by ``main`` before
  its first ``pthread_create``), which the initial state contains as an
  object of its own.

Terms are frozen, hashable and compared structurally: two terms that are
equal denote the same value in every execution (that is what a
must-reaching definition promises), which the lockset and barrier analyses
use to decide "must be the same lock". :func:`fold` keeps terms in a normal
form (constants folded, pointer offsets summed, pointer casts dropped) so
that equal values built in different ways usually compare equal.

:func:`evaluate` turns a term into a value of the engine, given the value of
each leaf, with the engine's evaluator (:mod:`distaff.analysis.evaluate`)
but without its run-time checks (overflow wraps), since the values it builds
were computed by the program before the context, where those checks belong
to a whole-program run.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

from distaff.analysis import ir
from distaff.analysis.evaluate import NO_RESULT, Evaluator
from distaff.analysis.ir import (
    Addr, Binary, Cast, Const, CType, Ite, PtrAdd, PtrDiff, PtrType, Unary, IntType, mask, to_signed, value_bits,
)
from distaff.analysis.irtext import format_expr
from distaff.analysis.symex.values import Val, Values


@dataclass(frozen=True, slots=True)
class Sym:
    """A symbolic constant (see the module docstring). ``name`` is unique
    per meaning; ``origin`` is ``(function, pc)`` of the instruction that
    made it, or None for values fixed before any code ran; ``read`` names
    the global a load read it from (the load at ``origin``), if one did."""

    name: str
    type: CType
    origin: tuple[str, int] | None = None
    per_thread: bool = True
    read: str = ""

    def __post_init__(self):
        object.__setattr__(self, "type", canon_type(self.type))


@dataclass(frozen=True, slots=True)
class ObjRef:
    """The address of the materialised heap block ``key`` (its start)."""

    key: str
    type: CType

    def __post_init__(self):
        object.__setattr__(self, "type", canon_type(self.type))


def canon_type(t: CType) -> CType:
    """Pointer types in terms are all ``void *`` of their width: an address
    is the same value whatever it is declared to point to."""
    if isinstance(t, PtrType) and not isinstance(t.pointee, ir.VoidType):
        return PtrType(ir.VoidType(), t.bits)
    return t


def canon(t):
    """``t`` with its own type made canonical (see :func:`canon_type`)."""
    ty = getattr(t, "type", None)
    if not isinstance(ty, PtrType) or isinstance(ty.pointee, ir.VoidType):
        return t
    c = canon_type(ty)
    if isinstance(t, Addr):
        return Addr(t.name, t.kind, c)
    if isinstance(t, Const):
        return Const(t.value, c)
    if isinstance(t, PtrAdd):
        return PtrAdd(t.ptr, t.offset, c)
    if isinstance(t, Ite):
        return Ite(t.cond, t.then, t.other, c)
    if isinstance(t, Cast):
        return Cast(t.arg, c)
    if isinstance(t, Unary):
        return Unary(t.op, t.arg, c)
    if isinstance(t, Binary):
        return Binary(t.op, t.left, t.right, c)
    if isinstance(t, ir.Reg):
        return ir.Reg(t.name, c)
    return t


def leaves(t) -> list:
    """Every leaf (Const, Addr, Sym, ObjRef, Reg) of a term, with repeats."""
    out, stack = [], [t]
    while stack:
        x = stack.pop()
        if isinstance(x, (Binary, PtrDiff)):
            stack.extend((x.left, x.right))
        elif isinstance(x, (Unary, Cast)):
            stack.append(x.arg)
        elif isinstance(x, PtrAdd):
            stack.extend((x.ptr, x.offset))
        elif isinstance(x, Ite):
            stack.extend((x.cond, x.then, x.other))
        else:
            out.append(x)
    return out


def symbols(t) -> frozenset[Sym]:
    return frozenset(x for x in leaves(t) if isinstance(x, Sym))


def is_constant(t) -> bool:
    """Whether the term has no symbol: the same value in every execution."""
    return not any(isinstance(x, Sym) for x in leaves(t))


def substitute(t, sub: Callable[[object], object | None]):
    """``t`` with each leaf ``x`` replaced by ``sub(x)`` (kept when None), folded."""
    if isinstance(t, Binary):
        return fold(Binary(t.op, substitute(t.left, sub), substitute(t.right, sub), t.type))
    if isinstance(t, PtrDiff):
        return fold(PtrDiff(substitute(t.left, sub), substitute(t.right, sub), t.type))
    if isinstance(t, Unary):
        return fold(Unary(t.op, substitute(t.arg, sub), t.type))
    if isinstance(t, Cast):
        return fold(Cast(substitute(t.arg, sub), t.type))
    if isinstance(t, PtrAdd):
        return fold(PtrAdd(substitute(t.ptr, sub), substitute(t.offset, sub), t.type))
    if isinstance(t, Ite):
        return fold(Ite(substitute(t.cond, sub), substitute(t.then, sub), substitute(t.other, sub), t.type))
    r = sub(t)
    return canon(t if r is None else r)


# --------------------------------------------------------------------------
# normal form


def _signed(t: CType) -> bool:
    return isinstance(t, IntType) and t.signed


def _as_signed(v: int, bits: int) -> int:
    return to_signed(v & mask(bits), bits)


def canonical_value(v: int, t: CType) -> int:
    """A concrete value in the canonical range of its type (signed types signed)."""
    b = value_bits(t)
    if isinstance(t, IntType) and t.is_bool:
        return 1 if v else 0
    return _as_signed(v, b) if _signed(t) else v & mask(b)


def fold(t):
    """One step of normalisation at the root of ``t`` (children are normal)."""
    t = canon(t)
    if isinstance(t, Cast):
        a = t.arg
        if isinstance(t.type, PtrType) and isinstance(a.type, PtrType):
            return _retype(a, t.type)
        if isinstance(a, Const) and isinstance(t.type, (IntType, PtrType)):
            if isinstance(t.type, IntType) and t.type.is_bool:
                return Const(1 if a.value else 0, t.type)
            return Const(canonical_value(a.value, t.type), t.type)
        if a.type == t.type:
            return a
        return t
    if isinstance(t, PtrAdd):
        off = t.offset
        if isinstance(off, Const) and off.value == 0:
            return _retype(t.ptr, t.type)
        if isinstance(t.ptr, PtrAdd) and isinstance(off, Const) and isinstance(t.ptr.offset, Const):
            total = Const(_as_signed(t.ptr.offset.value + off.value, 64), IntType(64, True))
            return fold(PtrAdd(t.ptr.ptr, total, t.type))
        if isinstance(off, Const) and not (isinstance(off.type, IntType) and off.type.bits == 64 and off.type.signed):
            return PtrAdd(t.ptr, Const(_as_signed(off.value, value_bits(off.type)) if _signed(off.type)
                                       else off.value, IntType(64, True)), t.type)
        return t
    if (isinstance(t, Unary) and isinstance(t.arg, Const)) or (
            isinstance(t, Binary) and isinstance(t.left, Const) and isinstance(t.right, Const)):
        v = _folded(t)
        return t if v is None else Const(v, t.type)
    if isinstance(t, Ite) and isinstance(t.cond, Const):
        return t.then if t.cond.value else t.other
    if isinstance(t, Binary) and t.op in _REFLEXIVE and t.left == t.right and \
            isinstance(t.left.type, (IntType, PtrType)):
        return Const(_REFLEXIVE[t.op], t.type)  # a term has one value: x == x whatever x is
    return t


_REFLEXIVE = {"==": 1, "<=": 1, ">=": 1, "!=": 0, "<": 0, ">": 0}


def _retype(t, ty: CType):
    """The same pointer value with pointer type ``ty`` (casts between pointer
    types change no bits)."""
    if getattr(t, "type", None) == ty:
        return t
    if isinstance(t, Addr):
        return Addr(t.name, t.kind, ty)
    if isinstance(t, ObjRef):
        return ObjRef(t.key, ty)
    if isinstance(t, PtrAdd):
        return PtrAdd(t.ptr, t.offset, ty)
    if isinstance(t, Sym):
        return t  # a symbol keeps its own type: its name identifies it
    if isinstance(t, Const):
        return Const(t.value, ty)
    return Cast(t, ty)


class _NoResult(Exception):
    pass


class _Constants(Evaluator):
    """The evaluator over constants, for folding: C's wrap-around, and no
    folding of an operation C gives no result for."""

    __slots__ = ()

    def check(self, message: str, ok) -> None:
        if ok is False and message in NO_RESULT:
            raise _NoResult

    def unsupported(self, what: str) -> Exception:
        return _NoResult(what)


@functools.cache
def _constants() -> _Constants:
    """Made on the first fold, not at import: its Values owns a z3 context
    (never used on Python integers) that costs start-up time."""
    return _Constants(Values(), None, 64)


def _folded(t) -> int | None:
    """The value of ``t`` (a Binary or Unary of constants) in the canonical
    range of its type, or None when C gives it none."""
    try:
        return canonical_value(_constants().value(t), t.type)
    except _NoResult:
        return None


# --------------------------------------------------------------------------
# addresses


def address_parts(t) -> tuple[object, int] | None:
    """``(base, offset)`` when ``t`` is a known object's address plus a
    constant: ``base`` an :class:`~distaff.analysis.ir.Addr` or :class:`ObjRef`."""
    off = 0
    while isinstance(t, PtrAdd):
        if not isinstance(t.offset, Const):
            return None
        off += _as_signed(t.offset.value, value_bits(t.offset.type)) if _signed(t.offset.type) else t.offset.value
        t = t.ptr
    if isinstance(t, Cast) and isinstance(t.type, PtrType):
        return address_parts(t.arg)
    if isinstance(t, (Addr, ObjRef)):
        return t, off
    return None


def may_equal(a, b) -> bool:
    """False only when the two address terms are provably different: both
    known objects' addresses plus constants, differing."""
    pa, pb = address_parts(a), address_parts(b)
    if pa is None or pb is None:
        return True
    (ba, oa), (bb, ob) = pa, pb
    same_base = (ba.name, ba.kind) == (bb.name, bb.kind) if isinstance(ba, Addr) and isinstance(bb, Addr) \
        else (isinstance(ba, ObjRef) and isinstance(bb, ObjRef) and ba.key == bb.key)
    return same_base and oa == ob


# --------------------------------------------------------------------------
# evaluation into the engine's values


class _Leaves(Evaluator):
    """The evaluator over terms: addresses, symbols and heap references from
    ``leaf``; no run-time checks (see the module docstring)."""

    __slots__ = ("leaf_of",)

    def __init__(self, V: Values, L, ptr_bits: int, leaf: Callable[[object], Val]):
        Evaluator.__init__(self, V, L, ptr_bits)
        self.leaf_of = leaf

    def addr(self, e: Addr) -> Val:
        return self.leaf_of(e)

    def leaf(self, e) -> Val:
        if isinstance(e, (Sym, ObjRef)):
            return self.leaf_of(e)
        raise ValueError(f"not a term: {type(e).__name__}")


def evaluate(t, V: Values, L, ptr_bits: int, leaf: Callable[[object], Val]) -> Val:
    """The value of term ``t``; ``leaf(x)`` gives the value of each Addr,
    Sym and ObjRef leaf. Arithmetic wraps (see the module docstring)."""
    return _Leaves(V, L, ptr_bits, leaf).value(t)


def condition(t, V: Values, L, ptr_bits: int, leaf) -> object:
    """``t != 0`` as a z3 condition (or a Python bool)."""
    return _Leaves(V, L, ptr_bits, leaf).cond(t)


def show(t) -> str:
    """A term as text, in the IR dump's exact notation
    (:func:`distaff.analysis.irtext.format_expr`) with symbols by name and
    heap objects as ``&key``: equal texts are equal terms, so barrier
    matching compares trip counts by their text."""
    return format_expr(t, leaf=_term_leaf)


def _term_leaf(t) -> str | None:
    if isinstance(t, Sym):
        return t.name
    if isinstance(t, ObjRef):
        return f"&{t.key}"
    return None
