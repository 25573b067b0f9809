"""Lowering of initialisers: brace lists (nested, designated, with elided
braces), string literals for char arrays, for globals (static
:class:`ir.InitValue` s) and for locals (a MEMSET of the uncovered bytes, then
one Store per initialised scalar, in order).

An initialiser is first flattened to *items*: (byte offset, type, expression
node) for every scalar it sets, plus whole char arrays set from a string and
whole structs copied from an expression.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from distaff.analysis.ir import (
    SCALAR_TYPES,
    Addr,
    ArrayType,
    Const,
    CType,
    InitValue,
    IntType,
    Intrinsic,
    Op,
    PtrType,
    StructType,
    Kind,
    type_size,
)
from distaff.analysis.frontend.ctypes import INT, normalise
from distaff.analysis.frontend.lower_const import const, is_static_address, ptr_add
from distaff.analysis.frontend.lower_env import GlobalDef, NotConstant
from distaff.analysis.frontend.lower_loc import MemLoc, RegLoc, strip_parens
from distaff.analysis.frontend.parse import F

_STRINGS = ("string_literal", "concatenated_string")
_PTHREAD_INIT = re.compile(r"PTHREAD_\w*INITIALIZER\w*$")

Item = tuple[int, CType, ts.Node]


def _list_items(node: ts.Node) -> list[ts.Node]:
    return [c for c in node.named_children if c.type != "comment"]


def _is_char_array(t: CType) -> bool:
    return isinstance(t, ArrayType) and isinstance(t.elem, IntType) and t.elem.bits == 8


def _apply_resets(items: list) -> list[Item]:
    """Drop the items a later reset marker (node None) covers: a designated
    brace list overrides what was listed before for the same subobject."""
    out: list[Item] = []
    for off, t, node in items:
        if node is None:
            end = off + max(type_size(t), 1)
            out = [it for it in out if not (off <= it[0] < end)]
        else:
            out.append((off, t, node))
    return out


class InitLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: initialisers."""

    # -- flattening ---------------------------------------------------------

    def init_items(self, t: CType, init: ts.Node) -> list[Item]:
        out: list[Item] = []
        if init.type == "initializer_list":
            if isinstance(self.complete(t), (ArrayType, StructType)):
                self._fill(t, 0, _list_items(init), 0, out, True)
            else:
                items = _list_items(init)
                if items:
                    self._element(t, 0, items, 0, out)
        else:
            self._element(t, 0, [init], 0, out)
        if any(node is None for _, _, node in out):
            out = _apply_resets(out)
        return out

    def complete_array(self, t: ArrayType, init: ts.Node | None) -> ArrayType:
        """``t`` (of unknown length) with the length its initialiser gives."""
        if init is None:
            return t
        node = strip_parens(init)
        if node.type in _STRINGS and _is_char_array(t):
            return ArrayType(t.elem, len(self.string_bytes(node)) + 1)
        if node.type == "initializer_list":
            items = _list_items(node)
            if len(items) == 1 and items[0].type in _STRINGS and _is_char_array(t):
                return ArrayType(t.elem, len(self.string_bytes(items[0])) + 1)
            _, n = self._fill(t, 0, items, 0, [], True)
            return ArrayType(t.elem, n)
        return t

    def _fill(self, t: CType, base: int, items: list[ts.Node], pos: int,
              out: list[Item], top: bool) -> tuple[int, int]:
        """Initialise the aggregate ``t`` at ``base`` from ``items[pos:]``: the
        whole braced list when ``top``, else as many items as the elided braces
        take. Returns the next position and the number of elements/fields set
        (the highest index + 1)."""
        t = self.complete(t)
        count = 0
        if isinstance(t, ArrayType):
            esize = type_size(t.elem)
            idx = 0
            while pos < len(items):
                item = items[pos]
                if item.type != "initializer_pair" and t.length is not None and idx >= t.length:
                    break
                if item.type == "initializer_pair":
                    if not top:
                        break
                    desigs = item.children_by_field_id(F.designator)
                    value = item.child_by_field_id(F.value)
                    first = desigs[0] if desigs else None
                    n = self.const_int(first.named_children[0]) if first is not None and \
                        first.type == "subscript_designator" and first.named_children else None
                    if n is None or value is None:
                        self.unsupported(item, "unsupported designator")
                        pos += 1
                        continue
                    idx = n
                    self._designated(t.elem, base + idx * esize, desigs[1:], value, out)
                    pos += 1
                else:
                    pos = self._element(t.elem, base + idx * esize, items, pos, out)
                idx += 1
                count = max(count, idx)
            return pos, count
        if isinstance(t, StructType):
            fields = t.fields
            groups = {g[0]: g for g in self.u.anonymous.get(t.name, ())}
            chosen: dict[int, int] = {}  # anonymous union (its first field) -> the member designated last
            fi = 0
            while pos < len(items):
                item = items[pos]
                if item.type != "initializer_pair" and (fi >= len(fields) or (t.is_union and count)):
                    break
                if item.type == "initializer_pair":
                    if not top:
                        break
                    desigs = item.children_by_field_id(F.designator)
                    value = item.child_by_field_id(F.value)
                    first = desigs[0] if desigs else None
                    fname = first.named_children[0].text.decode() if first is not None and \
                        first.type == "field_designator" and first.named_children else None
                    found = [k for k, f in enumerate(fields) if f.name == fname]
                    if not found or value is None:
                        self.unsupported(item, "unsupported designator")
                        pos += 1
                        continue
                    fi = found[0]
                    f = fields[fi]
                    self._switch_union_member(groups.values(), fi, base, chosen, out)
                    self._designated(f.type, base + f.offset, desigs[1:], value, out)
                    pos += 1
                else:
                    group = groups.get(fi)
                    if group is not None:  # an anonymous member takes one initialiser (or braces) for its fields
                        pos = self._element(group[3], base + group[2], items, pos, out)
                        fi = group[0] + group[1] - 1
                    else:
                        f = fields[fi]
                        pos = self._element(f.type, base + f.offset, items, pos, out)
                fi += 1
                count = max(count, fi)
            return pos, count
        if pos < len(items):
            pos = self._element(t, base, items, pos, out)
        return pos, 1

    def _switch_union_member(self, groups, fi: int, base: int, chosen: dict[int, int], out: list) -> None:
        """Designating field ``fi``, lifted from a member of an anonymous
        union: when the union held another member, that one's values go (a
        reset marker over the union), as a union initialised again does."""
        for first, count, off, gtype in groups:
            if not (gtype.is_union and first <= fi < first + count):
                continue
            member = fi - first
            for inner_first, inner_count, _, _ in self.u.anonymous.get(gtype.name, ()):
                if inner_first <= member < inner_first + inner_count:
                    member = inner_first  # a field of an anonymous struct in the union: that struct
            if chosen.get(first, member) != member:
                out.append((base + off, gtype, None))
            chosen[first] = member

    def _element(self, t: CType, off: int, items: list[ts.Node], pos: int, out: list[Item]) -> int:
        item = items[pos]
        t = self.complete(t)
        aggregate = isinstance(t, (ArrayType, StructType))
        if item.type == "initializer_list":
            sub = _list_items(item)
            if aggregate:
                self._fill(t, off, sub, 0, out, True)
            elif sub:
                self._element(t, off, sub, 0, out)
            return pos + 1
        if item.type == "identifier" and _PTHREAD_INIT.match(item.text.decode()):
            return pos + 1  # the all-zero initialiser of a pthread object
        if aggregate:
            node = strip_parens(item)
            if _is_char_array(t) and node.type in _STRINGS:
                out.append((off, t, node))
                return pos + 1
            if isinstance(t, StructType) and isinstance(self.type_of(item), StructType):
                out.append((off, t, item))
                return pos + 1
            new_pos, _ = self._fill(t, off, items, pos, out, False)
            return new_pos if new_pos > pos else pos + 1
        out.append((off, t, item))
        return pos + 1

    def _designated(self, t: CType, off: int, desigs: list[ts.Node], value: ts.Node, out: list[Item]) -> None:
        for d in desigs:
            t = self.complete(t)
            if d.type == "field_designator" and isinstance(t, StructType) and d.named_children:
                f = t.field(d.named_children[0].text.decode())
                if f is None:
                    self.unsupported(d, "unknown field in designator")
                    return
                off += f.offset
                t = f.type
            elif d.type == "subscript_designator" and isinstance(t, ArrayType) and d.named_children:
                n = self.const_int(d.named_children[0])
                if n is None:
                    self.unsupported(d, "unsupported designator")
                    return
                off += n * type_size(t.elem)
                t = t.elem
            else:
                self.unsupported(d, "unsupported designator")
                return
        if value.type == "initializer_list":
            out.append((off, t, None))  # a braced list re-initialises the whole subobject
            self._fill(t, off, _list_items(value), 0, out, True)
        else:
            self._element(t, off, [value], 0, out)

    # -- globals ------------------------------------------------------------

    def define_static(self, name: str, t: CType, init: ts.Node | None, node: ts.Node) -> CType:
        """Define global ``name`` of type ``t`` with its static initialiser."""
        if isinstance(t, ArrayType) and t.length is None and init is not None:
            t = self.complete_array(t, init)
        values = self.static_init(t, init, ("var", None, name)) if init is not None else ()
        g = self.u.globals.get(name)
        if g is None:
            self.u.globals[name] = GlobalDef(name, t, self.span(node), values, defined=True)
        else:
            g.type, g.init, g.defined = t, values, True
        return t

    def static_init(self, t: CType, init: ts.Node, key=None) -> tuple[InitValue, ...]:
        sl = self.static_lowerer()
        by_offset: dict[int, InitValue] = {}
        for off, it, node in self.init_items(t, init):
            if isinstance(it, ArrayType):
                data = self.string_bytes(strip_parens(node))
                n = it.length if it.length is not None else len(data) + 1
                for i in range(n):
                    b = data[i] if i < len(data) else 0
                    by_offset[off + i] = InitValue(off + i, it.elem, Const(normalise(b, it.elem), it.elem))
                continue
            if isinstance(it, StructType):
                self.unsupported(node, "struct copy in a static initialiser")
                continue
            try:
                v = sl.conv(sl.rvalue(node), it)
            except NotConstant:
                self.unsupported(node, "initialiser is not a constant")
                continue
            if not is_static_address(v) or not isinstance(it, SCALAR_TYPES):
                self.unsupported(node, "initialiser is not a constant")
                continue
            sl.record_flow_to_offset(t, off, node, key)
            by_offset[off] = InitValue(off, it, v)
        return tuple(
            v for _, v in sorted(by_offset.items())
            if not (isinstance(v.value, Const) and v.value.value == 0)
        )

    def record_flow_to_offset(self, t: CType, off: int, node: ts.Node, key=None) -> None:
        """Record where the value an initialiser stores at ``off`` of an
        object of type ``t`` comes from, for thread-routine resolution: into
        the struct field holding that offset (``{ .run = worker }``), else
        into the object ``key`` itself (arrays of function pointers)."""
        src = self.source_of(node)
        if src is None:
            return
        t = self.complete(t)
        while isinstance(t, (ArrayType, StructType)):
            if isinstance(t, ArrayType):
                size = type_size(t.elem) or 1
                off %= size
                t = self.complete(t.elem)
                continue
            inner = None
            for f in t.fields:
                if f.offset <= off < f.offset + max(type_size(f.type), 1):
                    inner = f
                    break
            if inner is None:
                return
            if not isinstance(self.complete(inner.type), (ArrayType, StructType)):
                self.u.flow(("field", t.name, inner.name), src)
                return
            off -= inner.offset
            t = self.complete(inner.type)
        if key is not None:
            self.u.flow(key, src)

    # -- locals -------------------------------------------------------------

    def init_local(self, loc, init: ts.Node, node: ts.Node | None = None) -> None:
        """Initialise the local at ``loc`` (a register or memory) from ``init``."""
        node = node or init
        t = loc.type
        if isinstance(loc, RegLoc):
            items = self.init_items(t, init)
            if items:
                self.store(loc, self.conv(self.rvalue(items[0][2]), t), node)
            return
        if init.type != "initializer_list" and isinstance(t, SCALAR_TYPES):
            self.store(loc, self.conv(self.rvalue(init), t), node)
            return
        items = self.init_items(t, init)
        key = ("var", self.func, loc.addr.name) if isinstance(loc.addr, Addr) else None
        size = type_size(t)
        covered = sum(type_size(it) for _, it, _ in items)
        span = self.span(node)
        if covered < size or len({off for off, _, _ in items}) < len(items):
            self.emit(Intrinsic(Op.MEMSET, None, (loc.addr, Const(0, INT),
                                                  const(size, self.ct.size_t)), span, Kind.GLOBAL, name="memset"))
        for off, it, item in items:
            addr = ptr_add(loc.addr, const(off, self.ct.ptrdiff_t), self.ptr(it))
            sub = MemLoc(addr, it)
            if isinstance(it, ArrayType):
                src = self.string_loc(strip_parens(item))
                n = min(type_size(it), type_size(src.type))
                self.emit(Intrinsic(Op.MEMCPY, None, (addr, src.addr, const(n, self.ct.size_t)),
                                    self.span(item), Kind.GLOBAL, name="memcpy"))
            elif isinstance(it, StructType):
                self.copy_aggregate(sub, item, item)
            else:
                self.store(sub, self.conv(self.rvalue(item), it), item)
                if key is not None:
                    self.record_flow_to_offset(t, off, item, key)
