"""Lowering of C type syntax: specifiers, declarators, struct/union/enum
definitions, to :mod:`distaff.analysis.ir` types laid out for the data model.

``float``, ``double`` and (x86-64's, LP64 only) ``long double`` are the IR's
:class:`FloatType`. The floating types it has not (``long double`` of another
data model, ``__float128``) become integers of their size, complex types
(``double _Complex``) arrays of two such integers (so layouts stay right), and
the declarations that would compute with them are reported as unsupported
(:data:`UNMODELLED`) by the callers, which receive an ``is_float`` flag.
"""

from __future__ import annotations

import tree_sitter as ts

from distaff.analysis.ir import ArrayType, CType, FuncType, IntType, PtrType, StructType, VoidType
from distaff.analysis.frontend.ctypes import ATOMIC_TYPEDEFS, I64, INT, layout_record
from distaff.analysis.frontend.gnu import COMPLEX_MARK, TYPEOF_TAG
from distaff.analysis.frontend.lower_gnu import AUTO_TYPE
from distaff.analysis.frontend.lower_env import EnumConstSym, TypedefSym, VarSym
from distaff.analysis.frontend.parse import F

_COMPLEX = COMPLEX_MARK.encode()
# the unsupported-construct message's words for the types with is_float set
UNMODELLED = "long double (only x86-64's is modelled) or complex"
_TYPEOF = (b"typeof", b"__typeof__", b"__typeof", b"typeof_unqual")
_DECL_NAMES = ("identifier", "field_identifier", "type_identifier", "primitive_type")
_TYPEOF_TAG = TYPEOF_TAG.encode()


class TypeLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: C types."""

    # -- specifiers ---------------------------------------------------------

    def spec_type(self, spec: ts.Node | None, hint: str | None = None) -> tuple[CType, bool]:
        """The type a specifier node names, and whether it is a floating type
        the IR has not (see the module docstring)."""
        if spec is None:
            return INT, False
        kind = spec.type
        if kind == "primitive_type" or kind == "sized_type_specifier":
            words = spec.text.decode().split()
            t = self.ct.from_words(words)
            if t is None:
                if words.count("long") and "double" in words:
                    return IntType(128, True), True
                if "__int128" in words:
                    return IntType(128, "unsigned" not in words), False
                return I64, True
            return t, False
        if kind == "type_identifier":
            name = spec.text.decode()
            sym = self.scope.lookup(name)
            if isinstance(sym, TypedefSym):
                return sym.type, sym.is_float
            t = self.ct.typedefs.get(name)
            if t is not None:
                return t, False
            if name == AUTO_TYPE:
                self.unsupported(spec, f"{AUTO_TYPE} outside a declaration with an initialiser")
                return INT, False
            self.unsupported(spec, f"unknown type name '{name}'")
            return INT, False
        if kind in ("struct_specifier", "union_specifier"):
            name = spec.child_by_field_id(F.name)
            if name is not None and name.text == _TYPEOF_TAG:
                return self.typeof_type(spec)
            return self.record_type(spec, hint), False
        if kind == "enum_specifier":
            self.enum_type(spec)
            return INT, False
        if kind == "macro_type_specifier":
            name = spec.child_by_field_id(F.name)
            td = spec.child_by_field_id(F.type)
            if name is not None and td is not None and name.text in _TYPEOF:
                inner = td.child_by_field_id(F.type)
                if inner is not None and inner.type == "type_identifier" \
                        and td.child_by_field_id(F.declarator) is None:
                    sym = self.scope.lookup(inner.text.decode())
                    if isinstance(sym, VarSym):  # typeof(variable)
                        return sym.type, sym.is_float
                return self.type_descriptor(td)
            self.unsupported(spec, "macro used as a type")
            return INT, False
        if spec.is_error or spec.is_missing:
            return INT, False
        self.unsupported(spec, f"unsupported type '{spec.type}'")
        return INT, False

    def decl_base(self, decl: ts.Node, hint: str | None = None) -> tuple[CType, bool]:
        base, is_float = self.spec_type(decl.child_by_field_id(F.type), hint)
        if any(c.type == "type_qualifier" and c.text == _COMPLEX for c in decl.children):
            # real and imaginary parts side by side: the size and alignment C gives it
            return ArrayType(IntType(base.size * 8, True) if base.size else INT, 2), True
        return base, is_float

    def atomic_base(self, decl: ts.Node) -> bool:
        """Is the base type of declaration ``decl`` ``_Atomic`` (the qualifier,
        a typedef of an atomic type, or one of <stdatomic.h>'s names)?"""
        if any(c.type == "type_qualifier" and c.text == b"_Atomic" for c in decl.children):
            return True
        t = decl.child_by_field_id(F.type)
        if t is None or t.type != "type_identifier":
            return False
        sym = self.scope.lookup(t.text.decode())
        if isinstance(sym, TypedefSym):
            return sym.atomic
        return t.text.decode() in ATOMIC_TYPEDEFS

    @staticmethod
    def atomic_kind(atomic_base: bool, t: CType) -> str | None:
        """What a VarSym's ``atomic`` is for a variable of type ``t`` whose
        declaration's base type is (``atomic_base``) or is not atomic."""
        if not atomic_base:
            return None
        return "pointee" if isinstance(t, PtrType) else "object"

    # -- declarators --------------------------------------------------------

    def declarator(
        self, base: CType, d: ts.Node | None
    ) -> tuple[str | None, CType, ts.Node | None, ts.Node | None]:
        """Apply declarator ``d`` to ``base``: (name, type, name node, VLA size
        node). The VLA size node is set when the outermost array dimension is
        not a constant (inner variable dimensions are reported unsupported)."""
        t = base
        vla = None
        while d is not None:
            kind = d.type
            if kind in _DECL_NAMES:
                return d.text.decode(), t, d, vla
            if kind in ("pointer_declarator", "abstract_pointer_declarator"):
                if vla is not None:
                    self.unsupported(vla, "pointer to a variable-length array")
                    vla = None
                t = PtrType(t, self.ct.pointer_bits)
            elif kind in ("array_declarator", "abstract_array_declarator"):
                if vla is not None:
                    self.unsupported(vla, "variable-length array of arrays")
                    vla = None
                size = d.child_by_field_id(F.size)
                if size is None:
                    t = ArrayType(t, None)
                else:
                    n = self.const_int(size)
                    if n is None:
                        vla = size
                        t = ArrayType(t, None)
                    else:
                        t = ArrayType(t, max(n, 0))
            elif kind in ("function_declarator", "abstract_function_declarator"):
                params, variadic = self.param_types(d.child_by_field_id(F.parameters))
                t = FuncType(t, tuple(p[1] for p in params), variadic)
            elif kind in ("parenthesized_declarator", "abstract_parenthesized_declarator",
                          "attributed_declarator"):
                inner = None
                for c in d.named_children:
                    if c.type not in ("attribute_specifier", "ms_call_modifier", "attribute"):
                        inner = c
                        break
                d = inner
                continue
            elif kind == "init_declarator":
                pass
            elif d.is_error or d.is_missing:
                return None, t, None, vla
            else:
                self.unsupported(d, f"unsupported declarator '{kind}'")
                return None, t, None, vla
            d = d.child_by_field_id(F.declarator)
        return None, t, None, vla

    def param_types(self, plist: ts.Node | None) -> tuple[list[tuple[str | None, CType, ts.Node, bool]], bool]:
        """Parameters of a function declarator: (name, adjusted type, node,
        is_float) each, and whether the function is variadic. ``(void)`` is no
        parameters; arrays and functions adjust to pointers."""
        out: list[tuple[str | None, CType, ts.Node, bool]] = []
        variadic = False
        if plist is None:
            return out, False
        for p in plist.named_children:
            if p.type == "variadic_parameter":
                variadic = True
                continue
            if p.type != "parameter_declaration":
                if p.type == "identifier":  # K&R identifier list
                    out.append((p.text.decode(), INT, p, False))
                continue
            base, is_float = self.decl_base(p)
            name, t, _, _ = self.declarator(base, p.child_by_field_id(F.declarator))
            if isinstance(t, VoidType) and name is None:
                continue
            if isinstance(t, ArrayType):
                t = PtrType(t.elem, self.ct.pointer_bits)
            elif isinstance(t, FuncType):
                t = PtrType(t, self.ct.pointer_bits)
            out.append((name, t, p, is_float))
        return out, variadic

    def type_descriptor(self, node: ts.Node) -> tuple[CType, bool]:
        """The type of a ``type_descriptor`` (casts, sizeof, compound literals)."""
        base, is_float = self.decl_base(node)
        _, t, _, vla = self.declarator(base, node.child_by_field_id(F.declarator))
        if vla is not None:
            self.unsupported(vla, "variable-length array type")
        return t, is_float

    # -- struct, union, enum ------------------------------------------------

    def complete(self, t: CType) -> CType:
        """``t`` with an incomplete struct replaced by its definition, if known."""
        if isinstance(t, StructType) and not t.complete:
            return self.u.records.get(t.name, t)
        return t

    def record_type(self, spec: ts.Node, hint: str | None) -> StructType:
        is_union = spec.type == "union_specifier"
        tag_node = spec.child_by_field_id(F.name)
        body = spec.child_by_field_id(F.body)
        tag = tag_node.text.decode() if tag_node is not None else None
        key = ("union " if is_union else "struct ") + (tag or "")
        if body is None:
            if tag is None:
                return StructType("anon", (), 0, 1, is_union, complete=False)
            known = self.scope.lookup_tag(key)
            if isinstance(known, StructType):
                return known
            t = StructType(self.u.unique_record_name(tag), (), 0, 1, is_union, complete=False)
            self.global_scope.tags[key] = t
            return t
        known = self.scope.tags.get(key) if tag is not None else None
        if isinstance(known, StructType) and not known.complete and known.name not in self.u.records:
            incomplete = known  # a body after a forward declaration completes it
        else:
            name = self.u.unique_record_name(tag or hint or "anon")
            incomplete = StructType(name, (), 0, 1, is_union, complete=False)
        name = incomplete.name
        if tag is not None:
            self.scope.tags[key] = incomplete
        members: list[tuple[str | None, CType]] = []
        for fd in body.named_children:
            if fd.type != "field_declaration":
                continue
            base, is_float = self.decl_base(fd)
            atomic = self.atomic_base(fd)
            decls = fd.children_by_field_id(F.declarator)
            if not decls:
                if isinstance(base, StructType):
                    members.append((None, self.complete(base)))
                continue
            bitfield = any(c.type == "bitfield_clause" for c in fd.children)
            for d in decls:
                fname, ftype, _, vla = self.declarator(base, d)
                if vla is not None:
                    self.unsupported(vla, "variable-length array in a struct")
                ftype = self.complete(ftype)
                members.append((fname, ftype))
                if is_float:
                    self.u.float_fields.add((name, fname))
                if atomic and not isinstance(ftype, PtrType):
                    self.u.atomic_fields.add((name, fname))
                if bitfield:
                    self.u.bit_fields.add((name, fname))
        anonymous: list = []
        t = layout_record(name, members, is_union, anonymous)
        self.u.records[name] = t
        if anonymous:
            self.u.anonymous[name] = anonymous
        if tag is not None:
            self.scope.tags[key] = t
        return t

    def enum_type(self, spec: ts.Node) -> None:
        body = spec.child_by_field_id(F.body)
        if body is None:
            return
        value = -1
        for e in body.named_children:
            if e.type != "enumerator":
                continue
            name_node = e.child_by_field_id(F.name)
            v = e.child_by_field_id(F.value)
            if v is not None:
                n = self.const_int(v)
                if n is None:
                    self.unsupported(v, "enumerator value is not a constant")
                    n = value + 1
                value = n
            else:
                value += 1
            if name_node is not None:
                self.scope.names[name_node.text.decode()] = EnumConstSym(value)
