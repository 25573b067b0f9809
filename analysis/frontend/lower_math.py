"""Lowering of the ``<math.h>`` functions C defines exactly
(:data:`distaff.analysis.frontend.builtins.MATH_FUNCTIONS`) to the IR's
floating operators, and of GCC's floating constants spelt as calls
(``__builtin_inf()``, ``__builtin_nan("")``). The other functions of
``<math.h>`` (``sin``, ``exp``, ``pow`` ...) stay externals: a value that
depends on one is undecided, with the function's name as the reason."""

from __future__ import annotations

import tree_sitter as ts

from distaff.analysis import floats
from distaff.analysis.ir import Const, Expr, FloatType, IntType, Ite
from distaff.analysis.frontend.builtins import MATH_CONSTANTS, MATH_FUNCTIONS
from distaff.analysis.frontend.ctypes import DOUBLE, INT
from distaff.analysis.frontend.lower_const import binary, cast, unary

INT_MIN = Const(-(1 << 31), INT)


def is_math(name: str) -> bool:
    return name in MATH_FUNCTIONS or name in MATH_CONSTANTS


def _ite(c: Expr, a: Expr, b: Expr) -> Expr:
    if isinstance(c, Const):
        return a if c.value else b
    return Ite(c, a, b, a.type)


class MathLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: ``<math.h>``."""

    def math_call(self, name: str, args: list[ts.Node], node: ts.Node) -> Expr:
        """A call of a name :func:`is_math` accepts, not defined by the program."""
        known = MATH_CONSTANTS.get(name)
        if known is not None:
            for a in args:
                self.effect(a)
            x, t = known
            return Const(floats.encode(x, t.bits), t)
        op, t = MATH_FUNCTIONS[name]
        want = 2 if op in floats.MATH_BINARY else 1
        if len(args) != want:
            self.unsupported(node, f"{name} with {len(args)} arguments")
            for a in args:
                self.effect(a)
            return Const(0, INT)
        values = [self.rvalue(a) for a in args]
        if any(not isinstance(v.type, (IntType, FloatType)) for v in values):
            self.unsupported(node, f"{name} of a non-arithmetic value")
            return Const(0, INT)
        if t is not None:
            xs = [cast(v, t) for v in values]
            return unary(op, xs[0], t) if want == 1 else binary(op, xs[0], xs[1], t)
        x = values[0] if isinstance(values[0].type, FloatType) else cast(values[0], DOUBLE)
        if op == "isinf_sign":
            return _ite(unary("isinf", x, INT), _ite(unary("signbit", x, INT), Const(-1, INT), Const(1, INT)),
                        Const(0, INT))
        if op == "signbit" and x.type.bits == 32:  # GCC gives a float's sign bit where it stands
            return _ite(unary("signbit", x, INT), INT_MIN, Const(0, INT))
        if op == "signbit" and x.type.bits == floats.LONG_DOUBLE:  # and a long double's in its top 16-bit word
            return _ite(unary("signbit", x, INT), Const(1 << 9, INT), Const(0, INT))
        return unary(op, x, INT)
