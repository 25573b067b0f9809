"""C scalar values on z3 bit-vectors, with concrete folding.

A value (:data:`Val`) is either a Python ``int`` (a concrete bit pattern,
always in ``range(0, 2**bits)``) or a z3 bit-vector expression. Operations fold
concrete operands in Python, which is two orders of magnitude cheaper than
building z3 terms; only values that depend on a symbol become z3 terms. A
condition (:data:`Cond`) is likewise a Python ``bool`` or a z3 ``BoolRef``.

All z3 terms of one check live in one :class:`z3.Context` (so that a watcher
thread can interrupt exactly that check); :class:`Values` makes it when the
first term is made, and makes the constants. The width of a value is never
stored with it: the IR's types say it (:func:`distaff.analysis.ir.value_bits`),
and every operation takes ``bits``.

:func:`Values.symbols` gives the names of the symbols a term depends on,
memoised per term, for the solver's constraint-independence layer.

:class:`Terms` reads terms through z3's C API without building a Python
wrapper per node (``children()`` costs tens of microseconds per call, a raw
call about one): walks over large terms (symbols, printing, the reads of a
summary) use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

import z3
from z3 import z3core

from distaff.analysis import floats
from distaff.analysis.ir import mask, to_signed  # noqa: F401 - part of this module's interface

Val = Union[int, z3.BitVecRef]
Cond = Union[bool, z3.BoolRef]


class Values:
    """Constructors and operations for the values of one check (one z3 context)."""

    def __init__(self, ctx: z3.Context | None = None):
        self._ctx = ctx
        self._consts: dict[tuple[int, int], z3.BitVecRef] = {}
        self._symbols: dict[int, frozenset[str]] = {}  # AST pointer -> names
        self._roots: list = []  # the terms whose walks filled _symbols
        self._terms: Terms | None = None
        self._bools: tuple | None = None
        self.has_floats = False  # has a floating-point term been made

    @property
    def ctx(self) -> z3.Context:
        """The check's z3 context, made on first use: a check whose values
        all stay concrete never pays for one (about a millisecond)."""
        c = self._ctx
        if c is None:
            c = self._ctx = z3.Context()
        return c

    @property
    def has_terms(self) -> bool:
        """Has any z3 term been made (is there a context yet)?"""
        return self._ctx is not None

    @property
    def terms(self) -> Terms:
        t = self._terms
        if t is None:
            t = self._terms = Terms(self.ctx)
        return t

    @property
    def true(self) -> z3.BoolRef:
        return self._bool_values()[0]

    @property
    def false(self) -> z3.BoolRef:
        return self._bool_values()[1]

    def _bool_values(self) -> tuple:
        b = self._bools
        if b is None:
            b = self._bools = (z3.BoolVal(True, self.ctx), z3.BoolVal(False, self.ctx))
        return b

    # ------------------------------------------------------------------
    # constants, symbols, lifting

    def const(self, v: int, bits: int) -> z3.BitVecRef:
        key = (v, bits)
        c = self._consts.get(key)
        if c is None:
            if len(self._consts) > 4096:
                self._consts.clear()
            c = self._consts[key] = z3.BitVecVal(v, bits, self.ctx)
        return c

    def lift(self, v: Val, bits: int) -> z3.BitVecRef:
        return self.const(v, bits) if isinstance(v, int) else v

    def lift_cond(self, c: Cond) -> z3.BoolRef:
        if c is True:
            return self.true
        if c is False:
            return self.false
        return c

    def fresh(self, name: str, bits: int) -> z3.BitVecRef:
        return z3.BitVec(name, bits, self.ctx)

    def fresh_array(self, name: str, index_bits: int) -> z3.ArrayRef:
        return z3.Array(name, z3.BitVecSort(index_bits, self.ctx), z3.BitVecSort(8, self.ctx))

    def zero_array(self, index_bits: int) -> z3.ArrayRef:
        return z3.K(z3.BitVecSort(index_bits, self.ctx), self.const(0, 8))

    @staticmethod
    def concrete(v):
        """``v`` as a Python int/bool when z3 already knows it is a constant, else ``v``."""
        if isinstance(v, (int, bool)):
            return v
        if z3.is_bv_value(v):
            return v.as_long()
        if z3.is_true(v):
            return True
        if z3.is_false(v):
            return False
        return v

    def simplified(self, v):
        """``v`` simplified by z3, as a Python constant when it becomes one."""
        if isinstance(v, (int, bool)):
            return v
        return self.concrete(z3.simplify(v))

    def symbols(self, e) -> frozenset[str]:
        """Names of the uninterpreted constants (symbols, arrays) ``e`` depends on."""
        if isinstance(e, (int, bool)):
            return frozenset()
        T = self.terms
        root = e.as_ast()
        rid = root.value
        memo = self._symbols
        hit = memo.get(rid)
        if hit is not None:
            return hit
        # the memo is by AST pointer (z3 hash-conses terms): keeping each
        # walked root alive keeps alive every sub-term it has an entry for,
        # so no pointer is reused meanwhile
        self._roots.append(e)
        empty: frozenset[str] = frozenset()
        stack = [(root, rid, False)]
        while stack:
            x, xid, expanded = stack.pop()
            if xid in memo:
                continue
            kids = T.args(x)
            if expanded:
                acc = empty
                for k in kids:
                    got = memo[k.value]
                    if got:
                        acc = got if not acc else acc | got
                memo[xid] = acc
            elif not kids:
                memo[xid] = frozenset((T.name(x),)) if T.is_symbol(x) else empty
            else:
                stack.append((x, xid, True))
                for k in kids:
                    kid = k.value
                    if kid not in memo:
                        stack.append((k, kid, False))
        return memo[rid]

    # ------------------------------------------------------------------
    # conditions

    def cond_of(self, v: Val, bits: int) -> Cond:
        """``v != 0`` as a condition; ``If(c, 1, 0)`` is unwrapped back to ``c``."""
        if isinstance(v, int):
            return v != 0
        if z3.is_app_of(v, z3.Z3_OP_ITE):
            c, a, b = v.children()
            if z3.is_bv_value(a) and z3.is_bv_value(b):
                av, bv = a.as_long(), b.as_long()
                if av != 0 and bv == 0:
                    return c
                if av == 0 and bv != 0:
                    return z3.Not(c)
        return v != self.const(0, bits)

    def of_cond(self, c: Cond, bits: int) -> Val:
        """A condition as the C int 0/1 of width ``bits``."""
        if isinstance(c, bool):
            return int(c)
        return z3.If(c, self.const(1, bits), self.const(0, bits))

    def not_(self, c: Cond) -> Cond:
        if isinstance(c, bool):
            return not c
        if z3.is_not(c):
            return c.arg(0)
        return z3.Not(c)

    def and_(self, *cs: Cond) -> Cond:
        return self._junction(cs, False)

    def or_(self, *cs: Cond) -> Cond:
        return self._junction(cs, True)

    def _junction(self, cs, absorbing: bool) -> Cond:
        """The conjunction (``absorbing`` False) or disjunction (True) of
        ``cs``, with constant operands folded away (constants alone make no
        term, so no context either)."""
        unit = not absorbing
        rest = []
        for c in cs:
            if c is absorbing:
                return absorbing
            if c is not unit:
                rest.append(c)
        if not rest:
            return unit
        if len(rest) == 1:
            return rest[0]
        ctx = self.ctx
        if all(type(c) is z3.BoolRef and c.ctx is ctx for c in rest):
            # through the C API: no Python wrapper per operand
            return self.terms.or_(rest) if absorbing else self.terms.and_(rest)
        return z3.Or(*rest) if absorbing else z3.And(*rest)

    def ite(self, c: Cond, a: Val, b: Val, bits: int) -> Val:
        if isinstance(c, bool):
            return a if c else b
        if isinstance(a, int) and isinstance(b, int) and a == b:
            return a
        return z3.If(c, self.lift(a, bits), self.lift(b, bits))

    # ------------------------------------------------------------------
    # comparisons

    def eq(self, a: Val, b: Val, bits: int) -> Cond:
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return self.lift(a, bits) == self.lift(b, bits)

    def ne(self, a: Val, b: Val, bits: int) -> Cond:
        return self.not_(self.eq(a, b, bits))

    def lt(self, a: Val, b: Val, bits: int, signed: bool) -> Cond:
        if isinstance(a, int) and isinstance(b, int):
            if signed:
                return to_signed(a, bits) < to_signed(b, bits)
            return a < b
        x, y = self.lift(a, bits), self.lift(b, bits)
        return x < y if signed else z3.ULT(x, y)

    def le(self, a: Val, b: Val, bits: int, signed: bool) -> Cond:
        if isinstance(a, int) and isinstance(b, int):
            if signed:
                return to_signed(a, bits) <= to_signed(b, bits)
            return a <= b
        x, y = self.lift(a, bits), self.lift(b, bits)
        return x <= y if signed else z3.ULE(x, y)

    # ------------------------------------------------------------------
    # arithmetic (wrapping; the overflow conditions are separate)

    def add(self, a: Val, b: Val, bits: int) -> Val:
        if isinstance(a, int) and isinstance(b, int):
            return (a + b) & mask(bits)
        if isinstance(b, int) and b == 0:
            return a
        return self.lift(a, bits) + self.lift(b, bits)

    def sub(self, a: Val, b: Val, bits: int) -> Val:
        if isinstance(a, int) and isinstance(b, int):
            return (a - b) & mask(bits)
        if isinstance(b, int) and b == 0:
            return a
        return self.lift(a, bits) - self.lift(b, bits)

    def mul(self, a: Val, b: Val, bits: int) -> Val:
        if isinstance(a, int) and isinstance(b, int):
            return (a * b) & mask(bits)
        return self.lift(a, bits) * self.lift(b, bits)

    def neg(self, a: Val, bits: int) -> Val:
        if isinstance(a, int):
            return (-a) & mask(bits)
        return -a

    def div(self, a: Val, b: Val, bits: int, signed: bool) -> Val:
        """C division (truncating); the caller has excluded ``b == 0``."""
        if isinstance(a, int) and isinstance(b, int):
            if b == 0:
                return 0
            if signed:
                sa, sb = to_signed(a, bits), to_signed(b, bits)
                q = abs(sa) // abs(sb)
                return (q if (sa < 0) == (sb < 0) else -q) & mask(bits)
            return a // b
        x, y = self.lift(a, bits), self.lift(b, bits)
        return x / y if signed else z3.UDiv(x, y)

    def rem(self, a: Val, b: Val, bits: int, signed: bool) -> Val:
        """C remainder (sign of the dividend); the caller has excluded ``b == 0``."""
        if isinstance(a, int) and isinstance(b, int):
            if b == 0:
                return 0
            if signed:
                sa, sb = to_signed(a, bits), to_signed(b, bits)
                r = abs(sa) % abs(sb)
                return (-r if sa < 0 else r) & mask(bits)
            return a % b
        x, y = self.lift(a, bits), self.lift(b, bits)
        return z3.SRem(x, y) if signed else z3.URem(x, y)

    def band(self, a: Val, b: Val, bits: int) -> Val:
        if isinstance(a, int) and isinstance(b, int):
            return a & b
        return self.lift(a, bits) & self.lift(b, bits)

    def bor(self, a: Val, b: Val, bits: int) -> Val:
        if isinstance(a, int) and isinstance(b, int):
            return a | b
        return self.lift(a, bits) | self.lift(b, bits)

    def bxor(self, a: Val, b: Val, bits: int) -> Val:
        if isinstance(a, int) and isinstance(b, int):
            return a ^ b
        return self.lift(a, bits) ^ self.lift(b, bits)

    def bnot(self, a: Val, bits: int) -> Val:
        if isinstance(a, int):
            return (~a) & mask(bits)
        return ~a

    def shl(self, a: Val, n: Val, bits: int) -> Val:
        """``a << n``; ``n`` already of width ``bits``; counts >= bits give 0."""
        if isinstance(a, int) and isinstance(n, int):
            return (a << n) & mask(bits) if n < bits else 0
        return self.lift(a, bits) << self.lift(n, bits)

    def shr(self, a: Val, n: Val, bits: int, signed: bool) -> Val:
        """``a >> n``: arithmetic for signed ``a`` (as gcc does), logical otherwise."""
        if isinstance(a, int) and isinstance(n, int):
            if signed:
                return (to_signed(a, bits) >> min(n, bits)) & mask(bits)
            return a >> n if n < bits else 0
        x, y = self.lift(a, bits), self.lift(n, bits)
        return x >> y if signed else z3.LShR(x, y)

    # ------------------------------------------------------------------
    # overflow conditions (True when the signed operation overflows)

    def add_overflows(self, a: Val, b: Val, bits: int) -> Cond:
        if isinstance(a, int) and isinstance(b, int):
            r = to_signed(a, bits) + to_signed(b, bits)
            return not (-(1 << (bits - 1)) <= r < (1 << (bits - 1)))
        x, y = self.lift(a, bits), self.lift(b, bits)
        return z3.Not(z3.And(z3.BVAddNoOverflow(x, y, True), z3.BVAddNoUnderflow(x, y)))

    def sub_overflows(self, a: Val, b: Val, bits: int) -> Cond:
        if isinstance(a, int) and isinstance(b, int):
            r = to_signed(a, bits) - to_signed(b, bits)
            return not (-(1 << (bits - 1)) <= r < (1 << (bits - 1)))
        x, y = self.lift(a, bits), self.lift(b, bits)
        return z3.Not(z3.And(z3.BVSubNoOverflow(x, y), z3.BVSubNoUnderflow(x, y, True)))

    def mul_overflows(self, a: Val, b: Val, bits: int) -> Cond:
        if isinstance(a, int) and isinstance(b, int):
            r = to_signed(a, bits) * to_signed(b, bits)
            return not (-(1 << (bits - 1)) <= r < (1 << (bits - 1)))
        x, y = self.lift(a, bits), self.lift(b, bits)
        return z3.Not(z3.And(z3.BVMulNoOverflow(x, y, True), z3.BVMulNoUnderflow(x, y)))

    def min_signed(self, bits: int) -> int:
        return 1 << (bits - 1)

    # ------------------------------------------------------------------
    # widths

    def trunc(self, a: Val, bits: int) -> Val:
        if isinstance(a, int):
            return a & mask(bits)
        if a.size() == bits:
            return a
        return z3.Extract(bits - 1, 0, a)

    def zext(self, a: Val, frm: int, to: int) -> Val:
        if isinstance(a, int) or to == frm:
            return a
        return z3.ZeroExt(to - frm, a)

    def sext(self, a: Val, frm: int, to: int) -> Val:
        if isinstance(a, int):
            return to_signed(a, frm) & mask(to)
        if to == frm:
            return a
        return z3.SignExt(to - frm, a)

    def convert(self, a: Val, frm: int, to: int, signed: bool) -> Val:
        """Integer conversion of a ``frm``-bit value to ``to`` bits (extension by
        the source's signedness)."""
        if to <= frm:
            return self.trunc(a, to)
        return self.sext(a, frm, to) if signed else self.zext(a, frm, to)

    def extract(self, a: Val, hi: int, lo: int) -> Val:
        if isinstance(a, int):
            return (a >> lo) & mask(hi - lo + 1)
        if lo == 0 and a.size() == hi + 1:
            return a
        return z3.Extract(hi, lo, a)

    def concat(self, parts: Sequence[tuple[Val, int]]) -> Val:
        """Concatenate ``(value, bits)`` pairs, most significant first."""
        if all(isinstance(v, int) for v, _ in parts):
            out = 0
            for v, b in parts:
                out = (out << b) | v
            return out
        terms = [self.lift(v, b) for v, b in parts]
        return terms[0] if len(terms) == 1 else z3.Concat(*terms)

    # ------------------------------------------------------------------
    # floating point: concrete in distaff.analysis.floats, else on z3's
    # floating-point theory, every result back to a bit pattern

    def _fp(self, a: Val, bits: int) -> z3.FPRef:
        self.has_floats = True
        e, p = floats.FORMATS[bits]
        sort = z3.FPSort(e, p, self.ctx)
        if bits != floats.LONG_DOUBLE:
            return z3.fpBVToFP(self.lift(a, bits), sort, ctx=self.ctx)
        # the x87 pattern (see floats.LONG_DOUBLE) to FPSort(15, 64), which has no integer bit: a
        # pseudo-denormal is the normal of exponent 1 it equals, an unnormal, pseudo-infinity or
        # pseudo-NaN (integer bit clear, exponent not 0) the invalid operand the x87 computes as a NaN
        v = self.lift(a, bits)
        sign, exp = z3.Extract(79, 79, v), z3.Extract(78, 64, v)
        integer, frac = z3.Extract(63, 63, v), z3.Extract(62, 0, v)
        zero_exp = exp == z3.BitVecVal(0, 15, self.ctx)
        exp = z3.If(z3.And(zero_exp, integer == z3.BitVecVal(1, 1, self.ctx)), z3.BitVecVal(1, 15, self.ctx), exp)
        number = z3.fpFP(sign, exp, frac, ctx=self.ctx)
        return z3.If(z3.And(integer == z3.BitVecVal(0, 1, self.ctx), z3.Not(zero_exp)), z3.fpNaN(sort), number)

    def _ieee(self, r: z3.FPRef, bits: int) -> z3.BitVecRef:
        """The pattern of ``r``, not a NaN (z3 leaves a NaN's bits open)."""
        c = self.ctx
        v = z3.fpToIEEEBV(r, ctx=c)
        if bits != floats.LONG_DOUBLE:
            return v
        exp = z3.Extract(77, 63, v)  # the integer bit is stored: 1 unless the exponent is 0
        integer = z3.If(exp == z3.BitVecVal(0, 15, c), z3.BitVecVal(0, 1, c), z3.BitVecVal(1, 1, c))
        return z3.Concat(z3.BitVecVal(0, 48, c), z3.Extract(78, 63, v), integer, z3.Extract(62, 0, v))

    def _bits(self, r: z3.FPRef, bits: int) -> z3.BitVecRef:
        """The pattern of ``r``, a NaN the canonical one (z3 leaves its bits open)."""
        c = self.ctx
        return z3.If(z3.fpIsNaN(r, ctx=c), self.const(floats.QUIET_NAN[bits], bits), self._ieee(r, bits))

    def farith(self, op: str, a: Val, b: Val, bits: int) -> Val:
        """``a op b`` for ``op`` in ``+ - * /``, ``fmin``, ``fmax``."""
        if isinstance(a, int) and isinstance(b, int):
            return floats.arith(op, a, b, bits)
        x, y = self._fp(a, bits), self._fp(b, bits)
        rm = z3.RNE(self.ctx)
        if op == "fmin" or op == "fmax":  # as floats.arith: a signalling NaN gives a NaN, equal operands the second
            ld = bits == floats.LONG_DOUBLE  # (fminl gives the first of equal operands)
            first = (z3.fpLEQ(x, y, ctx=self.ctx) if ld else z3.fpLT(x, y, ctx=self.ctx)) if op == "fmin" \
                else z3.fpGT(x, y, ctx=self.ctx)
            r = z3.If(z3.fpIsNaN(x, ctx=self.ctx), y, z3.If(z3.fpIsNaN(y, ctx=self.ctx), x, z3.If(first, x, y)))
            quiet = 62 if ld else floats.FORMATS[bits][1] - 2
            signalling = z3.Or(*[z3.And(z3.fpIsNaN(v, ctx=self.ctx),
                                        z3.Extract(quiet, quiet, self.lift(w, bits)) == self.const(0, 1))
                                 for v, w in ((x, a), (y, b))])
            r = z3.If(signalling, z3.fpNaN(x.sort()), r)
        elif op == "+":
            r = z3.fpAdd(rm, x, y, ctx=self.ctx)
        elif op == "-":
            r = z3.fpSub(rm, x, y, ctx=self.ctx)
        elif op == "*":
            r = z3.fpMul(rm, x, y, ctx=self.ctx)
        else:
            r = z3.fpDiv(rm, x, y, ctx=self.ctx)
        return self._bits(r, bits)

    def fcompare(self, op: str, a: Val, b: Val, bits: int) -> Cond:
        """IEEE's ``a op b``: false when either is a NaN, except ``!=``."""
        if isinstance(a, int) and isinstance(b, int):
            return floats.compare(op, a, b, bits)
        x, y = self._fp(a, bits), self._fp(b, bits)
        if op == "==":
            return z3.fpEQ(x, y, ctx=self.ctx)
        if op == "!=":
            return z3.Not(z3.fpEQ(x, y, ctx=self.ctx))
        if op == "<":
            return z3.fpLT(x, y, ctx=self.ctx)
        if op == "<=":
            return z3.fpLEQ(x, y, ctx=self.ctx)
        if op == ">":
            return z3.fpGT(x, y, ctx=self.ctx)
        return z3.fpGEQ(x, y, ctx=self.ctx)

    def funary(self, op: str, a: Val, bits: int) -> Val:
        """Negation and the functions of :data:`floats.MATH_UNARY`."""
        if isinstance(a, int):
            return floats.unary(op, a, bits)
        sign = floats.SIGN[bits]
        value = mask(80 if bits == floats.LONG_DOUBLE else bits)  # (a long double's padding left 0)
        if op == "-":
            return (a & self.const(value, bits)) ^ self.const(sign, bits)
        if op == "fabs":
            return a & self.const(value ^ sign, bits)
        if op == "round" and bits == floats.LONG_DOUBLE:
            return self._roundl(a)
        x = self._fp(a, bits)
        if op == "sqrt":
            return self._bits(z3.fpSqrt(z3.RNE(self.ctx), x, ctx=self.ctx), bits)
        modes = {"floor": z3.RTN, "ceil": z3.RTP, "trunc": z3.RTZ, "round": z3.RNA}
        return self._bits(z3.fpRoundToIntegral(modes[op](self.ctx), x, ctx=self.ctx), bits)

    def _roundl(self, a: Val) -> Val:
        """glibc's ``roundl`` on the pattern's fields, as floats._x_roundl."""
        c = self.ctx
        v = self.lift(a, floats.LONG_DOUBLE)
        sign, exp, sig = z3.Extract(79, 79, v), z3.Extract(78, 64, v), z3.Extract(63, 0, v)

        def bv(n, w):
            return z3.BitVecVal(n, w, c)

        bias = 16383
        sh = z3.ZeroExt(49, exp) - bv(bias, 64)  # j0, used where it is 0..62
        below = z3.LShR(bv((1 << 64) - 1, 64), sh + bv(1, 64))
        total = z3.ZeroExt(1, sig) + z3.ZeroExt(1, z3.LShR(bv(1 << 62, 64), sh))
        carry = z3.Extract(64, 64, total) == bv(1, 1)
        cleared = z3.Extract(63, 0, total) & ~below
        rounded = z3.Concat(sign, z3.If(carry, exp + bv(1, 15), exp),
                            z3.If(z3.Or(z3.ULT(exp, bv(bias + 31, 15)), carry), cleared | bv(1 << 63, 64), cleared))
        same = z3.Extract(79, 0, v)
        r = z3.If(z3.ULT(exp, bv(bias - 1, 15)), z3.Concat(sign, bv(0, 79)),
            z3.If(exp == bv(bias - 1, 15), z3.Concat(sign, bv(bias, 15), bv(1 << 63, 64)),
            z3.If(z3.UGT(exp, bv(bias + 62, 15)), same,
            z3.If((sig & below) == bv(0, 64), same, rounded))))
        r = z3.ZeroExt(48, r)
        return z3.If(exp == bv(0x7FFF, 15), self.farith("+", a, a, floats.LONG_DOUBLE), r)

    def fclassify(self, op: str, a: Val, bits: int) -> Cond:
        """A classification of :data:`floats.CLASSIFY` as a condition."""
        if isinstance(a, int):
            return bool(floats.unary(op, a, bits))
        if op == "signbit":
            top = floats.SIGN[bits].bit_length() - 1
            return z3.Extract(top, top, a) == self.const(1, 1)
        x = self._fp(a, bits)
        if op == "isnan":
            return z3.fpIsNaN(x, ctx=self.ctx)
        if op == "isinf":
            return z3.fpIsInf(x, ctx=self.ctx)
        return z3.Not(z3.Or(z3.fpIsNaN(x, ctx=self.ctx), z3.fpIsInf(x, ctx=self.ctx)))

    def fnonzero(self, a: Val, bits: int) -> Cond:
        """``a != 0.0`` (a NaN is non-zero)."""
        if isinstance(a, int):
            return floats.nonzero(a, bits)
        below = floats.SIGN[bits] - 1  # (a long double's padding is no part of its value)
        return (a & self.const(below, bits)) != self.const(0, bits)

    def from_int(self, a: Val, frm: int, signed: bool, to: int) -> Val:
        """The ``frm``-bit integer ``a`` converted to the ``to``-bit floating format."""
        if isinstance(a, int):
            return floats.from_int(to_signed(a, frm) if signed else a, to)
        e, p = floats.FORMATS[to]
        sort = z3.FPSort(e, p, self.ctx)
        rm = z3.RNE(self.ctx)
        to_fp = z3.fpSignedToFP if signed else z3.fpUnsignedToFP
        r = to_fp(rm, a, sort, ctx=self.ctx)
        return self._ieee(r, to)

    def to_int(self, a: Val, frm: int, to: int, signed: bool) -> tuple[Val, Cond]:
        """The ``frm``-bit floating ``a`` truncated toward zero to a ``to``-bit
        integer, and the condition under which C defines it (the truncated
        value fits)."""
        lo = -(1 << (to - 1)) if signed else 0
        hi = (1 << (to - 1)) if signed else 1 << to  # exclusive
        if isinstance(a, int):
            t = floats.to_int(a, frm)
            if t is None or not lo <= t < hi:
                return 0, False
            return t & mask(to), True
        c = self.ctx
        x = self._fp(a, frm)
        e, p = floats.FORMATS[frm]
        sort = z3.FPSort(e, p, c)
        rtz = z3.RTZ(c)
        whole = z3.fpRoundToIntegral(rtz, x, ctx=c)  # (not t: compiled, t is the concrete branch's int)
        ok = z3.And(z3.fpGEQ(whole, z3.FPVal(lo, None, sort, c), ctx=c),
                    z3.fpLT(whole, z3.FPVal(hi, None, sort, c), ctx=c))
        to_bv = z3.fpToSBV if signed else z3.fpToUBV
        return to_bv(rtz, x, z3.BitVecSort(to, c), ctx=c), ok

    def fconvert(self, a: Val, frm: int, to: int) -> Val:
        """A floating value converted between formats (rounded when narrowing)."""
        if frm == to:
            return a
        if isinstance(a, int):
            return floats.convert(a, frm, to)
        e, p = floats.FORMATS[to]
        c = self.ctx
        return self._bits(z3.fpFPToFP(z3.RNE(c), self._fp(a, frm), z3.FPSort(e, p, c), ctx=c), to)


# --------------------------------------------------------------------------
# reading terms through the C API


def _raw(name: str):
    """The ctypes function behind a z3core wrapper, without its error check
    (the calls below are only made on terms of the right kind)."""
    wrapper = getattr(z3core, name)
    elems = (wrapper.__defaults__ or (None,))[-1]
    return getattr(elems, "f", wrapper)


_ID = _raw("Z3_get_ast_id")
_KIND = _raw("Z3_get_ast_kind")
_NARGS = _raw("Z3_get_app_num_args")
_ARG = _raw("Z3_get_app_arg")
_DECL = _raw("Z3_get_app_decl")
_DECL_KIND = _raw("Z3_get_decl_kind")
_DECL_NAME = _raw("Z3_get_decl_name")
_SYMBOL_KIND = _raw("Z3_get_symbol_kind")
_SYMBOL_STRING = _raw("Z3_get_symbol_string")
_SYMBOL_INT = _raw("Z3_get_symbol_int")
_SORT = _raw("Z3_get_sort")
_SORT_KIND = _raw("Z3_get_sort_kind")
_BV_SIZE = _raw("Z3_get_bv_sort_size")
_NUMERAL = _raw("Z3_get_numeral_string")
_QUANTIFIER_BODY = _raw("Z3_get_quantifier_body")
_IS_EQ_SORT = _raw("Z3_is_eq_sort")
_SUBSTITUTE = _raw("Z3_substitute")
_MK_AND = _raw("Z3_mk_and")
_MK_OR = _raw("Z3_mk_or")
_Ast = z3.Ast


_RAW_TYPES = (z3.BoolRef, z3.BitVecRef, z3.ArrayRef)  # substituted through the C API

class Terms:
    """Read-only views of the terms of one context by raw AST pointer
    (``e.as_ast()``). A pointer is valid while some Python term holding it
    (or a term containing it) is alive: callers keep their roots. z3
    hash-conses terms, so while the roots live a pointer's ``.value`` names
    one term, a cheaper memo key than ``id()`` (a C call). ``args``
    of a quantifier is its body; of a numeral or a bound variable, empty."""

    __slots__ = ("ctx", "c")

    def __init__(self, ctx: z3.Context):
        self.ctx = ctx
        self.c = ctx.ref()

    def id(self, a) -> int:
        return _ID(self.c, a)

    def kind(self, a) -> int:
        """Z3_NUMERAL_AST, Z3_APP_AST, Z3_VAR_AST or Z3_QUANTIFIER_AST."""
        return _KIND(self.c, a)

    def args(self, a) -> list:
        c = self.c
        k = _KIND(c, a)
        if k == z3.Z3_APP_AST:
            return [_ARG(c, a, i) for i in range(_NARGS(c, a))]
        if k == z3.Z3_QUANTIFIER_AST:
            return [_QUANTIFIER_BODY(c, a)]
        return []

    def arg(self, a, i: int):
        return _ARG(self.c, a, i)

    def nargs(self, a) -> int:
        """Arguments of an application (0 for other terms)."""
        return _NARGS(self.c, a) if _KIND(self.c, a) == z3.Z3_APP_AST else 0

    def op(self, a) -> int | None:
        """The declaration kind (``Z3_OP_*``) of an application or numeral, else None."""
        c = self.c
        k = _KIND(c, a)
        if k == z3.Z3_APP_AST or k == z3.Z3_NUMERAL_AST:
            return _DECL_KIND(c, _DECL(c, a))
        return None

    def name(self, a) -> str:
        """The declaration name of an application or numeral."""
        c = self.c
        sym = _DECL_NAME(c, _DECL(c, a))
        if _SYMBOL_KIND(c, sym) == z3.Z3_STRING_SYMBOL:
            return _SYMBOL_STRING(c, sym).decode()
        return f"k!{_SYMBOL_INT(c, sym)}"

    def is_symbol(self, a) -> bool:
        """An uninterpreted constant (a symbol or an array variable)?"""
        c = self.c
        return (_KIND(c, a) == z3.Z3_APP_AST and _NARGS(c, a) == 0
                and _DECL_KIND(c, _DECL(c, a)) == z3.Z3_OP_UNINTERPRETED)

    def is_bv_value(self, a) -> bool:
        c = self.c
        return _KIND(c, a) == z3.Z3_NUMERAL_AST and _SORT_KIND(c, _SORT(c, a)) == z3.Z3_BV_SORT

    def value(self, a) -> int:
        """The value of a numeral."""
        return int(_NUMERAL(self.c, a).decode())

    def bv_size(self, a) -> int:
        return _BV_SIZE(self.c, _SORT(self.c, a))

    def same_sort(self, a, b) -> bool:
        c = self.c
        return bool(_IS_EQ_SORT(c, _SORT(c, a), _SORT(c, b)))

    # ------------------------------------------------------------------ making terms

    def substitute(self, e, pairs):
        """``e`` with each ``(term, replacement)`` of ``pairs`` replaced; the
        caller has made sure each pair has one sort (the C API does not
        check it, and z3's wrapper spends most of its time on that). A
        condition, bit-vector or array goes through the C API and keeps its
        Python type; any other term through z3's wrapper."""
        if type(e) not in _RAW_TYPES:
            return z3.substitute(e, *pairs)
        n = len(pairs)
        old, new = (_Ast * n)(), (_Ast * n)()
        for i, (a, b) in enumerate(pairs):
            old[i] = a.as_ast()
            new[i] = b.as_ast()
        return type(e)(_SUBSTITUTE(self.c, e.as_ast(), n, old, new), self.ctx)

    def and_(self, cs) -> z3.BoolRef:
        """The conjunction of conditions (z3 terms, at least two)."""
        arr = (_Ast * len(cs))(*[x.as_ast() for x in cs])
        return z3.BoolRef(_MK_AND(self.c, len(cs), arr), self.ctx)

    def or_(self, cs) -> z3.BoolRef:
        """The disjunction of conditions (z3 terms, at least two)."""
        arr = (_Ast * len(cs))(*[x.as_ast() for x in cs])
        return z3.BoolRef(_MK_OR(self.c, len(cs), arr), self.ctx)
