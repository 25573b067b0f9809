"""Jumps to places not yet placed.

The lowering emits its jumps and branches before it knows where their targets
end up: it emits :class:`Goto` and :class:`IfGoto` with :class:`Label` targets,
and :meth:`distaff.analysis.frontend.lower_func.Lowerer.finish` turns them into
the IR's :class:`~distaff.analysis.ir.Jump` and
:class:`~distaff.analysis.ir.Branch`, whose targets are pcs.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis.ir import Expr, Kind, Span


class Label:
    """A position in the buffer, placed once; jumps to it are resolved at the end."""

    __slots__ = ("pc",)

    def __init__(self) -> None:
        self.pc: int | None = None


@dataclass(frozen=True, slots=True)
class Goto:
    """A :class:`~distaff.analysis.ir.Jump` to ``target``."""

    target: Label
    span: Span
    kind: Kind = Kind.LOCAL


@dataclass(frozen=True, slots=True)
class IfGoto:
    """A :class:`~distaff.analysis.ir.Branch` to ``then`` or ``other``."""

    cond: Expr
    then: Label
    other: Label
    span: Span
    kind: Kind = Kind.BRANCH
    text: str = ""
