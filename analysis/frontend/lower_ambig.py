"""Operator chains the parser misread for want of knowing type names.

tree-sitter parses C without a symbol table, so ``(T)-a`` with ``T`` a
typedef can come out as the subtraction ``(T) - a``, and the operands around
it are then grouped by the precedence of binary ``-``: ``1 + (T)-a`` becomes
``(1 + (T)) - a`` and ``(T)-a*b`` may become ``(T) - (a*b)``. A cast with a
number literal, ``sizeof(int)-1``, is read as ``sizeof((int)-1)`` whatever the
type (the literal ``-1`` is one token), though ``sizeof (type)`` cannot take
a cast as its operand.

The repair works on a whole chain of binary operators (a maximal subtree of
``binary_expression`` nodes other than ``&&``/``||``, which have the lowest
precedence and never group around a cast): it is flattened to its operands and
operators in source order, every parenthesised typedef name followed by
``-``, ``+``, ``*`` or ``&`` is joined with the next operand into a cast of
that unary operation (right to left, so ``(T)-(U)-a`` nests), a
``sizeof(type)`` holding a cast is split back into the size, the operator and
the operand, and the sequence is grouped again by C's precedences. Chains
without any of these are lowered as parsed.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from distaff.analysis.ir import ArrayType, Const, CType, Expr, FuncType, IntType, PtrType, SCALAR_TYPES, type_size
from distaff.analysis.frontend.lower_const import cast, const, unary
from distaff.analysis.frontend.lower_env import TypedefSym
from distaff.analysis.frontend.lower_literals import parse_int_literal
from distaff.analysis.frontend.parse import F

# C's binary operators below the unary ones, tightest first; all left-associative
PRECEDENCE = {
    "*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8,
    "<": 7, "<=": 7, ">": 7, ">=": 7, "==": 6, "!=": 6, "&": 5, "^": 4, "|": 3,
}
UNARY_AFTER_CAST = frozenset({"-", "+", "*", "&"})


@dataclass(frozen=True, slots=True)
class CastOf:
    """``(type) op operand``: a cast of a unary operation."""

    type: CType
    op: str
    operand: object  # an item
    node: ts.Node


@dataclass(frozen=True, slots=True)
class SizeOf:
    """``sizeof (type)``."""

    type: CType
    node: ts.Node


@dataclass(frozen=True, slots=True)
class Literal:
    """A number literal's text without the sign the lexer had glued to it."""

    text: str
    node: ts.Node


@dataclass(frozen=True, slots=True)
class Wrapped:
    """Prefix operators and casts (``wrappers``, outermost first: unary and
    pointer expressions, cast expressions, or a type for a cast the parser
    read as a call) applied to ``inner``."""

    wrappers: tuple
    inner: object


@dataclass(frozen=True, slots=True)
class Named:
    """A variable the parser read as the type of a cast (``(b)-1``)."""

    node: ts.Node


@dataclass(frozen=True, slots=True)
class Apply:
    """``left op right`` of regrouped items."""

    op: str
    left: object
    right: object


def flatten(node: ts.Node, inner: set[int] | None = None) -> tuple[list, list[str]]:
    """The operands (nodes) and operators of the chain rooted at ``node``, in
    source order (iteratively: generated chains are long). The ids of the
    chain's binary nodes below ``node`` are added to ``inner``."""
    items: list = []
    ops: list[str] = []
    stack: list = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, str):
            ops.append(n)
            continue
        if n.type == "binary_expression":
            op = n.child_by_field_id(F.operator).type
            if op in PRECEDENCE:
                if inner is not None and n is not node:
                    inner.add(n.id)
                stack.extend((n.child_by_field_id(F.right), op, n.child_by_field_id(F.left)))
                continue
        items.append(n)
    return items, ops


