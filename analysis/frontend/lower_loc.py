"""Where a C expression lives: a register or memory at an address; and
small helpers on syntax nodes shared by the lowering modules."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from distaff.analysis.ir import CType, Expr, PtrType, Reg, StructType


@dataclass(frozen=True, slots=True)
class RegLoc:
    reg: Reg

    @property
    def type(self) -> CType:
        return self.reg.type


@dataclass(frozen=True, slots=True)
class MemLoc:
    """Memory of ``type`` at ``addr`` (whose type is a pointer to ``type``).
    ``is_float``: a floating-point object, whose reads are fresh symbols."""

    addr: Expr
    type: CType
    is_float: bool = False


def same_pointer(a: CType, b: CType) -> bool:
    """Pointers to the same struct, one seen before its definition was complete."""
    return (
        isinstance(a, PtrType) and isinstance(b, PtrType)
        and isinstance(a.pointee, StructType) and isinstance(b.pointee, StructType)
        and a.pointee.name == b.pointee.name
    )


def strip_parens(node: ts.Node) -> ts.Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_children[0]
        if inner.type == "compound_statement":
            return node
        node = inner
    return node
