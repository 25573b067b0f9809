"""IR expressions as values over program variables, with the run-time checks
the engine makes on the way.

:class:`Translator` evaluates a pure IR expression with the engine's
evaluator (:mod:`distaff.analysis.evaluate`: the same C conversions, the same
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
from z3 import z3core

from distaff.analysis import ir
from distaff.analysis.evaluate import Evaluator
from distaff.analysis.ir import Addr, Reg, bits_of


class Untranslatable(Exception):
    """The expression needs something the callbacks cannot give."""


class Translator:
    """Translate expressions of one program for one check (``engine`` gives
    the values, the pointer layout and the object ids of globals and
    functions)."""

    def __init__(self, engine):
        self.E = engine
        self.values = engine.values
        self.layout = engine.layout
        self.pb = engine.ptr_bits

    def bits(self, t) -> int:
        return bits_of(t, self.pb)

    def expr(self, e, reg, stack, checks: list):
        """The value of ``e``; ``reg(Reg)`` and ``stack(name)`` give register
        values and stack object addresses (or raise Untranslatable)."""
        return _Placeholders(self, reg, stack, checks).value(e)

    def cond(self, e, reg, stack, checks: list):
        """``e != 0`` as a condition."""
        return _Placeholders(self, reg, stack, checks).cond(e)

    def address(self, e: Addr, stack):
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
        return self.layout.make(oid)


class _Placeholders(Evaluator):
    """The evaluator over a weakest precondition's variables: registers and
    stack addresses from the callbacks, checks collected as ``(message,
    condition)`` instead of forks."""

    __slots__ = ("T", "reg_of", "stack", "checks")

    def __init__(self, T: Translator, reg, stack, checks: list):
        Evaluator.__init__(self, T.values, T.layout, T.pb)
        self.T, self.reg_of, self.stack, self.checks = T, reg, stack, checks

    def reg(self, e: Reg):
        return self.reg_of(e)

    def addr(self, e: Addr):
        return self.T.address(e, self.stack)

    def check(self, message: str, ok) -> None:
        self.checks.append((message, ok))

    def unsupported(self, what: str) -> Exception:
        return Untranslatable(what)


def conds(checks: list) -> list:
    """The conditions of collected ``(message, condition)`` checks."""
    return [c for _, c in checks]


# The terms below are made through z3's C API (with its error checks) rather
# than z3's operators, which coerce and check sorts at tens of microseconds a
# node: weakest preconditions make them for every access they step through.
# They are the very terms the operators make (z3 hash-conses: the same AST).


def _byte_address(a, i: int, V, pb: int):
    """``a + i`` as z3's ``+`` makes it (``a`` itself for 0)."""
    if not i:
        return a
    return z3.BitVecRef(z3core.Z3_mk_bvadd(a.ctx_ref(), a.as_ast(), V.const(i, pb).as_ast()), a.ctx)


def load(memory, addr, nbytes: int, V, pb: int):
    """``nbytes`` little-endian bytes of the array ``memory`` at ``addr``
    (most significant first, concatenated left to right as ``z3.Concat``)."""
    a = V.lift(addr, pb)
    ctx, c, m = a.ctx, a.ctx_ref(), memory.as_ast()
    out = None
    for i in reversed(range(nbytes)):
        byte = z3.BitVecRef(z3core.Z3_mk_select(c, m, _byte_address(a, i, V, pb).as_ast()), ctx)
        out = byte if out is None else z3.BitVecRef(z3core.Z3_mk_concat(c, out.as_ast(), byte.as_ast()), ctx)
    return out


def store(memory, addr, value, nbytes: int, V, pb: int):
    """The array ``memory`` with ``value`` written at ``addr`` (``nbytes`` bytes)."""
    a = V.lift(addr, pb)
    ctx, c = a.ctx, a.ctx_ref()
    for i in range(nbytes):
        byte = V.lift(V.extract(value, 8 * i + 7, 8 * i), 8)
        memory = z3.ArrayRef(z3core.Z3_mk_store(c, memory.as_ast(), _byte_address(a, i, V, pb).as_ast(),
                                                byte.as_ast()), ctx)
    return memory
