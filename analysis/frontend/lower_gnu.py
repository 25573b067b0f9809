"""Lowering of the GNU C extensions concurrent code is written with:
``typeof``, ``__auto_type``, ``offsetof`` of a nested member,
``__builtin_types_compatible_p``, ``__builtin_choose_expr`` and
``__builtin_constant_p`` (the forms :mod:`distaff.analysis.frontend.gnu` gives
the ones tree-sitter cannot parse); statement expressions are in
:mod:`distaff.analysis.frontend.lower_stmt`, ``asm`` below.

Types compare as the IR has them: integer types by width and signedness, so
``long`` and ``long long`` are one type on LP64 (``char`` and ``signed char``
too) for ``__builtin_types_compatible_p``, and qualifiers are not kept.

``asm`` is outside the model but for the compiler barriers concurrent code
is full of: an ``asm`` with no outputs and no inputs that clobbers
``"memory"`` (and at most ``"cc"`` besides), and whose template is empty or
only fence and spin-wait hint instructions (``mfence``, ``pause``, ``dmb ish``
...), orders memory, which sequential consistency does already. Under C11 a
full fence instruction (``mfence``, a locked add to the stack, ``sync``,
``dmb ish``/``sy``, RISC-V's ``fence rw,rw``) is a seq_cst thread fence,
POWER's ``lwsync`` an acq_rel one, ``dmb ishld`` an acquire one: the asm
lowers to that FENCE (the strongest of its instructions), or to nothing
(a compiler barrier, a pause, a store-only or other partial fence, which
no C11 fence is as weak as: they order nothing in the model).
Any other ``asm`` is reported unsupported with its range.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from distaff.analysis.ir import (
    FENCE_ORDERS, ArrayType, Const, CType, Expr, FuncType, Intrinsic, IntType, Kind, MemOrder, Op, PtrType, StructType,
    VoidType,
)
from distaff.analysis.frontend.ctypes import INT
from distaff.analysis.frontend.gnu import OFFSETOF, TYPES_COMPATIBLE
from distaff.analysis.frontend.lower_const import binary, cast, const
from distaff.analysis.frontend.lower_env import VarSym
from distaff.analysis.frontend.lower_loc import strip_parens
from distaff.analysis.frontend.parse import F

AUTO_TYPE = "__auto_type"
# instructions an asm may hold and still only order memory or hint a spin
# loop (x86, Arm, POWER, RISC-V spellings), one per line or ";"-separated;
# "rep; nop" is pause, "lock; addl $0,0(%rsp)" a full fence
_BARRIER_INSNS = re.compile(
    r"(?:mfence|lfence|sfence|pause|nop|rep|lock|yield|isb|sync|lwsync|hwsync|eieio"
    r"|dmb(?:\s+\w+)?|dsb(?:\s+\w+)?|fence(?:\s+[rwio]+\s*,\s*[rwio]+)?(?:\.i)?"
    r"|(?:lock\s+)?addl\s+\$0\s*,\s*(?:-?\d+)?\(%%?[re]sp\))"
)
_SPLIT_INSNS = re.compile(r"\s*(?:;|\\n|\\t|\n)\s*")
# the C11 fence each fence instruction is, at least (index into FENCE_ORDERS)
_FULL_FENCES = re.compile(r"mfence|sync|hwsync|dmb(?:\s+(?:ish|sy|osh|nsh))?|dsb(?:\s+\w+)?"
                          r"|fence(?:\s+[io]*rw[io]*\s*,\s*[io]*rw[io]*)?|(?:lock\s+)?addl.*")
_FENCE_STRENGTH = ((_FULL_FENCES, MemOrder.SC), (re.compile(r"lwsync"), MemOrder.ACQ_REL),
                   (re.compile(r"dmb\s+(?:ish|osh|nsh)?ld"), MemOrder.ACQ))
_CLOBBERS_OK = frozenset({"memory", "cc"})


class GnuLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: GNU extensions."""

    # -- typeof, __auto_type ------------------------------------------------

    def typeof_type(self, spec: ts.Node) -> tuple[CType, bool]:
        """The type ``typeof(X)`` names, from its rewritten form (a struct
        whose one member is sized by ``sizeof(X)``)."""
        body = spec.child_by_field_id(F.body)
        decl = body.named_children[0] if body is not None and body.named_children else None
        size = None
        if decl is not None and decl.type == "field_declaration":
            d = decl.child_by_field_id(F.declarator)
            size = d.child_by_field_id(F.size) if d is not None and d.type == "array_declarator" else None
        if size is None or size.type != "sizeof_expression":
            self.unsupported(spec, "typeof of something that is neither a type nor an expression")
            return INT, False
        return self.sizeof_operand(size)

    def sizeof_operand(self, node: ts.Node) -> tuple[CType, bool]:
        """The type of the operand of ``sizeof`` expression ``node`` (a type
        or an expression, arrays not decayed), and whether it is a floating
        type. What the operand's lowering reports is kept."""
        tnode = node.child_by_field_id(F.type)
        if tnode is not None:
            return self.type_descriptor(tnode)
        value = node.child_by_field_id(F.value)
        named = self.typedef_named(value)
        if named is not None:
            return named, False
        inner = strip_parens(value)
        sym = self.scope.lookup(self.text(inner)) if inner.type == "identifier" else None
        before = len(self.u.findings)
        t = self.type_of(value, keep_findings=True)
        if len(self.u.findings) > before:  # the operand is not lowered: its type may be wrong here
            self.mark_unsupported(node)
        return t, isinstance(sym, VarSym) and sym.is_float

    def is_auto_type(self, decl: ts.Node) -> bool:
        t = decl.child_by_field_id(F.type)
        return t is not None and t.type == "type_identifier" and t.text == AUTO_TYPE.encode()

    def auto_type(self, declarator: ts.Node, init: ts.Node | None) -> tuple[CType, bool]:
        """The type ``__auto_type`` gives the variable ``declarator``
        initialised with ``init``: the initialiser's, arrays and functions
        decayed to pointers."""
        if init is None or declarator.type != "identifier" or init.type == "initializer_list":
            self.unsupported(declarator, f"{AUTO_TYPE} without an initialiser expression")
            return INT, False
        t = self.type_of(init)  # (what the initialiser's lowering reports, it reports when lowered)
        if isinstance(t, ArrayType):
            t = self.ptr(t.elem)
        elif isinstance(t, FuncType):
            t = self.ptr(t)
        inner = strip_parens(init)
        sym = self.scope.lookup(self.text(inner)) if inner.type == "identifier" else None
        return t, isinstance(sym, VarSym) and sym.is_float and not isinstance(t, PtrType)

    # -- builtins -----------------------------------------------------------

    def gnu_builtin(self, name: str, args: list[ts.Node], node: ts.Node) -> Expr | None:
        """The value of a call of GNU builtin ``name`` this mixin lowers, or
        None when ``name`` is none of them."""
        if name == OFFSETOF:
            return self.offsetof_value(args, node)
        if name == TYPES_COMPATIBLE:
            if len(args) != 2 or any(a.type != "sizeof_expression" for a in args):
                self.unsupported(node, "__builtin_types_compatible_p needs two types")
                return Const(0, INT)
            a, b = (self.sizeof_operand(x)[0] for x in args)
            return Const(1 if self.compatible(a, b) else 0, INT)
        if name == "__builtin_choose_expr":
            if len(args) != 3:
                self.unsupported(node, "__builtin_choose_expr needs three arguments")
                return Const(0, INT)
            c = self.const_int(args[0])
            if c is None:
                self.unsupported(args[0], "__builtin_choose_expr with a condition that is not a constant")
                return self.nondet(INT, node)
            return self.rvalue(args[1] if c else args[2])
        if name == "__builtin_constant_p":
            # as GCC without optimisation: 1 for an integer constant expression
            return Const(1 if args and self.const_int(args[0]) is not None else 0, INT)
        return None

    def offsetof_value(self, args: list[ts.Node], node: ts.Node) -> Expr:
        if len(args) != 2 or args[0].type != "sizeof_expression":
            self.unsupported(node, "offsetof needs a type and a member")
            return const(0, self.ct.size_t)
        t, _ = self.sizeof_operand(args[0])
        found = self.member_offset(t, args[1])
        if found is None:
            self.unsupported(node, "offsetof of an unknown member")
            return const(0, self.ct.size_t)
        return cast(found[0], self.ct.size_t)

    def member_offset(self, t: CType, m: ts.Node) -> tuple[Expr, CType] | None:
        """The byte offset (a constant unless an index is not) and type of
        member designator ``m`` (``a``, ``a.b``, ``a[2].c``) in type ``t``."""
        m = strip_parens(m)
        d = self.ct.size_t
        if m.type in ("identifier", "field_identifier"):
            st = self.complete(t)
            f = st.field(self.text(m)) if isinstance(st, StructType) else None
            if f is None or (st.name, f.name) in self.u.bit_fields:
                return None
            return const(f.offset, d), self.complete(f.type)
        if m.type == "field_expression" and m.child_by_field_id(F.operator).type == ".":
            base = self.member_offset(t, m.child_by_field_id(F.argument))
            inner = self.member_offset(base[1], m.child_by_field_id(F.field)) if base is not None else None
            if inner is None:
                return None
            return binary("+", base[0], inner[0], d), inner[1]
        if m.type == "subscript_expression":
            base = self.member_offset(t, m.child_by_field_id(F.argument))
            if base is None or not isinstance(base[1], ArrayType):
                return None
            elem = self.complete(base[1].elem)
            index = self.rvalue(m.child_by_field_id(F.index))
            if not isinstance(index.type, IntType):
                return None
            step = binary("*", cast(index, d), const(self.elem_size(self.ptr(elem)), d), d)
            return binary("+", base[0], step, d), elem
        return None

    def compatible(self, a: CType, b: CType) -> bool:
        """GNU's type compatibility, on the IR's types (see the module docstring)."""
        a, b = self.complete(a), self.complete(b)
        if isinstance(a, PtrType) and isinstance(b, PtrType):
            return self.compatible(a.pointee, b.pointee)
        if isinstance(a, ArrayType) and isinstance(b, ArrayType):
            return self.compatible(a.elem, b.elem) and (a.length is None or b.length is None or a.length == b.length)
        if isinstance(a, StructType) and isinstance(b, StructType):
            return a.name == b.name and a.is_union == b.is_union
        if isinstance(a, FuncType) and isinstance(b, FuncType):
            return self.compatible(a.ret, b.ret) and len(a.params) == len(b.params) and all(
                self.compatible(x, y) for x, y in zip(a.params, b.params)) and a.variadic == b.variadic
        if isinstance(a, VoidType) or isinstance(b, VoidType):
            return isinstance(a, VoidType) and isinstance(b, VoidType)
        return a == b

    # -- asm ----------------------------------------------------------------

    def asm(self, node: ts.Node) -> bool:
        """An ``asm`` statement or expression: a FENCE or nothing for a
        compiler or memory barrier (see the module docstring; True), else
        unsupported."""
        if self.is_barrier_asm(node):
            order = self.asm_fence(node)
            if order is not None:
                self.emit(Intrinsic(Op.FENCE, None, (Const(FENCE_ORDERS.index(order), INT),), self.span(node),
                                    Kind.LOCAL, name="asm"))
            return True
        self.unsupported(node, "inline assembly")
        return False

    def asm_fence(self, node: ts.Node) -> MemOrder | None:
        """The C11 fence a barrier ``asm`` is (module docstring), or None."""
        code = self.string_bytes(node.child_by_field_id(F.assembly_code)).decode("utf-8", "replace")
        insns = [i for i in _SPLIT_INSNS.split(code.strip()) if i]
        for pattern, order in _FENCE_STRENGTH:
            if any(pattern.fullmatch(i) for i in insns):
                return order
        return None

    def is_barrier_asm(self, node: ts.Node) -> bool:
        template = node.child_by_field_id(F.assembly_code)
        if template is None or node.child_by_field_id(F.output_operands) is not None \
                and node.child_by_field_id(F.output_operands).named_child_count:
            return False
        inputs = node.child_by_field_id(F.input_operands)
        if inputs is not None and inputs.named_child_count:
            return False
        clobbers = node.child_by_field_id(F.clobbers)
        named = set()
        for c in clobbers.named_children if clobbers is not None else ():
            if c.type != "string_literal":
                return False
            named.add(self.string_bytes(c).decode("utf-8", "replace"))
        if "memory" not in named or not named <= _CLOBBERS_OK:
            return False
        if node.child_by_field_id(F.goto_labels) is not None:
            return False
        if template.type not in ("string_literal", "concatenated_string"):
            return False
        code = self.string_bytes(template).decode("utf-8", "replace")
        return all(_BARRIER_INSNS.fullmatch(insn) for insn in _SPLIT_INSNS.split(code.strip()) if insn)
