"""Structs and unions as values: where C uses one whole (an argument, a
result, the value of ``?:``, of a comma or of a statement expression), the
lowering works with its location, copying it as assignment does
(:meth:`~distaff.analysis.frontend.lower_expr.ExprLowering.copy_aggregate`:
scalar by scalar up to MAX_SPLIT_SCALARS, so each scalar of a shared struct
read or written is its own access).

The IR has no aggregate values, so calls pass them through memory:

* An argument of aggregate type is copied into a temporary stack object of
  the caller (``.arg``, ``.arg.1`` ...), whose address is passed; the
  callee's parameter is a register holding that address, and the parameter
  is the object there (a callee writing to it changes only the copy).
* A function returning an aggregate has a hidden first parameter ``%ret``,
  the address of a temporary of the caller's (``.ret`` ...) that ``return e``
  copies ``e`` into; the call's value is that temporary. A function without
  a body gets the temporary's address as its first argument, so what it
  holds afterwards is the function's unknown result.

``Function.type`` keeps the C types (aggregate parameters and result);
``Function.params`` and a call's arguments are the registers and values of
this convention, position for position.
"""

from __future__ import annotations

import tree_sitter as ts

from distaff.analysis.ir import Addr, CType, Expr, FuncType, ObjKind, PtrType, StackVar, StructType
from distaff.analysis.frontend.lower_env import VarSym
from distaff.analysis.frontend.lower_loc import MemLoc, strip_parens
from distaff.analysis.frontend.labels import Goto
from distaff.analysis.frontend.parse import F

# expressions whose value may be an aggregate (others never are)
_MAYBE_AGGREGATE = frozenset({
    "identifier", "field_expression", "subscript_expression", "pointer_expression", "call_expression",
    "compound_literal_expression", "parenthesized_expression", "comma_expression", "conditional_expression",
    "assignment_expression",
})


class AggregateLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: aggregate values."""

    def is_aggregate(self, t: CType | None) -> bool:
        return isinstance(self.complete(t) if t is not None else None, StructType)

    def value(self, node: ts.Node) -> Expr | MemLoc:
        """Expression ``node`` lowered: the location of its value when that
        is an aggregate, else the value (as :meth:`rvalue`)."""
        n = strip_parens(node)
        kind = n.type
        if kind == "call_expression":
            return self.call(n, used=True, whole=True)
        if kind == "comma_expression":
            self.effect(n.child_by_field_id(F.left))
            return self.value(n.child_by_field_id(F.right))
        if kind == "parenthesized_expression":  # ({ ... }) (strip_parens stops there)
            inner = n.named_children[0] if n.named_child_count == 1 else None
            if inner is not None and inner.type == "compound_statement":
                return self.statement_expr(inner, whole=True)
        if kind == "conditional_expression" and n.child_by_field_id(F.consequence) is not None:
            t = self.type_of(n.child_by_field_id(F.consequence))
            if self.is_aggregate(t):
                return self.aggregate_conditional(n, t)
        if kind == "assignment_expression":
            return self.assign(n, whole=True)
        if kind == "identifier":
            sym = self.scope.lookup(self.text(n))
            if isinstance(sym, VarSym) and self.is_aggregate(sym.type):
                return self.ident_loc(n, sym.name, sym)
        elif kind in ("field_expression", "subscript_expression", "compound_literal_expression"):
            loc = self.lvalue(n)
            return loc if isinstance(loc, MemLoc) and self.is_aggregate(loc.type) else self.load(loc, n)
        elif kind == "pointer_expression" and n.child_by_field_id(F.operator).type == "*":
            p = self.rvalue(n.child_by_field_id(F.argument))
            if isinstance(p.type, PtrType) and self.is_aggregate(p.type.pointee):
                return self.deref(p, n)
            if isinstance(p.type, PtrType) and isinstance(p.type.pointee, FuncType):
                return p
            return self.load(self.deref(p, n), n)
        return self.rvalue(n)

    def may_be_aggregate(self, node: ts.Node) -> bool:
        """Whether expression ``node`` has an aggregate type (found without
        lowering it when it can be)."""
        n = strip_parens(node)
        if n.type == "identifier":
            sym = self.scope.lookup(self.text(n))
            return isinstance(sym, VarSym) and self.is_aggregate(sym.type)
        return n.type in _MAYBE_AGGREGATE and self.is_aggregate(self.type_of(n))

    def temporary(self, base: str, t: CType, node: ts.Node) -> MemLoc:
        """A fresh stack object of type ``t`` for a value in flight."""
        name = self.fresh_name(base)
        self.stack.append(StackVar(name, t, self.span(node)))
        return MemLoc(Addr(name, ObjKind.STACK, self.ptr(t)), t)

    def aggregate_argument(self, node: ts.Node, t: CType | None) -> Expr:
        """The address of a copy of argument ``node`` (of aggregate type
        ``t``, or its own when None: a variadic argument)."""
        t = self.complete(t) if t is not None else self.complete(self.type_of(node))
        loc = self.temporary(".arg", t, node)
        self.copy_aggregate(loc, node, node)
        return loc.addr

    def result_slot(self, ft: FuncType, node: ts.Node) -> MemLoc | None:
        """The temporary a call of a function of type ``ft`` returns its
        aggregate result in (None when the result is not an aggregate)."""
        if not self.is_aggregate(ft.ret):
            return None
        return self.temporary(".ret", self.complete(ft.ret), node)

    def aggregate_conditional(self, node: ts.Node, t: CType) -> MemLoc:
        """``c ? a : b`` of aggregate type ``t``: the chosen arm copied into a
        temporary."""
        res = self.temporary(".cond", self.complete(t), node)
        la, lb, end = self.label(), self.label(), self.label()
        span = self.span(node)
        self.cond(node.child_by_field_id(F.condition), la, lb)
        self.place(la)
        self.copy_aggregate(res, node.child_by_field_id(F.consequence), node)
        self.emit(Goto(end, span))
        self.place(lb)
        self.copy_aggregate(res, node.child_by_field_id(F.alternative), node)
        self.place(end)
        return res