def regroup(items: list, ops: list[str]):
    """``items`` joined by ``ops`` by C's precedences (left-associative)."""
    out: list = [items[0]]
    pending: list[str] = []
    for op, item in zip(ops, items[1:]):
        while pending and PRECEDENCE[pending[-1]] >= PRECEDENCE[op]:
            right = out.pop()
            out.append(Apply(pending.pop(), out.pop(), right))
        pending.append(op)
        out.append(item)
    while pending:
        right = out.pop()
        out.append(Apply(pending.pop(), out.pop(), right))
    return out[0]


class AmbiguityLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: misread casts."""

    chain_inner: set[int]

    def typedef_paren(self, node) -> CType | None:
        if isinstance(node, ts.Node) and node.type == "parenthesized_expression":
            return self.typedef_named(node)
        return None

    def split_prefix(self, x: ts.Node) -> tuple[str, object] | None:
        """``x`` as a binary operator and its right operand, when it starts
        with one (``-a``, ``*p``, ``&v``, the literal ``-1``)."""
        if x.type in ("unary_expression", "pointer_expression"):
            op = x.child_by_field_id(F.operator).type
            if op in UNARY_AFTER_CAST:
                return op, x.child_by_field_id(F.argument)
        if x.type == "number_literal":
            text = self.text(x)
            if text[:1] in ("-", "+"):
                return text[0], Literal(text[1:].lstrip(), x)
        return None

    def sizeof_cast(self, node: ts.Node) -> list | None:
        """The items ``[SizeOf(type), op, operand]`` of a ``sizeof(type) op x``
        that the parser read as ``sizeof((type) op x)``; None for any other node."""
        if node.type != "sizeof_expression":
            return None
        value = node.child_by_field_id(F.value)
        if value is None or value.type != "cast_expression":
            return None
        split = self.split_prefix(value.child_by_field_id(F.value))
        if split is None:
            return None
        t, _ = self.type_descriptor(value.child_by_field_id(F.type))
        return [SizeOf(t, node), split[0], split[1]]

    def value_cast(self, node: ts.Node) -> list | None:
        """The items ``[Named(v), op, operand]`` of a ``(v) op x`` that the
        parser read as a cast to a type named like the variable ``v``."""
        if node.type != "cast_expression":
            return None
        desc = node.child_by_field_id(F.type)
        if desc is None or desc.named_child_count != 1:
            return None
        name = desc.named_children[0]
        if name.type != "type_identifier" or desc.child_by_field_id(F.declarator) is not None:
            return None
        sym = self.scope.lookup(self.text(name))
        if sym is None or isinstance(sym, TypedefSym):
            return None
        split = self.split_prefix(node.child_by_field_id(F.value))
        if split is None:
            return None
        return [Named(name), split[0], split[1]]

    def typedef_tail(self, node) -> tuple[tuple, CType] | None:
        """For an operand that ends in a parenthesised typedef name, perhaps
        under prefix operators or casts (``-(T)``, ``(U)(T)``, ``(U)(T)`` read
        as a call): the wrappers (outermost first) and the type."""
        if not isinstance(node, ts.Node):
            return None
        t = self.typedef_paren(node)
        if t is not None:
            return (), t
        if node.type in ("unary_expression", "pointer_expression", "cast_expression"):
            inner = self.typedef_tail(node.child_by_field_id(
                F.value if node.type == "cast_expression" else F.argument))
            return ((node,) + inner[0], inner[1]) if inner is not None else None
        if node.type == "call_expression":
            outer = self.typedef_paren(node.child_by_field_id(F.function))
            args = node.child_by_field_id(F.arguments)
            named = [a for a in args.named_children if a.type != "comment"] if args is not None else []
            if outer is not None and len(named) == 1 and named[0].type == "identifier":
                t = self.typedef_named(named[0])
                if t is not None:
                    return (outer,), t
        return None

    def misread_chain(self, node: ts.Node) -> Expr | None:
        """The value of the chain rooted at ``node`` if the parser misread a
        cast or sizeof in it (see the module docstring), else None (nothing
        emitted). A chain is looked at once, from its root: its inner binary
        nodes are remembered and skipped when lowered."""
        if node.id in self.chain_inner:
            self.chain_inner.discard(node.id)
            return None
        inner: set[int] = set()
        items, ops = flatten(node, inner)
        found = False
        k = 0
        while k < len(items):
            parts = None
            if isinstance(items[k], ts.Node):
                parts = self.sizeof_cast(items[k]) or self.value_cast(items[k])
            if parts is not None:
                items[k:k + 1] = [parts[0], parts[2]]
                ops.insert(k, parts[1])
                found = True
            k += 1
        for k in range(len(ops) - 1, -1, -1):
            tail = self.typedef_tail(items[k]) if ops[k] in UNARY_AFTER_CAST else None
            if tail is not None:
                wrappers, t = tail
                c = CastOf(t, ops[k], items[k + 1], items[k])
                items[k:k + 2] = [Wrapped(wrappers, c) if wrappers else c]
                del ops[k]
                found = True
        if not found:
            self.chain_inner |= inner
            return None
        return self.lower_item(regroup(items, ops), node)

    def lower_item(self, item, node: ts.Node) -> Expr:
        if isinstance(item, ts.Node):
            return self.rvalue(item)
        if isinstance(item, Apply):
            left = self.lower_item(item.left, node)
            right = self.lower_item(item.right, node)
            return self.bounded(self.arith(item.op, left, right, node), node)
        if isinstance(item, SizeOf):
            return self.size_of_type(item.type, item.node)
        if isinstance(item, Named):
            return self.identifier(item.node)
        if isinstance(item, Wrapped):
            e = self.lower_item(item.inner, node)
            for w in reversed(item.wrappers):
                e = self.wrap(w, e)
            return e
        if isinstance(item, Literal):
            value, t = parse_int_literal(item.text, self.ct)
            if value is None:
                self.unsupported(item.node, f"number literal {item.text}")
                return const(0, t)
            return const(value, t)
        return self.cast_of_item(item, node)

    def cast_of_item(self, c: CastOf, node: ts.Node) -> Expr:
        if isinstance(c.operand, ts.Node):
            return self.cast_of_unary(c.type, c.op, c.operand, c.node)
        if c.op == "&":
            self.unsupported(c.node, "address of a value")
            return Const(0, self.ct.void_ptr)
        e = self.lower_item(c.operand, node)
        if c.op == "*":
            if not (isinstance(e.type, PtrType) and isinstance(e.type.pointee, FuncType)):
                e = self.load(self.deref(e, c.node), c.node)
        elif isinstance(e.type, IntType):
            pt = self.ct.promote(e.type)
            e = unary("-", cast(e, pt), pt) if c.op == "-" else cast(e, pt)
        return self.cast_value(c.type, e)

    def wrap(self, w, e: Expr) -> Expr:
        """A prefix operator or cast ``w`` (see :class:`Wrapped`) applied to ``e``."""
        if not isinstance(w, ts.Node):
            return self.cast_value(w, e)
        if w.type == "cast_expression":
            t, _ = self.type_descriptor(w.child_by_field_id(F.type))
            return self.cast_value(t, e)
        op = w.child_by_field_id(F.operator).type
        if op == "*":
            if isinstance(e.type, PtrType) and isinstance(e.type.pointee, FuncType):
                return e
            return self.load(self.deref(e, w), w)
        if op == "&":
            self.unsupported(w, "address of a value")
            return Const(0, self.ct.void_ptr)
        return self.unary_value(op, e, w)

    def cast_value(self, t: CType, e: Expr) -> Expr:
        if not isinstance(t, SCALAR_TYPES) or not isinstance(e.type, SCALAR_TYPES):
            return e
        return self.conv(e, t) if isinstance(t, IntType) and t.is_bool else cast(e, t)

    def size_of_type(self, t: CType, node: ts.Node) -> Expr:
        t = self.complete(t)
        if isinstance(t, ArrayType) and t.length is None:
            self.unsupported(node, "sizeof of an array of unknown size")
        if isinstance(t, FuncType):
            return const(1, self.ct.size_t)
        return const(type_size(t), self.ct.size_t)


__all__ = ["AmbiguityLowering", "PRECEDENCE", "flatten", "regroup"]
