"""Lowering of C expressions to pure IR expressions plus instructions.

Three entry points, by what the context needs:

* :meth:`ExprLowering.rvalue` — the value, as a pure :data:`ir.Expr` over
  registers; every memory read on the way is its own ``Load`` into a fresh
  temporary, every side effect its own instruction, in C's order.
* :meth:`ExprLowering.lvalue` — the location: a register (:class:`RegLoc`) or
  memory at an address (:class:`MemLoc`).
* :meth:`ExprLowering.effect` — evaluated for side effects only.

Literals are in :mod:`distaff.analysis.frontend.lower_literals`, ``&&``, ``||`` and
``?:`` in :mod:`distaff.analysis.frontend.lower_logic`.
"""

from __future__ import annotations

import tree_sitter as ts

from distaff.analysis.ir import (
    SCALAR_TYPES,
    Addr,
    ArrayType,
    Assign,
    Binary,
    CType,
    Cast,
    Const,
    Expr,
    FloatType,
    FuncType,
    IntType,
    Intrinsic,
    Ite,
    Kind,
    Load,
    MemOrder,
    ObjKind,
    Op,
    PtrAdd,
    PtrDiff,
    PtrType,
    Reg,
    StackVar,
    Store,
    StructType,
    Unary,
    VoidType,
    type_size,
)
from distaff.analysis.frontend.lower_ambig import regroup
from distaff.analysis.frontend.ctypes import CHAR, INT, UINT, I64, U64, align_of
from distaff.analysis.frontend.lower_const import binary, cast, const, ptr_add, truth, unary
from distaff.analysis.frontend.lower_env import EnumConstSym, FuncSym, TypedefSym, VarSym
from distaff.analysis.frontend.lower_literals import LiteralLowering
from distaff.analysis.frontend.lower_loc import MemLoc, RegLoc, same_pointer, strip_parens
from distaff.analysis.frontend.lower_logic import LogicLowering
from distaff.analysis.frontend.lower_types import UNMODELLED
from distaff.analysis.frontend.parse import F

# An aggregate with at most this many scalars is copied scalar by scalar
# (interleavable); a larger one is one memcpy step.
MAX_SPLIT_SCALARS = 32

_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">="})
_FLOAT_OPS = _COMPARE | {"+", "-", "*", "/", "&&", "||"}
_KNOWN_CONSTANTS = {
    "INT_MAX": (2**31 - 1, INT), "INT_MIN": (-(2**31), INT), "UINT_MAX": (2**32 - 1, UINT),
    "CHAR_BIT": (8, INT), "SCHAR_MAX": (127, INT), "SCHAR_MIN": (-128, INT),
    "CHAR_MAX": (127, INT), "CHAR_MIN": (-128, INT), "UCHAR_MAX": (255, INT),
    "SHRT_MAX": (32767, INT), "SHRT_MIN": (-32768, INT), "USHRT_MAX": (65535, INT),
    "LLONG_MAX": (2**63 - 1, I64), "LLONG_MIN": (-(2**63), I64), "ULLONG_MAX": (2**64 - 1, U64),
    "EXIT_SUCCESS": (0, INT), "EXIT_FAILURE": (1, INT), "true": (1, INT), "false": (0, INT),
    "RAND_MAX": (2**31 - 1, INT),
}


class ExprLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: expressions."""

    # -- small helpers ------------------------------------------------------

    def ptr(self, t: CType) -> PtrType:
        return PtrType(t, self.ct.pointer_bits)

    def nondet(self, t: CType, node: ts.Node, name: str = "unsupported") -> Expr:
        """A fresh symbol standing for a value distaff cannot compute."""
        if not isinstance(t, SCALAR_TYPES):
            t = INT
        if self.static or self.discard:
            return Const(0, t)
        dst = self.temp(t)
        self.emit(Intrinsic(Op.NONDET, dst, (), self.span(node), name=name))
        return dst

    def conv(self, e: Expr, t: CType) -> Expr:
        """Convert ``e`` to ``t`` as assignment does (to ``_Bool``: ``!= 0``)."""
        if e.type is t or e.type == t or not isinstance(t, SCALAR_TYPES) or same_pointer(e.type, t):
            return e
        if isinstance(t, IntType) and t.is_bool:
            return cast(truth(e), t)
        if not isinstance(e.type, SCALAR_TYPES):
            return e
        return cast(e, t)

    def cond_expr(self, e: Expr) -> Expr:
        """A branch/assert condition: ``e`` itself if an integer, ``e != 0``
        for a pointer or a floating value (a condition is always an integer)."""
        if isinstance(e.type, (PtrType, FloatType)):
            return truth(e)
        return e

    def text(self, node: ts.Node) -> str:
        return node.text.decode("utf-8", "replace")

    # -- loads and stores ---------------------------------------------------

    def load(self, loc, node: ts.Node) -> Expr:
        if isinstance(loc, RegLoc):
            return loc.reg
        t = loc.type
        if isinstance(t, ArrayType):
            return cast(loc.addr, self.ptr(t.elem))
        if isinstance(t, FuncType):
            return loc.addr
        if isinstance(t, StructType) or isinstance(t, VoidType):
            self.unsupported(node, "struct or void value used as a scalar")
            return Const(0, INT)
        if loc.is_float:  # reported where declared; its value is unknown
            return self.nondet(t, node, "float")
        dst = self.temp(t)
        # (an _Atomic object read as a plain lvalue is a seq_cst load, C11 6.2.6.1)
        order = MemOrder.SC if self.atomic_lvalue(node) else MemOrder.NA
        self.emit(Load(dst, loc.addr, t, self.span(node), order=order))
        return dst

    def store(self, loc, v: Expr, node: ts.Node, order: MemOrder = MemOrder.NA) -> Expr:
        """``loc = v``; ``order``: an assignment to an _Atomic object's (seq_cst)."""
        if isinstance(loc, RegLoc):
            self.emit(Assign(loc.reg, v, self.span(node)))
            return loc.reg
        if not isinstance(v, (Reg, Const, Addr)):
            tmp = self.temp(v.type)
            self.emit(Assign(tmp, v, self.span(node)))
            v = tmp
        self.emit(Store(loc.addr, v, loc.type, self.span(node), order=order))
        return v

    def materialise(self, e: Expr, node: ts.Node) -> Expr:
        if isinstance(e, (Reg, Const, Addr)):
            return e
        tmp = self.temp(e.type)
        self.emit(Assign(tmp, e, self.span(node)))
        return tmp

    # -- entry points -------------------------------------------------------

    def rvalue(self, node: ts.Node) -> Expr:
        handler = _RVALUE.get(node.type)
        if handler is not None:
            return handler(self, node)
        if node.type in _LVALUE_KINDS:
            return self.load(self.lvalue(node), node)
        return self.other_expr(node)

    def effect(self, node: ts.Node) -> None:
        node = strip_parens(node)
        kind = node.type
        if kind == "update_expression":
            self.update(node, used=False)
        elif kind == "call_expression":
            self.call(node, used=False)
        elif kind == "assignment_expression":
            self.assign(node)
        elif kind == "comma_expression":
            self.effect(node.child_by_field_id(F.left))
            self.effect(node.child_by_field_id(F.right))
        elif kind == "conditional_expression":
            self.conditional(node, used=False)
        elif kind == "cast_expression":
            self.effect(node.child_by_field_id(F.value))
        elif kind == "gnu_asm_expression":
            self.asm(node)
        elif kind in ("binary_expression",) and node.child_by_field_id(F.operator).type in ("&&", "||"):
            self.logical(node, used=False)
        else:
            self.rvalue(node)

    def lvalue(self, node: ts.Node):
        kind = node.type
        if kind == "parenthesized_expression":
            inner = strip_parens(node)
            if inner is node:  # a statement expression
                return self.whole_loc(node)
            return self.lvalue(inner)
        if kind == "identifier":
            return self.ident_loc(node)
        if kind == "pointer_expression" and node.child_by_field_id(F.operator).type == "*":
            p = self.rvalue(node.child_by_field_id(F.argument))
            return self.deref(p, node)
        if kind == "subscript_expression":
            return self.subscript(node)
        if kind == "field_expression":
            return self.field(node)
        if kind in ("string_literal", "concatenated_string"):
            return self.string_loc(node)
        if kind == "compound_literal_expression":
            return self.compound_literal(node)
        if kind == "extension_expression":
            return self.lvalue(node.named_children[-1])
        if kind in ("call_expression", "comma_expression", "conditional_expression", "assignment_expression"):
            return self.whole_loc(node)  # an aggregate (make().x, (a = b).x); no scalar is assignable
        if not (node.is_error or node.is_missing):
            self.unsupported(node, "expression is not assignable")
        return RegLoc(self.reg_of(self.rvalue(node), node))

    def whole_loc(self, node: ts.Node):
        """The location of an aggregate value (see :meth:`value`); anything
        else is reported: it is not assignable."""
        v = self.value(node)
        if isinstance(v, MemLoc):
            return v
        self.unsupported(node, "expression is not assignable")
        return RegLoc(self.reg_of(v, node))

    def reg_of(self, e: Expr, node: ts.Node) -> Reg:
        if isinstance(e, Reg):
            return e
        t = e.type if isinstance(e.type, SCALAR_TYPES) else INT
        tmp = self.temp(t)
        self.emit(Assign(tmp, e if e.type == t else Const(0, t), self.span(node)))
        return tmp

    def dummy_loc(self, node: ts.Node) -> RegLoc:
        """A stand-in location for an expression already reported: reads are
        fresh symbols, writes go nowhere."""
        v = self.nondet(INT, node, "error")
        return RegLoc(v if isinstance(v, Reg) else self.temp(INT))

    # -- names --------------------------------------------------------------

    def ident_loc(self, node: ts.Node, name: str | None = None, sym=None):
        if name is None:
            name = self.text(node)
            sym = self.scope.lookup(name)
        if isinstance(sym, VarSym):
            if sym.storage == "reg":
                return RegLoc(Reg(sym.ir_name, sym.type))
            if sym.storage == "vla":
                elem = sym.type.elem if isinstance(sym.type, ArrayType) else INT
                return MemLoc(Reg(sym.ir_name, self.ptr(elem)), sym.type)
            if sym.storage == "ref":  # a parameter passed by value: the copy at the address in the register
                return MemLoc(Reg(sym.ir_name, self.ptr(sym.type)), sym.type)
            kind = ObjKind.STACK if sym.storage == "stack" else ObjKind.GLOBAL
            return MemLoc(Addr(sym.ir_name, kind, self.ptr(sym.type)), sym.type, sym.is_float)
        if isinstance(sym, FuncSym):
            self.u.address_taken_funcs[name] = None
            self.u.referenced.add(name)
            return MemLoc(Addr(name, ObjKind.FUNCTION, self.ptr(sym.type)), sym.type)
        if sym is None and name in self.u.defined and name in self.u.func_types:
            ft = self.u.func_types[name]
            self.u.address_taken_funcs[name] = None
            self.u.referenced.add(name)
            return MemLoc(Addr(name, ObjKind.FUNCTION, self.ptr(ft)), ft)
        if node.is_missing:
            return self.dummy_loc(node)
        self.unsupported(node, f"undeclared identifier '{name}'")
        return self.dummy_loc(node)

    def identifier(self, node: ts.Node) -> Expr:
        name = self.text(node)
        sym = self.scope.lookup(name)
        if isinstance(sym, VarSym) and sym.storage == "reg":
            if sym.is_float:
                return self.nondet(sym.type, node, "float")
            return Reg(sym.ir_name, sym.type)
        if isinstance(sym, EnumConstSym):
            return const(sym.value, INT)
        if isinstance(sym, TypedefSym):
            self.unsupported(node, f"type name '{name}' used as a value")
            return Const(0, INT)
        if sym is None and name not in self.u.defined:
            if name == "NULL":
                return Const(0, self.ct.void_ptr)
            if name in _KNOWN_CONSTANTS:
                v, t = _KNOWN_CONSTANTS[name]
                return const(v, t)
            if name in ("LONG_MAX", "LONG_MIN", "ULONG_MAX", "SIZE_MAX", "SSIZE_MAX"):
                bits = self.ct.data_model.long_bits
                t = self.ct.long if name in ("LONG_MAX", "LONG_MIN", "SSIZE_MAX") else self.ct.ulong
                v = {"LONG_MAX": 2 ** (bits - 1) - 1, "LONG_MIN": -(2 ** (bits - 1)),
                     "SSIZE_MAX": 2 ** (bits - 1) - 1}.get(name, 2**bits - 1)
                return const(v, t)
            if name in ("__func__", "__FUNCTION__", "__PRETTY_FUNCTION__"):
                return self.load(self.new_string((self.func or "").encode(), node), node)
        return self.load(self.ident_loc(node, name, sym), node)

    # -- operators ----------------------------------------------------------

    def binary_expr(self, node: ts.Node) -> Expr:
        op = node.child_by_field_id(F.operator).type
        if op in ("&&", "||"):
            return self.logical(node, used=True)
        fixed = self.misread_chain(node)  # (T)-x read as a subtraction, ...
        if fixed is not None:
            return fixed
        lnode = node.child_by_field_id(F.left)
        left = self.rvalue(lnode)
        right = self.rvalue(node.child_by_field_id(F.right))
        return self.bounded(self.arith(op, left, right, node), node)

    def cast_of_unary(self, t: CType, op: str, arg: ts.Node, node: ts.Node) -> Expr:
        if op == "&":
            loc = self.lvalue(strip_parens(arg))
            e = loc.addr if isinstance(loc, MemLoc) else Const(0, self.ct.void_ptr)
        elif op == "*":
            e = self.rvalue(arg)
            if not (isinstance(e.type, PtrType) and isinstance(e.type.pointee, FuncType)):
                e = self.load(self.deref(e, node), node)
        else:
            e = self.rvalue(arg)
            if isinstance(e.type, IntType):
                pt = self.ct.promote(e.type)
                e = unary("-", cast(e, pt), pt) if op == "-" else cast(e, pt)
            elif isinstance(e.type, FloatType) and op == "-":
                e = unary("-", e, e.type)
        if not isinstance(t, SCALAR_TYPES) or not isinstance(e.type, SCALAR_TYPES):
            return e
        return self.conv(e, t) if isinstance(t, IntType) and t.is_bool else cast(e, t)

    def bounded(self, e: Expr, node: ts.Node) -> Expr:
        """``e``, or a temporary holding it when its tree is deeper than
        MAX_EXPR_DEPTH (long generated operator chains), so that whoever
        walks, prints or pickles expressions recursively stays shallow."""
        if node.end_byte - node.start_byte < MAX_EXPR_DEPTH:
            return e  # each level of depth needs an operator or cast: too short to be deep
        h = self.height(e)
        if h > MAX_EXPR_DEPTH and not (self.static or self.discard):
            return self.materialise(e, node)
        self.heights[id(e)] = (h, e)
        return e

    def height(self, e: Expr) -> int:
        known = self.heights.get(id(e))
        if known is not None and known[1] is e:
            return known[0]
        if isinstance(e, (Reg, Const, Addr)):
            return 0
        subs = [getattr(e, f) for f in _SUBEXPRS.get(type(e), ())]
        return 1 + max((self.height(x) for x in subs), default=0)

    def arith(self, op: str, left: Expr, right: Expr, node: ts.Node) -> Expr:
        lt, rt = left.type, right.type
        lp, rp = isinstance(lt, PtrType), isinstance(rt, PtrType)
        if (lp or rp) and op in ("+", "-"):
            if op == "+":
                if rp and not lp:
                    left, right = right, left
                return self.ptr_offset(left, right, 1, node)
            if lp and rp:
                return self.ptr_diff(left, right)
            if lp:
                return self.ptr_offset(left, right, -1, node)
        if not isinstance(lt, SCALAR_TYPES) or not isinstance(rt, SCALAR_TYPES):
            self.unsupported(node, "operands are not scalars")
            return Const(0, INT)
        if (isinstance(lt, FloatType) or isinstance(rt, FloatType)) and (lp or rp or op not in _FLOAT_OPS):
            self.unsupported(node, f"'{op}' with a floating operand (not C)")
            return Const(0, INT)
        if op in _COMPARE:
            if lp or rp:
                pt = lt if lp else rt
                return binary(op, cast(left, pt), cast(right, pt), INT)
            t = self.ct.common(lt, rt)
            return binary(op, cast(left, t), cast(right, t), INT)
        if lp or rp:
            left = cast(left, self.ct.size_t) if lp else left
            right = cast(right, self.ct.size_t) if rp else right
            lt, rt = left.type, right.type
        if op in ("<<", ">>"):
            t = self.ct.promote(lt)
            return binary(op, cast(left, t), cast(right, self.ct.promote(rt)), t)
        if op in ("&&", "||"):
            return binary(op, truth(left), truth(right), INT)
        t = self.ct.common(lt, rt)
        return binary(op, cast(left, t), cast(right, t), t)

    def elem_size(self, pt: CType) -> int:
        if not isinstance(pt, PtrType):
            return 1
        e = self.complete(pt.pointee)
        return type_size(e) or 1 if not isinstance(e, FuncType) else 1

    def ptr_offset(self, p: Expr, i: Expr, sign: int, node: ts.Node) -> Expr:
        if not isinstance(i.type, IntType):
            self.unsupported(node, "pointer offset is not an integer")
            return p
        d = self.ct.ptrdiff_t
        size = self.elem_size(p.type)
        off = cast(i, d)
        if size != 1:
            off = binary("*", off, const(size, d), d)
        if sign < 0:
            off = unary("-", off, d)
        return ptr_add(p, off, p.type)

    def ptr_diff(self, left: Expr, right: Expr) -> Expr:
        d = self.ct.ptrdiff_t
        diff: Expr = PtrDiff(left, cast(right, left.type), d)
        size = self.elem_size(left.type)
        if size != 1:
            diff = binary("/", diff, const(size, d), d)
        return diff

    def unary_expr(self, node: ts.Node) -> Expr:
        op = node.child_by_field_id(F.operator).type
        return self.unary_value(op, self.rvalue(node.child_by_field_id(F.argument)), node)

    def unary_value(self, op: str, e: Expr, node: ts.Node) -> Expr:
        """``op e`` for the unary ``-``, ``+``, ``~`` and ``!``."""
        if op == "!":
            if isinstance(e.type, PtrType):
                return binary("==", e, Const(0, e.type), INT)
            return unary("!", e, INT)
        if isinstance(e.type, FloatType) and op in ("-", "+"):
            return unary("-", e, e.type) if op == "-" else e
        if not isinstance(e.type, IntType):
            self.unsupported(node, f"'{op}' of a non-integer")
            return e
        t = self.ct.promote(e.type)
        if op == "+":
            return cast(e, t)
        return unary(op, cast(e, t), t)

    def pointer_expr(self, node: ts.Node) -> Expr:
        op = node.child_by_field_id(F.operator).type
        arg = node.child_by_field_id(F.argument)
        if op == "*":
            p = self.rvalue(arg)
            if isinstance(p.type, PtrType) and isinstance(p.type.pointee, FuncType):
                return p  # *fp is the function fp points to
            return self.load(self.deref(p, node), node)
        loc = self.lvalue(strip_parens(arg))
        if isinstance(loc, RegLoc):
            if not loc.reg.name.startswith("%"):
                self.unsupported(node, "internal: address of a register")
            return Const(0, self.ptr(loc.type))
        return loc.addr

    def deref(self, p: Expr, node: ts.Node):
        if not isinstance(p.type, PtrType):
            if isinstance(p.type, IntType):
                p = cast(p, self.ct.void_ptr)
            else:
                self.unsupported(node, "dereference of a non-pointer")
                return self.dummy_loc(node)
        t = self.complete(p.type.pointee)
        if isinstance(t, VoidType):
            self.unsupported(node, "dereference of a void pointer")
            t = CHAR
        if t != p.type.pointee:
            p = cast(p, self.ptr(t))
        return MemLoc(p, t)

    def subscript(self, node: ts.Node):
        base = self.rvalue(node.child_by_field_id(F.argument))
        idx = self.rvalue(node.child_by_field_id(F.index))
        if not isinstance(base.type, PtrType) and isinstance(idx.type, PtrType):
            base, idx = idx, base
        if not isinstance(base.type, PtrType):
            self.unsupported(node, "subscript of a non-pointer")
            return self.dummy_loc(node)
        return self.deref(self.ptr_offset(base, idx, 1, node), node)

    def field(self, node: ts.Node):
        arg = node.child_by_field_id(F.argument)
        arrow = node.child_by_field_id(F.operator).type == "->"
        fname = self.text(node.child_by_field_id(F.field))
        if arrow:
            p = self.rvalue(arg)
            loc = self.deref(p, node)
        else:
            loc = self.lvalue(arg)
        if isinstance(loc, RegLoc):
            return loc
        st = self.complete(loc.type)
        if not isinstance(st, StructType) or not st.complete:
            self.unsupported(node, f"field '{fname}' of a non-struct or incomplete type")
            return self.dummy_loc(node)
        f = st.field(fname)
        if f is None:
            self.unsupported(node, f"no field '{fname}' in {st}")
            return self.dummy_loc(node)
        if (st.name, fname) in self.u.bit_fields:
            self.unsupported(node, "bit-field access")
        is_float = (st.name, fname) in self.u.float_fields
        if is_float:
            self.unsupported(node, f"{UNMODELLED} field")
        ft = self.complete(f.type)
        return MemLoc(ptr_add(loc.addr, const(f.offset, self.ct.ptrdiff_t), self.ptr(ft)), ft, is_float)

    def cast_expr(self, node: ts.Node) -> Expr:
        parts = self.value_cast(node)
        if parts is not None:  # (v)-1 with v a variable read as a cast
            return self.lower_item(regroup([parts[0], parts[2]], [parts[1]]), node)
        t, is_float = self.type_descriptor(node.child_by_field_id(F.type))
        if is_float:
            self.unsupported(node, f"conversion to {UNMODELLED} type")
            self.effect(node.child_by_field_id(F.value))
            return self.nondet(t, node, "float")
        return self.convert_cast(t, node.child_by_field_id(F.value), node)

    def convert_cast(self, t: CType, value: ts.Node, node: ts.Node) -> Expr:
        if isinstance(t, VoidType):
            self.effect(value)
            return Const(0, INT)
        e = self.rvalue(value)
        if not isinstance(t, SCALAR_TYPES):
            self.unsupported(node, f"cast to {t}")
            return e
        if isinstance(t, IntType) and t.is_bool:
            return self.conv(e, t)
        return cast(e, t) if isinstance(e.type, SCALAR_TYPES) else e

    def type_of(self, node: ts.Node, keep_findings: bool = False) -> CType:
        """The type of expression ``node`` (arrays not decayed), without
        emitting anything. With ``keep_findings`` what the expression's
        lowering reports is kept (``node`` is not lowered again)."""
        saved = self.discard
        cp = self.checkpoint()
        self.discard = True
        found: list = []
        try:
            n = strip_parens(node)
            if n.type in _LVALUE_KINDS or n.type in ("identifier", "string_literal", "concatenated_string") \
                    or (n.type == "pointer_expression" and n.child_by_field_id(F.operator).type == "*"):
                loc = self.lvalue(n)
                return loc.type
            return self.value(n).type
        finally:
            if keep_findings:
                found = self.u.findings[cp.findings:]
            self.discard = saved
            self.rollback(cp)
            for f in found:
                self.u.finding(f.kind, f.message, f.span)

    def typedef_named(self, node: ts.Node | None) -> CType | None:
        """The type if ``node`` is a parenthesised typedef name that the
        parser, not knowing typedefs, read as an expression (``sizeof(T)``)."""
        if node is None:
            return None
        n = strip_parens(node)
        if n.type != "identifier":
            return None
        name = self.text(n)
        sym = self.scope.lookup(name)
        if isinstance(sym, TypedefSym):
            return sym.type
        if sym is None and name in self.ct.typedefs:
            return self.ct.typedefs[name]
        return None

    def sizeof_expr(self, node: ts.Node) -> Expr:
        parts = self.sizeof_cast(node)
        if parts is not None:  # sizeof(int)-1 read as sizeof((int)-1)
            return self.lower_item(regroup([parts[0], parts[2]], [parts[1]]), node)
        tnode = node.child_by_field_id(F.type)
        value = node.child_by_field_id(F.value)
        if tnode is None and value is None:
            return self.size_of_type(INT, node)
        t, _ = self.sizeof_operand(node)
        return self.size_of_type(t, node)

    def alignof_expr(self, node: ts.Node) -> Expr:
        tnode = node.child_by_field_id(F.type)
        t = self.type_descriptor(tnode)[0] if tnode is not None else INT
        return const(align_of(self.complete(t)), self.ct.size_t)

    def offsetof_expr(self, node: ts.Node) -> Expr:
        t, _ = self.type_descriptor(node.child_by_field_id(F.type))
        member = node.child_by_field_id(F.member)
        st = self.complete(t)
        f = st.field(self.text(member)) if isinstance(st, StructType) and member is not None else None
        if f is None:
            self.unsupported(node, "offsetof of an unknown member")
            return const(0, self.ct.size_t)
        return const(f.offset, self.ct.size_t)

    def comma(self, node: ts.Node) -> Expr:
        self.effect(node.child_by_field_id(F.left))
        return self.rvalue(node.child_by_field_id(F.right))

    def paren(self, node: ts.Node) -> Expr:
        inner = strip_parens(node)
        if inner is node:
            if node.named_child_count == 1 and node.named_children[0].type == "compound_statement":
                return self.statement_expr(node.named_children[0])
            return self.other_expr(node)
        return self.rvalue(inner)

    def extension(self, node: ts.Node) -> Expr:
        return self.rvalue(node.named_children[-1])

    def other_expr(self, node: ts.Node) -> Expr:
        if node.is_error or node.is_missing:
            return self.nondet(INT, node, "error")
        if node.type in ("true", "false"):
            return Const(1 if node.type == "true" else 0, INT)
        if node.type == "null":
            return Const(0, self.ct.void_ptr)
        if node.type == "gnu_asm_expression":
            return Const(0, INT) if self.asm(node) else self.nondet(INT, node)
        self.unsupported(node, f"unsupported expression '{node.type}'")
        return self.nondet(INT, node)

    # -- assignment ---------------------------------------------------------

    def assign(self, node: ts.Node, whole: bool = False):
        """An assignment; its value, or with ``whole`` the location of an
        aggregate assigned (see :meth:`value`)."""
        op = node.child_by_field_id(F.operator).type
        lnode = node.child_by_field_id(F.left)
        rnode = node.child_by_field_id(F.right)
        loc = self.lvalue(lnode)
        if isinstance(loc.type, (StructType, ArrayType)):
            if op != "=" or isinstance(loc, RegLoc):
                self.unsupported(node, "compound assignment of an aggregate")
                return Const(0, INT)
            self.copy_aggregate(loc, rnode, node)
            return loc if whole else Const(0, INT)
        if op == "=":
            v = self.rvalue(rnode)
            self.record_flow(lnode, rnode)
        elif self.atomic_lvalue(lnode):  # one atomic read-modify-write, the operand first
            r = self.rvalue(rnode)
            self.atomic_bracket(Op.ATOMIC_BEGIN, self.span(node), "_Atomic")
            old = self.load(loc, lnode)
            v = self.materialise(self.conv(self.arith(op[:-1], old, r, node), loc.type), node)
            res = self.store(loc, v, node, MemOrder.SC)
            self.atomic_bracket(Op.ATOMIC_END, self.span(node), "_Atomic")
            return res
        else:
            old = self.load(loc, lnode)
            r = self.rvalue(rnode)
            v = self.arith(op[:-1], old, r, node)
        return self.store(loc, self.conv(v, loc.type), node,
                          MemOrder.SC if op == "=" and self.atomic_lvalue(lnode) else MemOrder.NA)

    def copy_aggregate(self, loc: MemLoc, rnode: ts.Node, node: ts.Node) -> None:
        src = self.value(rnode)
        if not isinstance(src, MemLoc):
            self.unsupported(rnode, "struct value that is not in memory")
            return
        leaves = self.scalar_leaves(loc.type)
        if leaves is None:
            size = const(type_size(loc.type), self.ct.size_t)
            self.emit(Intrinsic(Op.MEMCPY, None, (loc.addr, src.addr, size), self.span(node), Kind.GLOBAL,
                                name="struct copy"))
            return
        # one load and one store per scalar, as C has it: another thread may
        # run between them and see (or make) a half-copied aggregate
        span = self.span(node)
        for off, t in leaves:
            offset = const(off, self.ct.ptrdiff_t)
            v = self.temp(t)
            self.emit(Load(v, ptr_add(src.addr, offset, self.ptr(t)), t, span))
            self.emit(Store(ptr_add(loc.addr, offset, self.ptr(t)), v, t, span))

    def scalar_leaves(self, t: CType, base: int = 0, out: list | None = None) -> list | None:
        """``(offset, type)`` of every scalar of aggregate ``t`` in layout
        order, or None (copy it whole) for a union, a bit-field, an
        incomplete type or more than MAX_SPLIT_SCALARS scalars."""
        out = [] if out is None else out
        t = self.complete(t)
        if isinstance(t, SCALAR_TYPES):
            out.append((base, t))
        elif isinstance(t, ArrayType) and t.length is not None:
            size = type_size(t.elem) if t.length else 0
            for k in range(t.length):
                if len(out) > MAX_SPLIT_SCALARS or self.scalar_leaves(t.elem, base + k * size, out) is None:
                    return None
        elif isinstance(t, StructType) and t.complete and not t.is_union and t.fields:
            for f in t.fields:
                if (t.name, f.name) in self.u.bit_fields:
                    return None
                if self.scalar_leaves(f.type, base + f.offset, out) is None:
                    return None
        else:
            return None
        return out if len(out) <= MAX_SPLIT_SCALARS else None

    def update(self, node: ts.Node, used: bool = True) -> Expr:
        first = node.children[0].type
        prefix = first in ("++", "--")
        op = (first if prefix else node.children[-1].type)[0]
        arg = node.child_by_field_id(F.argument)
        if not prefix and arg.type == "unary_expression":
            # the parser reads -!a++ as (-!a)++, which is not C: it is -!(a++)
            outer = []
            while arg.type == "unary_expression":
                outer.append(arg)
                arg = arg.child_by_field_id(F.argument)
            e = self.increment(node, arg, False, op, used)
            for u in reversed(outer):
                e = self.unary_value(u.child_by_field_id(F.operator).type, e, u)
            return e
        return self.increment(node, arg, prefix, op, used)

    def increment(self, node: ts.Node, arg: ts.Node, prefix: bool, op: str, used: bool) -> Expr:
        """``arg++``/``arg--`` (``op`` is ``+``/``-``), or the prefix forms."""
        loc = self.lvalue(arg)
        if not isinstance(loc.type, SCALAR_TYPES):
            self.unsupported(node, "increment of a non-scalar")
            return Const(0, INT)
        atomic = self.atomic_lvalue(arg)
        if atomic:  # an _Atomic object: one atomic read-modify-write
            self.atomic_bracket(Op.ATOMIC_BEGIN, self.span(node), "_Atomic")
        old = self.load(loc, arg)
        if not prefix and used and isinstance(loc, RegLoc):
            old = self.materialise_copy(old, node)
        one = Const(1, INT)
        new = self.ptr_offset(old, one, 1 if op == "+" else -1, node) if isinstance(loc.type, PtrType) \
            else self.arith(op, old, one, node)
        if atomic:
            new = self.materialise(self.conv(new, loc.type), node)
        res = self.store(loc, self.conv(new, loc.type), node, MemOrder.SC if atomic else MemOrder.NA)
        if atomic:
            self.atomic_bracket(Op.ATOMIC_END, self.span(node), "_Atomic")
        return old if not prefix else res

    def materialise_copy(self, e: Expr, node: ts.Node) -> Expr:
        tmp = self.temp(e.type)
        self.emit(Assign(tmp, e, self.span(node)))
        return tmp

    # -- compound literals --------------------------------------------------

    def compound_literal(self, node: ts.Node):
        t, _ = self.type_descriptor(node.child_by_field_id(F.type))
        value = node.child_by_field_id(F.value)
        if isinstance(t, ArrayType) and t.length is None:
            t = self.complete_array(t, value)
        if self.static:
            name = self.u.unique_global_name(".compound")
            self.define_static(name, t, value, node)
            return MemLoc(Addr(name, ObjKind.GLOBAL, self.ptr(t)), t)
        name = self.fresh_name(".compound")
        self.stack.append(StackVar(name, t, self.span(node)))
        loc = MemLoc(Addr(name, ObjKind.STACK, self.ptr(t)), t)
        self.init_local(loc, value)
        return loc


