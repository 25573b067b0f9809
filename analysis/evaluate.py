"""The C meaning of IR expressions, stated once, over any value domain.

:class:`Evaluator` gives every pure expression of :mod:`distaff.analysis.ir` its
value: C's widths and signedness (the type each node carries, pointers as wide
as the data model says), the usual conversions, wrapping arithmetic, and the
run-time checks C leaves undefined (signed overflow of ``+ - *``, of negation
and of division; division and modulo by zero; shift counts outside the width).
Comparisons and ``&& || !`` are conditions (:meth:`Evaluator.cond`), turned
into 0/1 only where a value is needed.

What varies between its users is said by a subclass:

* the *value domain* ``V`` (:class:`distaff.analysis.symex.values.Values`:
  Python integers while values are concrete, z3 terms once a symbol enters)
  and the pointer layout ``L``, given to the constructor;
* where leaves come from: :meth:`reg` (the engine: the thread's registers;
  weakest preconditions: placeholders), :meth:`addr` (an object's address),
  :meth:`leaf` (any other node: the context's symbols and object references);
* what a check does: :meth:`check` receives the condition under which the
  operation is defined (the engine forks on it, weakest preconditions collect
  it, the context's terms, which describe values C has already computed,
  need none);
* what an expression outside the evaluator's reach raises (:meth:`unsupported`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from distaff.analysis.ir import (
    Addr, Binary, Cast, Const, FloatType, IntType, Ite, PtrAdd, PtrDiff, PtrType, Reg, Unary, bits_of, is_signed,
    mask,
)

if TYPE_CHECKING:  # (typed, the compiled evaluator calls the domain's operations directly)
    from distaff.analysis.symex.memory import PointerLayout
    from distaff.analysis.symex.values import Values

COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
LOGIC = frozenset({"&&", "||"})

# The run-time errors by the message their check names: after a signed
# overflow the machines we model hold the wrapped bits; the others leave no
# result at all.
OVERFLOWS = frozenset({
    "signed integer overflow in addition", "signed integer overflow in subtraction",
    "signed integer overflow in multiplication", "signed integer overflow in division",
    "signed integer overflow in negation",
})
FLOAT_TO_INT = "floating-point value out of the integer type's range in a conversion"
NO_RESULT = frozenset({"division by zero", "modulo by zero", "shift count out of range", FLOAT_TO_INT})
FLOAT_CLASSIFY = frozenset({"isnan", "isinf", "isfinite", "signbit"})


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed outside the compiled core
class Evaluator:
    """The value of IR expressions over the value domain ``V`` (see the module
    docstring); ``L`` is the pointer layout, ``ptr_bits`` the data model's
    pointer width."""

    __slots__ = ("values", "layout", "ptr_bits")

    def __init__(self, V: Values, L: PointerLayout | None, ptr_bits: int):
        self.values = V
        self.layout = L
        self.ptr_bits = ptr_bits

    # -- what a subclass says ----------------------------------------------

    def reg(self, e: Reg):
        raise self.unsupported(f"register {e.name}")

    def addr(self, e: Addr):
        raise self.unsupported(f"address of {e.name}")

    def leaf(self, e: Any) -> Any:
        """The value of a node that is not an IR expression (a context's symbol)."""
        raise self.unsupported(f"expression {type(e).__name__}")

    def check(self, message: str, ok) -> None:
        """The operation is defined only when ``ok`` holds; ``message`` names the error."""

    def unsupported(self, what: str) -> Exception:
        return ValueError(what)

    # -- values ------------------------------------------------------------

    def value(self, e: Any) -> Any:
        V, pb = self.values, self.ptr_bits
        if isinstance(e, Reg):
            return self.reg(e)
        if isinstance(e, Const):
            ty = e.type
            return e.value & mask(ty.bits) if isinstance(ty, (IntType, PtrType, FloatType)) else e.value
        if isinstance(e, Binary):
            if e.op in COMPARISONS or e.op in LOGIC:
                return V.of_cond(self.cond(e), bits_of(e.type, pb))
            return self.arith(e)
        if isinstance(e, Addr):
            return self.addr(e)
        if isinstance(e, Cast):
            to = e.type
            if isinstance(to, IntType) and to.is_bool:
                return V.of_cond(self.cond(e.arg), to.bits)
            v = self.value(e.arg)
            frm = e.arg.type
            if isinstance(to, FloatType):
                if isinstance(frm, FloatType):
                    return V.fconvert(v, frm.bits, to.bits)
                return V.from_int(v, bits_of(frm, pb), is_signed(frm), to.bits)
            if isinstance(frm, FloatType):
                r, ok = V.to_int(v, frm.bits, bits_of(to, pb), is_signed(to))
                self.check(FLOAT_TO_INT, ok)
                return r
            return V.convert(v, bits_of(frm, pb), bits_of(to, pb), is_signed(frm))
        if isinstance(e, PtrAdd):
            p = self.value(e.ptr)
            o = self.value(e.offset)
            return self.layout.add(p, V.convert(o, bits_of(e.offset.type, pb), pb, is_signed(e.offset.type)), V)
        if isinstance(e, PtrDiff):
            d = V.sub(self.value(e.left), self.value(e.right), pb)
            return V.convert(d, pb, bits_of(e.type, pb), True)
        if isinstance(e, Unary):
            b = bits_of(e.type, pb)
            if e.op == "!" or e.op in FLOAT_CLASSIFY:
                return V.of_cond(self.cond(e), b)
            a = self.value(e.arg)
            if isinstance(e.type, FloatType):
                return V.funary(e.op, a, b)
            if e.op == "-":
                if is_signed(e.type):
                    self.check("signed integer overflow in negation", V.ne(a, V.min_signed(b), b))
                return V.neg(a, b)
            if e.op == "~":
                return V.bnot(a, b)
            if e.op == "+":
                return a
            raise self.unsupported(f"unary operator {e.op}")
        if isinstance(e, Ite):
            c = self.cond(e.cond)
            if isinstance(c, bool):
                return self.value(e.then if c else e.other)
            return V.ite(c, self.value(e.then), self.value(e.other), bits_of(e.type, pb))
        return self.leaf(e)

    def cond(self, e: Any) -> Any:
        """``e != 0`` as a condition of the domain (a Python bool when known)."""
        V = self.values
        if isinstance(e, Binary):
            op = e.op
            if op in COMPARISONS:
                a = self.value(e.left)
                b = self.value(e.right)
                ty = e.left.type
                if isinstance(ty, FloatType):
                    return V.fcompare(op, a, b, ty.bits)
                w = bits_of(ty, self.ptr_bits)
                s = is_signed(ty)
                if op == "==":
                    return V.eq(a, b, w)
                if op == "!=":
                    return V.ne(a, b, w)
                if op == "<":
                    return V.lt(a, b, w, s)
                if op == "<=":
                    return V.le(a, b, w, s)
                if op == ">":
                    return V.lt(b, a, w, s)
                return V.le(b, a, w, s)
            if op == "&&":
                return V.and_(self.cond(e.left), self.cond(e.right))
            if op == "||":
                return V.or_(self.cond(e.left), self.cond(e.right))
        elif isinstance(e, Unary) and e.op == "!":
            return V.not_(self.cond(e.arg))
        elif isinstance(e, Unary) and e.op in FLOAT_CLASSIFY:
            return V.fclassify(e.op, self.value(e.arg), bits_of(e.arg.type, self.ptr_bits))
        elif isinstance(e, Const) and not isinstance(e.type, FloatType):
            return e.value != 0
        elif isinstance(e, Cast) and isinstance(e.type, IntType) and e.type.is_bool:
            return self.cond(e.arg)
        if isinstance(e.type, FloatType):
            return V.fnonzero(self.value(e), e.type.bits)
        return V.cond_of(self.value(e), bits_of(e.type, self.ptr_bits))

    def arith(self, e: Binary):
        """An arithmetic or bitwise operator, with C's checks."""
        V = self.values
        op = e.op
        b = bits_of(e.type, self.ptr_bits)
        s = is_signed(e.type)
        x = self.value(e.left)
        y = self.value(e.right)
        if isinstance(e.type, FloatType):
            return V.farith(op, x, y, b)
        if op == "+":
            if s:
                self.check("signed integer overflow in addition", V.not_(V.add_overflows(x, y, b)))
            return V.add(x, y, b)
        if op == "-":
            if s:
                self.check("signed integer overflow in subtraction", V.not_(V.sub_overflows(x, y, b)))
            return V.sub(x, y, b)
        if op == "*":
            if s:
                self.check("signed integer overflow in multiplication", V.not_(V.mul_overflows(x, y, b)))
            return V.mul(x, y, b)
        if op in ("/", "%"):
            self.check("division by zero" if op == "/" else "modulo by zero", V.ne(y, 0, b))
            if s:
                self.check("signed integer overflow in division",
                           V.or_(V.ne(x, V.min_signed(b), b), V.ne(y, (1 << b) - 1, b)))
            return V.div(x, y, b, s) if op == "/" else V.rem(x, y, b, s)
        if op == "&":
            return V.band(x, y, b)
        if op == "|":
            return V.bor(x, y, b)
        if op == "^":
            return V.bxor(x, y, b)
        if op in ("<<", ">>"):
            rt = e.right.type
            rb = bits_of(rt, self.ptr_bits)
            if is_signed(rt):
                self.check("shift count out of range", V.and_(V.le(0, y, rb, True), V.lt(y, b, rb, True)))
            else:
                self.check("shift count out of range", V.lt(y, b, rb, False))
            return (V.shl(x, V.convert(y, rb, b, False), b) if op == "<<"
                    else V.shr(x, V.convert(y, rb, b, False), b, s))
        raise self.unsupported(f"binary operator {op}")


__all__ = ["COMPARISONS", "FLOAT_CLASSIFY", "FLOAT_TO_INT", "LOGIC", "NO_RESULT", "OVERFLOWS", "Evaluator"]
