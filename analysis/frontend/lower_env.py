"""What the lowering knows while it walks a translation unit: symbols and
scopes, source spans, and the program-wide state (globals, strings, findings,
function-pointer flows) shared by every function's lowering."""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter as ts

from distaff.analysis.frontend.printable import printable
from distaff.analysis.ir import (
    CType,
    DataModel,
    Finding,
    FindingKind,
    FuncType,
    GlobalVar,
    InitValue,
    Span,
    StructType,
)
from distaff.analysis.frontend.ctypes import CTypes


class NotConstant(Exception):
    """A file-scope expression needed an instruction: it is not constant."""


# --------------------------------------------------------------------------
# Symbols


@dataclass(slots=True)
class VarSym:
    """A C variable. ``storage`` is ``reg`` (a register named ``ir_name``),
    ``stack`` (a stack object), ``global`` (a global object), ``vla`` (a
    register holding the address of an ALLOCA'd array) or ``ref`` (a
    register holding the address of the object: a struct parameter, see
    :mod:`distaff.analysis.frontend.lower_aggregate`)."""

    name: str
    type: CType
    storage: str
    ir_name: str
    is_float: bool = False
    # "object": the variable is _Atomic (for an array, its elements);
    # "pointee": it points to _Atomic objects; None: neither
    atomic: str | None = None


@dataclass(slots=True)
class FuncSym:
    name: str
    type: FuncType
    is_float: bool = False


@dataclass(slots=True)
class TypedefSym:
    type: CType
    is_float: bool = False
    atomic: bool = False  # an _Atomic type


@dataclass(slots=True)
class EnumConstSym:
    value: int


Symbol = VarSym | FuncSym | TypedefSym | EnumConstSym


class Scope:
    """A block scope: ordinary identifiers and struct/union/enum tags."""

    __slots__ = ("names", "tags", "parent")

    def __init__(self, parent: "Scope | None" = None) -> None:
        self.names: dict[str, Symbol] = {}
        self.tags: dict[str, CType] = {}
        self.parent = parent

    def lookup(self, name: str) -> Symbol | None:
        s: Scope | None = self
        while s is not None:
            sym = s.names.get(name)
            if sym is not None:
                return sym
            s = s.parent
        return None

    def lookup_tag(self, name: str) -> CType | None:
        s: Scope | None = self
        while s is not None:
            t = s.tags.get(name)
            if t is not None:
                return t
            s = s.parent
        return None


# --------------------------------------------------------------------------
# Spans


class Spans:
    """Maps tree-sitter nodes of the preprocessed text to source spans."""

    def __init__(self, preprocessed) -> None:
        self._position = preprocessed.position
        self._cache: dict[tuple[int, int, bool], tuple[str, int, int]] = {}
        self._spans: dict[tuple[int, int], Span] = {}
        self._end_keyword = True

    def point(self, row: int, col: int, end: bool = False) -> tuple[str, int, int]:
        """The source position of a point; an ``end`` point inside a macro
        expansion maps to the end of the invocation where the map knows how."""
        key = (row, col, end)
        p = self._cache.get(key)
        if p is None:
            try:
                if end and self._end_keyword:
                    try:
                        p = self._position(row, col, end=True)
                    except TypeError:
                        self._end_keyword = False
                if p is None:
                    p = self._position(row, col)
            except Exception:  # a position map must never sink the lowering
                p = ("<unknown>", row + 1, col + 1)
            self._cache[key] = p
        return p

    def span(self, node: ts.Node) -> Span:
        key = (node.start_byte, node.end_byte)
        sp = self._spans.get(key)
        if sp is None:
            sp = self._spans[key] = self._span(node)
        return sp

    def _span(self, node: ts.Node) -> Span:
        (sr, sc), (er, ec) = node.start_point, node.end_point
        f, l, c = self.point(sr, sc)
        f2, l2, c2 = self.point(er, ec, True)
        if f2 != f or (l2, c2) < (l, c):  # ends inside another file or a macro
            l2, c2 = l, c + 1
        return Span(f, l, c, l2, c2)


# --------------------------------------------------------------------------
# Program-wide state


@dataclass(slots=True)
class GlobalDef:
    """A global object being built: tentative until its definition is seen."""

    name: str
    type: CType
    span: Span
    init: tuple[InitValue, ...] = ()
    defined: bool = False

    def freeze(self, thread_local: bool = False) -> GlobalVar:
        return GlobalVar(self.name, self.type, self.init, self.span, thread_local=thread_local)


@dataclass
class RawSite:
    """A pthread_create call met during lowering; routines resolved later."""

    func: str
    pc: int
    sources: set
    span: Span


@dataclass
class Unit:
    """State shared by the lowering of one translation unit."""

    path: str
    data_model: DataModel
    spans: Spans
    ct: CTypes
    findings: list[Finding] = field(default_factory=list)
    finding_keys: set = field(default_factory=set)
    globals: dict[str, GlobalDef] = field(default_factory=dict)
    strings: list[GlobalVar] = field(default_factory=list)
    records: dict[str, StructType] = field(default_factory=dict)
    record_names: set = field(default_factory=set)
    float_fields: set = field(default_factory=set)
    atomic_fields: set = field(default_factory=set)
    thread_locals: set = field(default_factory=set)  # names of thread-local globals  # (struct name, field) of _Atomic fields
    bit_fields: set = field(default_factory=set)
    # struct name -> its anonymous members (ctypes.layout_record's ``anonymous``)
    anonymous: dict = field(default_factory=dict)
    defined: set = field(default_factory=set)
    func_types: dict[str, FuncType] = field(default_factory=dict)
    externals: dict[str, None] = field(default_factory=dict)
    sites: list[RawSite] = field(default_factory=list)
    # function-pointer flows: location key -> {("fn", name) or another key}
    flows: dict = field(default_factory=dict)
    address_taken_funcs: dict[str, None] = field(default_factory=dict)
    referenced: set = field(default_factory=set)  # defined functions called or addressed
    literals: dict[bytes, tuple] = field(default_factory=dict)

    def finding(self, kind: FindingKind, message: str, node: ts.Node | Span) -> None:
        span = node if isinstance(node, Span) else self.spans.span(node)
        key = (kind, message, span)
        if key not in self.finding_keys:
            self.finding_keys.add(key)
            self.findings.append(Finding(kind, printable(message), span))

    def unsupported(self, node: ts.Node | Span, message: str) -> None:
        self.finding(FindingKind.UNSUPPORTED, message, node)

    def unique_record_name(self, base: str) -> str:
        name, n = base, 0
        while name in self.record_names:
            n += 1
            name = f"{base}.{n}"
        self.record_names.add(name)
        return name

    def unique_global_name(self, base: str) -> str:
        name, n = base, 0
        while name in self.globals:
            n += 1
            name = f"{base}.{n}"
        return name

    def flow(self, key, source) -> None:
        self.flows.setdefault(key, set()).add(source)