MAX_EXPR_DEPTH = 48
_SUBEXPRS = {
    Unary: ("arg",), Cast: ("arg",), Binary: ("left", "right"), PtrAdd: ("ptr", "offset"),
    PtrDiff: ("left", "right"), Ite: ("cond", "then", "other"),
}

_LVALUE_KINDS = frozenset({"subscript_expression", "field_expression", "compound_literal_expression"})

_RVALUE = {
    "identifier": ExprLowering.identifier,
    "number_literal": LiteralLowering.number,
    "char_literal": LiteralLowering.char,
    "string_literal": lambda self, n: self.load(self.string_loc(n), n),
    "concatenated_string": lambda self, n: self.load(self.string_loc(n), n),
    "binary_expression": ExprLowering.binary_expr,
    "unary_expression": ExprLowering.unary_expr,
    "pointer_expression": ExprLowering.pointer_expr,
    "cast_expression": ExprLowering.cast_expr,
    "sizeof_expression": ExprLowering.sizeof_expr,
    "alignof_expression": ExprLowering.alignof_expr,
    "offsetof_expression": ExprLowering.offsetof_expr,
    "comma_expression": ExprLowering.comma,
    "parenthesized_expression": ExprLowering.paren,
    "extension_expression": ExprLowering.extension,
    "assignment_expression": ExprLowering.assign,
    "update_expression": ExprLowering.update,
    "conditional_expression": LogicLowering.conditional,
    "call_expression": lambda self, n: self.call(n, used=True),
    "generic_expression": lambda self, n: self.generic_expr(n),
}
