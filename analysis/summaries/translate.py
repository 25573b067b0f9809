"""IR expressions as values over program variables, with the run-time checks
the engine makes on the way.

:class:`Translator` evaluates a pure IR expression the way
:meth:`distaff.analysis.symex.engine.Engine.ev` does (same C conversions, same
pointer layout), but reads registers and stack addresses through callbacks:
placeholders (:mod:`distaff.analysis.summaries.variables`) when a weakest
precondition is being built, recorded values when the address an operation
used has to be recomputed. It never forks: where the engine would fork on a
run-time error, the condition under which the expression evaluates safely is
collected in ``checks`` instead (with the engine's message for the error), so
a weakest precondition can require it.

Memory is the array ``M`` of :class:`~distaff.analysis.summaries.variables.Variables`:
:func:`load` and :func:`store` read and write ``n`` bytes little-endian.
"""

from __future__ import annotations

import z3

from distaff.analysis import ir
from distaff.analysis.ir import (Addr, Binary, Cast, Const, IntType, Ite, PtrAdd, PtrDiff, PtrType, Reg, Unary, bits_of,
                         is_signed)
from distaff.analysis.symex.engine import COMPARISONS
from distaff.analysis.symex.values import mask


class Untranslatable(Exception):
    """The expression needs something the callbacks cannot give."""


