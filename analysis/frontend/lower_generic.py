"""Lowering of C11's generic selection, ``_Generic(e, T1: a, T2: b, default: c)``.

The controlling expression is not evaluated; its type after lvalue
conversion (qualifiers and ``_Atomic`` dropped, arrays and functions
decayed to pointers) picks the association whose type name is the same
type, else ``default``. Only the chosen expression is lowered.

The IR's types are coarser than C's: they keep no qualifiers, ``char`` and
``signed char`` are one type, so are ``long`` and ``long long`` (and ``int``
and ``long`` under ILP32). A selection that hangs on such a difference --
an association has the controlling expression's IR type and that type
stands for several C types, or two associations have it -- is reported
unsupported rather than guessed (none having it, ``default`` is C's choice
too). An association whose
type name is ``_Atomic`` never matches (the controlling type has lost its
``_Atomic``): kernel-style code uses that to get an atomic's plain type.
"""

from __future__ import annotations

import tree_sitter as ts

from distaff.analysis.ir import ArrayType, Expr, FuncType, IntType, PtrType, StructType
from distaff.analysis.frontend.ctypes import INT
from distaff.analysis.frontend.parse import F


class GenericLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: ``_Generic``."""

    def generic_expr(self, node: ts.Node) -> Expr:
        chosen = self.generic_choice(node)
        if chosen is None:
            return self.nondet(INT, node)
        return self.rvalue(chosen)

    def generic_choice(self, node: ts.Node) -> ts.Node | None:
        """The expression ``_Generic`` selects, or None (reported unsupported)."""
        kids = node.named_children
        if len(kids) < 3 or len(kids) % 2 == 0:
            self.unsupported(node, "a _Generic selection distaff cannot read")
            return None
        t = self.type_of(kids[0], keep_findings=True)
        if isinstance(t, ArrayType):
            t = self.ptr(t.elem)
        elif isinstance(t, FuncType):
            t = self.ptr(t)
        t = self.complete(t)
        default = None
        matches: list[ts.Node] = []
        for tnode, expr in zip(kids[1::2], kids[2::2]):
            spec = tnode.child_by_field_id(F.type)
            if spec is not None and spec.type == "type_identifier" and spec.text == b"default" \
                    and tnode.child_by_field_id(F.declarator) is None:
                default = expr
                continue
            at, _ = self.type_descriptor(tnode)
            at = self.complete(at)
            if at == t and not (self.atomic_base(tnode) and not isinstance(at, PtrType)):
                matches.append(expr)
        if len(matches) > 1 or (matches and not self._exact_type(t)):
            self.unsupported(node, f"a _Generic selection on {t}, which distaff's types do not tell apart "
                                   "from other C types")
            return None
        if matches:
            return matches[0]
        if default is not None:
            return default
        self.unsupported(node, f"no association of the _Generic selection matches {t}")
        return None

    def _exact_type(self, t) -> bool:
        """Does the IR type ``t`` stand for one C type only (unqualified)?"""
        if isinstance(t, IntType):
            if t.is_bool or t.bits == 16:
                return True
            if t.bits == 8:
                return not t.signed  # (char and signed char are one here)
            if t.bits == 32:
                return self.ct.long.bits != 32
            return False  # long and long long
        return isinstance(t, StructType) and t.complete


__all__ = ["GenericLowering"]
