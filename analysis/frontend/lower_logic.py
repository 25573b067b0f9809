"""Lowering of the C operators that choose what to evaluate: ``&&``, ``||``
and ``?:``, in value and in branch context.

They stay pure (:class:`ir.Binary` / :class:`ir.Ite`) when the operands they
may skip emit no instruction, and become control flow otherwise; this is
decided by lowering the operand speculatively and rolling back. In branch
context (``if``, loops) they branch directly to the targets.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from distaff.analysis.ir import Assign, Const, CType, Expr, FloatType, IntType, Ite, PtrType, SCALAR_TYPES
from distaff.analysis.frontend.labels import Goto, IfGoto
from distaff.analysis.frontend.ctypes import INT, VOID
from distaff.analysis.frontend.gnu import readable
from distaff.analysis.frontend.lower_const import binary, truth
from distaff.analysis.frontend.lower_loc import strip_parens
from distaff.analysis.frontend.parse import F

# conditions longer than this are not copied into the IR for counterexamples
MAX_CONDITION_TEXT = 80


class LogicLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: short-circuit
    and conditional operators."""

    def logical(self, node: ts.Node, used: bool = True) -> Expr:
        op = node.child_by_field_id(F.operator).type
        lnode = node.child_by_field_id(F.left)
        rnode = node.child_by_field_id(F.right)
        left = self.rvalue(lnode)
        cp = self.checkpoint()
        right = self.rvalue(rnode)
        if len(self.instrs) == cp.instrs and not self.discard:
            return binary(op, truth(left), truth(right), INT)
        if self.discard:
            return Const(0, INT)
        self.rollback(cp)
        res = self.temp(INT)
        rhs, short, end = self.label(), self.label(), self.label()
        span = self.span(node)
        c = self.cond_expr(left)
        self.emit(IfGoto(c, rhs, short, span) if op == "&&" else IfGoto(c, short, rhs, span))
        self.place(rhs)
        right = self.rvalue(rnode)
        if used:
            self.emit(Assign(res, truth(right), span))
        self.emit(Goto(end, span))
        self.place(short)
        if used:
            self.emit(Assign(res, Const(0 if op == "&&" else 1, INT), span))
        self.place(end)
        return res

    def cond(self, node: ts.Node, then, other) -> None:
        """Branch to label ``then`` if ``node`` is non-zero, else to ``other``."""
        node = strip_parens(node)
        kind = node.type
        if kind == "binary_expression":
            op = node.child_by_field_id(F.operator).type
            if op in ("&&", "||"):
                cp = self.checkpoint()
                left = self.rvalue(node.child_by_field_id(F.left))
                mid = len(self.instrs)
                right = self.rvalue(node.child_by_field_id(F.right))
                if len(self.instrs) == mid or self.discard:
                    e = binary(op, truth(left), truth(right), INT)
                    self.branch_on(e, then, other, node)
                    return
                self.rollback(cp)  # the right side has effects: branch on the left first
                rhs = self.label()
                if op == "&&":
                    self.cond(node.child_by_field_id(F.left), rhs, other)
                else:
                    self.cond(node.child_by_field_id(F.left), then, rhs)
                self.place(rhs)
                self.cond(node.child_by_field_id(F.right), then, other)
                return
        elif kind == "unary_expression" and node.child_by_field_id(F.operator).type == "!":
            self.cond(node.child_by_field_id(F.argument), other, then)
            return
        self.branch_on(self.rvalue(node), then, other, node)

    def branch_on(self, e: Expr, then, other, node: ts.Node) -> None:
        e = self.cond_expr(e)
        span = self.span(node)
        if isinstance(e, Const):
            self.emit(Goto(then if e.value else other, span))
        else:
            text = _written(readable(self.text(node)))
            self.emit(IfGoto(e, then, other, span, text=text if len(text) <= MAX_CONDITION_TEXT else ""))

    def conditional(self, node: ts.Node, used: bool = True) -> Expr:
        cnode = node.child_by_field_id(F.condition)
        anode = node.child_by_field_id(F.consequence)
        bnode = node.child_by_field_id(F.alternative)
        c = self.rvalue(cnode)
        if anode is None:  # GNU a ?: b
            c = self.materialise(c, cnode)
        cp = self.checkpoint()
        a = self.rvalue(anode) if anode is not None else c
        b = self.rvalue(bnode)
        t = self.result_type(a, b)
        if len(self.instrs) == cp.instrs and isinstance(t, SCALAR_TYPES) and not self.discard:
            return self.ite(self.cond_expr(c), self.conv(a, t), self.conv(b, t), t)
        if self.discard:
            return self.nondet(t, node)
        self.rollback(cp)
        res = self.temp(t) if isinstance(t, SCALAR_TYPES) and used else None
        la, lb, end = self.label(), self.label(), self.label()
        span = self.span(node)
        self.emit(IfGoto(self.cond_expr(c), la, lb, span))
        self.place(la)
        a = self.rvalue(anode) if anode is not None else c
        if res is not None:
            self.emit(Assign(res, self.conv(a, t), span))
        self.emit(Goto(end, span))
        self.place(lb)
        if res is not None:
            b = self.rvalue(bnode)
            self.emit(Assign(res, self.conv(b, t), span))
        else:
            self.effect(bnode)
        self.place(end)
        return res if res is not None else Const(0, INT)

    def ite(self, c: Expr, a: Expr, b: Expr, t: CType) -> Expr:
        if isinstance(c, Const):
            return a if c.value else b
        return Ite(c, a, b, t)

    def result_type(self, a: Expr, b: Expr) -> CType:
        at, bt = a.type, b.type
        if isinstance(at, (IntType, FloatType)) and isinstance(bt, (IntType, FloatType)):
            return self.ct.common(at, bt)
        if isinstance(at, PtrType):
            return at
        if isinstance(bt, PtrType):
            return bt
        return at if isinstance(at, SCALAR_TYPES) else bt if isinstance(bt, SCALAR_TYPES) else VOID


def _written(text: str) -> str:
    """A condition's text on one line, as tree-sitter saw it (macros expanded),
    without the spaces an expansion puts inside parentheses."""
    return re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", " ".join(text.split())))