class Translator:
    """Translate expressions of one program for one check (``engine`` gives
    the values, the pointer layout and the object ids of globals and
    functions)."""

    def __init__(self, engine):
        self.E = engine
        self.V = engine.V
        self.L = engine.L
        self.pb = engine.ptr_bits

    def bits(self, t) -> int:
        return bits_of(t, self.pb)

    def expr(self, e, reg, stack, checks: list):
        """The value of ``e``; ``reg(Reg)`` and ``stack(name)`` give register
        values and stack object addresses (or raise Untranslatable)."""
        V, pb = self.V, self.pb
        t = type(e)
        if t is Reg:
            return reg(e)
        if t is Const:
            return e.value & mask(e.type.bits) if type(e.type) in (IntType, PtrType) else e.value
        if t is Binary:
            if e.op in COMPARISONS or e.op in ("&&", "||"):
                return V.of_cond(self.cond(e, reg, stack, checks), self.bits(e.type))
            return self._arith(e, reg, stack, checks)
        if t is Addr:
            return self._addr(e, stack)
        if t is Cast:
            to = e.type
            if isinstance(to, IntType) and to.is_bool:
                return V.of_cond(self.cond(e.arg, reg, stack, checks), to.bits)
            v = self.expr(e.arg, reg, stack, checks)
            return V.convert(v, self.bits(e.arg.type), self.bits(to), is_signed(e.arg.type))
        if t is PtrAdd:
            p = self.expr(e.ptr, reg, stack, checks)
            o = self.expr(e.offset, reg, stack, checks)
            o = V.convert(o, self.bits(e.offset.type), pb, is_signed(e.offset.type))
            return self.L.add(p, o, V)
        if t is PtrDiff:
            d = V.sub(self.expr(e.left, reg, stack, checks), self.expr(e.right, reg, stack, checks), pb)
            return V.convert(d, pb, self.bits(e.type), True)
        if t is Unary:
            b = self.bits(e.type)
            if e.op == "!":
                return V.of_cond(V.not_(self.cond(e.arg, reg, stack, checks)), b)
            a = self.expr(e.arg, reg, stack, checks)
            if e.op == "-":
                if is_signed(e.type):
                    checks.append(("signed integer overflow in negation", V.ne(a, V.min_signed(b), b)))
                return V.neg(a, b)
            if e.op == "~":
                return V.bnot(a, b)
            if e.op == "+":
                return a
            raise Untranslatable(f"unary {e.op}")
        if t is Ite:
            c = self.cond(e.cond, reg, stack, checks)
            b = self.bits(e.type)
            if isinstance(c, bool):
                return self.expr(e.then if c else e.other, reg, stack, checks)
            return V.ite(c, self.expr(e.then, reg, stack, checks), self.expr(e.other, reg, stack, checks), b)
        raise Untranslatable(f"expression {t.__name__}")

    def cond(self, e, reg, stack, checks: list):
        """``e != 0`` as a condition."""
        V = self.V
        t = type(e)
        if t is Binary:
            op = e.op
            if op in COMPARISONS:
                a = self.expr(e.left, reg, stack, checks)
                b = self.expr(e.right, reg, stack, checks)
                w = self.bits(e.left.type)
                s = is_signed(e.left.type)
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
                return V.and_(self.cond(e.left, reg, stack, checks), self.cond(e.right, reg, stack, checks))
            if op == "||":
                return V.or_(self.cond(e.left, reg, stack, checks), self.cond(e.right, reg, stack, checks))
        elif t is Unary and e.op == "!":
            return V.not_(self.cond(e.arg, reg, stack, checks))
        elif t is Const:
            return e.value != 0
        elif t is Cast and isinstance(e.type, IntType) and e.type.is_bool:
            return self.cond(e.arg, reg, stack, checks)
        v = self.expr(e, reg, stack, checks)
        return V.cond_of(v, self.bits(e.type))

    def _addr(self, e: Addr, stack):
        E = self.E
        if e.kind is ir.ObjKind.FUNCTION:
            oid = E.func_oids.get(e.name)
        elif e.kind is ir.ObjKind.STACK:
            a = stack(e.name)
            if a is not None:
                return a
            oid = E.global_oids.get(e.name)
        else:
            oid = E.global_oids.get(e.name)
        if oid is None:
            raise Untranslatable(f"unknown object {e.name}")
        return self.L.make(oid)

    def _arith(self, e: Binary, reg, stack, checks: list):
        V = self.V
        op = e.op
        b = self.bits(e.type)
        s = is_signed(e.type)
        x = self.expr(e.left, reg, stack, checks)
        y = self.expr(e.right, reg, stack, checks)
        if op == "+":
            if s:
                checks.append(("signed integer overflow in addition", V.not_(V.add_overflows(x, y, b))))
            return V.add(x, y, b)
        if op == "-":
            if s:
                checks.append(("signed integer overflow in subtraction", V.not_(V.sub_overflows(x, y, b))))
            return V.sub(x, y, b)
        if op == "*":
            if s:
                checks.append(("signed integer overflow in multiplication", V.not_(V.mul_overflows(x, y, b))))
            return V.mul(x, y, b)
        if op in ("/", "%"):
            checks.append(("division by zero" if op == "/" else "modulo by zero", V.ne(y, 0, b)))
            if s:
                checks.append(("signed integer overflow in division",
                               V.or_(V.ne(x, V.min_signed(b), b), V.ne(y, mask(b), b))))
            return V.div(x, y, b, s) if op == "/" else V.rem(x, y, b, s)
        if op == "&":
            return V.band(x, y, b)
        if op == "|":
            return V.bor(x, y, b)
        if op == "^":
            return V.bxor(x, y, b)
        if op in ("<<", ">>"):
            rt = e.right.type
            rb = self.bits(rt)
            if is_signed(rt):
                checks.append(("shift count out of range", V.and_(V.le(0, y, rb, True), V.lt(y, b, rb, True))))
            else:
                checks.append(("shift count out of range", V.lt(y, b, rb, False)))
            n = V.convert(y, rb, b, False)
            return V.shl(x, n, b) if op == "<<" else V.shr(x, n, b, s)
        raise Untranslatable(f"binary {op}")


def conds(checks: list) -> list:
    """The conditions of collected ``(message, condition)`` checks."""
    return [c for _, c in checks]


def load(memory, addr, nbytes: int, V, pb: int):
    """``nbytes`` little-endian bytes of the array ``memory`` at ``addr``."""
    a = V.lift(addr, pb)
    parts = [(z3.Select(memory, a + i if i else a), 8) for i in reversed(range(nbytes))]
    return parts[0][0] if nbytes == 1 else z3.Concat(*[p for p, _ in parts])


def store(memory, addr, value, nbytes: int, V, pb: int):
    """The array ``memory`` with ``value`` written at ``addr`` (``nbytes`` bytes)."""
    a = V.lift(addr, pb)
    for i in range(nbytes):
        byte = V.lift(V.extract(value, 8 * i + 7, 8 * i), 8)
        memory = z3.Store(memory, a + i if i else a, byte)
    return memory
