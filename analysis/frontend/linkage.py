"""The linkage of a translation unit's file-scope names, read off its syntax tree.

The IR keeps no storage classes: a :class:`~distaff.analysis.ir.Program` names its
functions and globals by their C names whatever their linkage. Linking several
units (:mod:`distaff.analysis.link`) needs to know, as a C linker does, which
names each unit shares with the others:

* ``internal``: names declared ``static`` at file scope (functions and objects),
  and functions defined ``inline`` without ``extern`` (C99's inline
  definitions, header material each unit keeps to itself);
* ``initialized``: objects defined with an initialiser (a definition);
* ``tentative``: objects declared without ``extern`` and without initialiser
  (tentative definitions, which the linker merges);
* ``declared``: objects declared ``extern`` only;
* ``defined_at``: where each object with an initialiser is defined (the
  lowered global's span is that of its first declaration, often a header's
  ``extern``), for a linker's message about two definitions.

Every other global of the lowered program (static locals ``f.x``, string
literals ``.str.N``, compound literals) is internal by construction: its name
is not a C identifier. Never raises: a node it cannot read is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from distaff.analysis.frontend.parse import F
from distaff.analysis.ir import Span

_WRAPPERS = frozenset({"parenthesized_declarator", "attributed_declarator"})
_INLINE = frozenset({"inline", "__inline", "__inline__"})


@dataclass(frozen=True, slots=True)
class Linkage:
    """What one translation unit says of its file-scope names (module docstring)."""

    internal: frozenset[str] = frozenset()
    initialized: frozenset[str] = frozenset()
    tentative: frozenset[str] = frozenset()
    declared: frozenset[str] = frozenset()
    defined_at: tuple[tuple[str, Span], ...] = ()

    def definition(self, name: str) -> Span | None:
        """Where the object ``name`` is defined with an initialiser, if it is."""
        return next((span for n, span in self.defined_at if n == name), None)


def declarator_name(d: ts.Node | None) -> tuple[str | None, bool]:
    """The identifier a declarator declares, and whether it declares a
    function (its innermost derived type is a function declarator)."""
    function = False
    while d is not None:
        kind = d.type
        if kind == "identifier":
            return d.text.decode("utf-8", "replace"), function
        if kind in _WRAPPERS:
            d = d.named_children[0] if d.named_children else None
            continue
        if kind == "function_declarator":
            inner = d.child_by_field_id(F.declarator)
            # int (*fp)(void) declares a pointer: only a name right inside is a function
            function = inner is not None and inner.type in ("identifier", "parenthesized_declarator",
                                                            "attributed_declarator")
        elif kind in ("pointer_declarator", "array_declarator"):
            function = False
        d = d.child_by_field_id(F.declarator)
    return None, function


def _storage(node: ts.Node) -> set[str]:
    return {c.text.decode("utf-8", "replace") for c in node.children if c.type == "storage_class_specifier"}


def linkage_of(root: ts.Node, position=None) -> Linkage:
    """The :class:`Linkage` of the file-scope declarations under ``root``;
    ``position(row, column) -> (file, line, column)`` maps a point of the
    parsed text to the source (the preprocessor's map; without it no
    ``defined_at``)."""
    internal: set[str] = set()
    defined_at: dict[str, Span] = {}
    initialized: set[str] = set()
    tentative: set[str] = set()
    declared: set[str] = set()
    stack = list(reversed(root.named_children))
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("linkage_specification", "declaration_list", "preproc_if", "preproc_ifdef", "preproc_else"):
            stack.extend(reversed(node.named_children))
            continue
        if kind not in ("function_definition", "declaration"):
            continue
        storage = _storage(node)
        if kind == "function_definition":
            name, _ = declarator_name(node.child_by_field_id(F.declarator))
            if name is not None and ("static" in storage or (storage & _INLINE and "extern" not in storage)):
                internal.add(name)
            continue
        if "typedef" in storage:
            continue
        for d in node.children_by_field_id(F.declarator):
            init = d.type == "init_declarator"
            name, function = declarator_name(d.child_by_field_id(F.declarator) if init else d)
            if name is None:
                continue
            if "static" in storage:
                internal.add(name)
            if function:
                continue
            if init:
                initialized.add(name)
                if position is not None and name not in defined_at:
                    defined_at[name] = _span(d, position)
            elif "extern" in storage:
                declared.add(name)
            else:
                tentative.add(name)
    return Linkage(frozenset(internal), frozenset(initialized), frozenset(tentative - initialized),
                   frozenset(declared - initialized - tentative), tuple(defined_at.items()))


def _span(node: ts.Node, position) -> Span:
    (row, col), (end_row, end_col) = node.start_point, node.end_point
    file, line, column = position(row, col)
    end_file, end_line, end_column = position(end_row, end_col)
    if end_file != file or (end_line, end_column) < (line, column):
        end_line, end_column = line, column + 1
    return Span(file, line, column, end_line, end_column)


__all__ = ["Linkage", "declarator_name", "linkage_of"]
