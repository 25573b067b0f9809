"""Lowering of calls: direct calls, calls through function pointers, the
built-in functions (:mod:`distaff.analysis.frontend.builtins`) and externals; and the
flow-insensitive record of where function addresses are stored, from which
the thread routines of ``pthread_create`` sites are resolved.
"""

from __future__ import annotations

import tree_sitter as ts

from distaff.analysis.ir import (
    SCALAR_TYPES,
    Addr,
    ArrayType,
    AssertKind,
    Binary,
    Call,
    Const,
    Expr,
    FloatType,
    FuncType,
    IntType,
    Intrinsic,
    Kind,
    ObjKind,
    Op,
    PtrType,
    SYNC_OPS,
    StructType,
)
from distaff.analysis.frontend.builtins import (
    ATOMIC_BUILTINS, BUILTINS, NONDET_PREFIX, is_always_builtin, library_type, nondet_type, resolve,
)
from distaff.analysis.frontend.labels import IfGoto
from distaff.analysis.frontend.ctypes import DOUBLE, INT
from distaff.analysis.frontend.gnu import readable
from distaff.analysis.frontend.lower_const import truth
from distaff.analysis.frontend.lower_env import FuncSym, VarSym
from distaff.analysis.frontend.lower_loc import strip_parens
from distaff.analysis.frontend.lower_math import is_math
from distaff.analysis.frontend.lower_string import STRING_FUNCS
from distaff.analysis.frontend.lower_types import UNMODELLED
from distaff.analysis.frontend.parse import F
from distaff.analysis.frontend.printable import printable

ATOMIC_PREFIX = "__VERIFIER_atomic_"


class CallLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: calls."""

    def call(self, node: ts.Node, used: bool = True, whole: bool = False):
        """A call; its value (``used``), or with ``whole`` the location of an
        aggregate result (:mod:`distaff.analysis.frontend.lower_aggregate`)."""
        fnode = strip_parens(node.child_by_field_id(F.function))
        alist = node.child_by_field_id(F.arguments)
        args = [a for a in alist.named_children if a.type != "comment"] if alist is not None else []
        raw = node.child_by_field_id(F.function)
        if raw is not None and raw.type == "parenthesized_expression" and len(args) == 1:
            t = self.typedef_named(raw)
            if t is not None:  # (T)(x) read as a call: a cast
                return self.convert_cast(t, args[0], node)
        if fnode.type == "identifier":
            name = self.text(fnode)
            sym = self.scope.lookup(name)
            if not isinstance(sym, VarSym):
                return self.named_call(name, sym, args, node, used, whole)
        callee = self.rvalue(fnode)
        ft = callee.type.pointee if isinstance(callee.type, PtrType) else None
        if not isinstance(ft, FuncType):
            self.unsupported(fnode, "call of something that is not a function")
            ft = FuncType(INT, (), True)
        values = self.arguments(args, ft, None)
        slot = self.result_slot(ft, node)
        if slot is not None:
            values.insert(0, slot.addr)
        dst = self.temp(ft.ret) if used and isinstance(ft.ret, SCALAR_TYPES) else None
        self.emit(Call(dst, callee, tuple(values), self.span(node)))
        return self.call_value(dst, slot, used, whole, node)

    def call_value(self, dst, slot, used: bool, whole: bool, node: ts.Node):
        """What a call gives: its result register, the location of its
        aggregate result (``whole``), or 0."""
        if slot is not None:
            return slot if whole or not used else self.load(slot, node)  # (load reports a struct as a scalar)
        return dst if dst is not None else Const(0, INT)

    def named_call(self, name: str, sym, args: list[ts.Node], node: ts.Node, used: bool, whole: bool = False):
        defined = name in self.u.defined
        if name == "__builtin_expect" and args and not defined:
            v = self.rvalue(args[0])  # the value of the expression; the hint is dropped
            for a in args[1:]:
                self.effect(a)
            return v
        if not defined:
            gnu = self.gnu_builtin(name, args, node)
            if gnu is not None:
                return gnu
        if name in ("_Static_assert", "static_assert"):
            return Const(0, INT)  # checked by compilers, no run-time meaning
        if name == "__builtin_unreachable" and not defined:
            # no run may get here: one that does is a run-time error (the engine's ABORT of that name)
            self.emit(Intrinsic(Op.ABORT, None, (), self.span(node), name=name))
            return Const(0, INT)
        ab = ATOMIC_BUILTINS.get(name)
        if ab is not None and (not defined or name.startswith(("__sync_", "__atomic_"))):
            return self.atomic_call(name, ab, args, node, used)
        if not defined and is_math(name):
            return self.math_call(name, args, node)
        sf = STRING_FUNCS.get(name)
        if sf is not None and not defined:
            return self.string_call(name, sf, args, node)
        b = BUILTINS.get(name)
        if b is not None and (not defined or is_always_builtin(name)):
            return self.builtin_call(name, b, args, node, used)
        ft = self.u.func_types.get(name)
        if ft is None and isinstance(sym, FuncSym):
            ft = sym.type
        if not defined and name.startswith(NONDET_PREFIX):
            t = ft.ret if ft is not None else nondet_type(name, self.ct)
            if t is None or not isinstance(t, SCALAR_TYPES):
                self.unsupported(node, f"nondeterministic value of unsupported type ({name})")
                t = nondet_type(name, self.ct) or INT
                if not isinstance(t, SCALAR_TYPES):
                    t = IntType(64, True)
            self.arguments(args, FuncType(t, (), True), None)
            dst = self.temp(t)
            self.emit(Intrinsic(Op.NONDET, dst, (), self.span(node), name=name))
            return dst
        if ft is None and not defined:
            ft = library_type(name, self.ct)  # a system header's declaration distaff does not read
        if ft is None:
            ft = FuncType(INT, (), True)  # implicitly declared
        if isinstance(sym, FuncSym) and sym.is_float and used:
            self.unsupported(node, f"call of '{name}' returns a {UNMODELLED} value")
        values = self.arguments(args, ft, name if defined else None)
        slot = self.result_slot(ft, node)
        if slot is not None:
            values.insert(0, slot.addr)
        want = used and isinstance(ft.ret, SCALAR_TYPES)
        dst = self.temp(ft.ret) if want else None
        span = self.span(node)
        if not defined:
            self.u.externals[name] = None
            self.emit(Intrinsic(Op.EXTERNAL, dst, tuple(values), span, name=name))
            return self.call_value(dst, slot, used, whole, node)
        self.u.referenced.add(name)
        callee = Addr(name, ObjKind.FUNCTION, self.ptr(ft))
        atomic = name.startswith(ATOMIC_PREFIX)
        if atomic:
            self.atomic_bracket(Op.ATOMIC_BEGIN, span, name)
        self.emit(Call(dst, callee, tuple(values), span))
        if atomic:
            self.atomic_bracket(Op.ATOMIC_END, span, name)
        if dst is not None and isinstance(sym, FuncSym) and sym.is_float:
            return self.nondet(ft.ret, node, "float")
        return self.call_value(dst, slot, used, whole, node)

    def arguments(self, args: list[ts.Node], ft: FuncType, callee: str | None) -> list[Expr]:
        """Arguments left to right, converted to the parameter types (default
        promotions beyond the prototype)."""
        out: list[Expr] = []
        for i, a in enumerate(args):
            param = ft.params[i] if i < len(ft.params) else None
            if self.is_aggregate(param) or (param is None and self.may_be_aggregate(a)):
                out.append(self.aggregate_argument(a, param))  # by value: the address of a copy
                continue
            v = self.rvalue(a)
            if param is not None:
                v = self.conv(v, param)
            elif isinstance(v.type, IntType):
                v = self.conv(v, self.ct.promote(v.type))
            elif isinstance(v.type, FloatType) and v.type.bits < DOUBLE.bits:  # the default argument promotions
                v = self.conv(v, DOUBLE)
            if callee is not None:
                src = self.source_of(a)
                if src is not None:
                    self.u.flow(("arg", callee, i), src)
            out.append(v)
        return out

    # -- built-ins ----------------------------------------------------------

    def builtin_call(self, name: str, b, args: list[ts.Node], node: ts.Node, used: bool) -> Expr:
        span = self.span(node)
        if b.op is Op.ASSERT:
            if b.fail:
                cond: Expr = Const(0, INT)
                text = f"{name}()" if b.assert_kind is AssertKind.UNREACH_CALL else "0"
                if b.assert_kind is AssertKind.ASSERT and args and args[0].type == "string_literal":
                    text = printable(self.string_bytes(args[0]).decode("utf-8", "replace"))
            else:
                if not args:
                    self.unsupported(node, f"{name} without a condition")
                    return Const(0, INT)
                cond = self.assert_cond(self.rvalue(args[0]))
                text = printable(readable(self.text(args[0])))
                for a in args[1:]:
                    self.effect(a)
            self.emit(Intrinsic(Op.ASSERT, None, (cond,), span, Kind.LOCAL, name=name,
                                assert_kind=b.assert_kind, text=text))
            return Const(0, INT)
        if b.op is Op.ASSUME:
            if not args:
                return Const(0, INT)
            cond = self.assert_cond(self.rvalue(args[0]))
            self.emit(Intrinsic(Op.ASSUME, None, (cond,), span, name=name))
            return Const(0, INT)
        if b.op is Op.ONCE:
            return self.once_call(name, args, node)
        values: list[Expr] = []
        for i, a in enumerate(args):
            v = self.rvalue(a)
            key = b.params[i] if i < len(b.params) else "any"
            if key == "p":
                if not isinstance(v.type, PtrType):
                    v = self.conv(v, self.ct.void_ptr)
            elif key != "any":
                v = self.conv(v, resolve(key, self.ct))
            values.append(v)
        if b.order is not None:
            values = [values[k] if k is not None and k < len(values) else Const(0, self.ct.void_ptr)
                      for k in b.order]
        if len(values) < len(b.params):
            self.unsupported(node, f"{name} with too few arguments")
            values += [Const(0, resolve(k, self.ct) if k not in ("any", "p") else self.ct.void_ptr)
                       for k in b.params[len(values):]]
        ret = resolve(b.ret, self.ct)
        if b.op is None:
            return Const(0, INT)
        dst = None
        if b.op in (Op.MALLOC, Op.CALLOC, Op.ALLOCA, Op.THREAD_SELF):
            dst = self.temp(ret)
        elif used and isinstance(ret, SCALAR_TYPES) and b.op not in (Op.MEMSET, Op.MEMCPY):
            dst = self.temp(ret)
        kind = Kind.GLOBAL if b.op in SYNC_OPS or b.op in (Op.MEMSET, Op.MEMCPY, Op.FREE) else Kind.LOCAL
        pc = self.emit(Intrinsic(b.op, dst, tuple(values[: len(b.params)] if b.params else ()),
                                 span, kind, name=name))
        if b.op is Op.THREAD_CREATE:
            k = b.order[2] if b.order is not None else 2  # where the call has the routine
            src = self.source_of(args[k]) if len(args) > k else None
            self.sites.append((pc, {src} if src is not None else set(), span))
        if b.op in (Op.MEMSET, Op.MEMCPY) and used:
            return values[0]
        return dst if dst is not None else Const(0, INT)

    def once_call(self, name: str, args: list[ts.Node], node: ts.Node) -> Expr:
        """``pthread_once(o, f)``/``call_once(o, f)`` as ``r := ONCE(o); if
        (r) { f(); ONCE_DONE(o); }`` (see :class:`distaff.analysis.ir.Op`): the call of
        the routine is an ordinary Call, which every analysis follows."""
        span = self.span(node)
        if len(args) < 2:
            self.unsupported(node, f"{name} with too few arguments")
            return Const(0, INT)
        control = self.rvalue(args[0])
        routine = self.rvalue(args[1])
        first = self.temp(INT)
        self.emit(Intrinsic(Op.ONCE, first, (control,), span, Kind.GLOBAL, name=name))
        run, done = self.label(), self.label()
        self.emit(IfGoto(Binary("!=", first, Const(0, INT), INT), run, done, span))
        self.place(run)
        if isinstance(routine, Addr) and routine.kind is ObjKind.FUNCTION:
            self.u.referenced.add(routine.name)
        self.emit(Call(None, routine, (), span))
        self.emit(Intrinsic(Op.ONCE_DONE, None, (control,), span, Kind.GLOBAL, name=name))
        self.place(done)
        return Const(0, INT)

    def assert_cond(self, e: Expr) -> Expr:
        if isinstance(e.type, PtrType):
            return truth(e)
        if e.type != INT:
            return truth(e)
        return e

    # -- function-pointer flows ---------------------------------------------

    def var_key(self, sym: VarSym):
        scope = None if sym.storage == "global" else self.func
        return ("var", scope, sym.ir_name)

    def source_of(self, node: ts.Node):
        """Where the value of ``node`` comes from, for function-pointer
        resolution: ("fn", name), a location key, or None if unknown."""
        node = strip_parens(node)
        kind = node.type
        if kind == "cast_expression":
            return self.source_of(node.child_by_field_id(F.value))
        if kind == "pointer_expression":
            arg = strip_parens(node.child_by_field_id(F.argument))
            if node.child_by_field_id(F.operator).type == "&":
                return self.source_of(arg) if arg.type == "identifier" else None
            src = self.source_of(arg)
            return src if src is not None and src[0] == "fn" else None
        if kind == "identifier":
            name = self.text(node)
            sym = self.scope.lookup(name)
            if isinstance(sym, VarSym):
                return self.var_key(sym)
            if isinstance(sym, FuncSym) or name in self.u.defined:
                return ("fn", name)
            return None
        if kind == "field_expression":
            st = self.field_struct(node)
            if st is not None:
                return ("field", st, self.text(node.child_by_field_id(F.field)))
            return None
        if kind == "subscript_expression":
            return self.source_of(node.child_by_field_id(F.argument))
        if kind == "call_expression":
            f = strip_parens(node.child_by_field_id(F.function))
            if f.type == "identifier" and self.text(f) in self.u.defined:
                return ("ret", self.text(f))
        if kind == "conditional_expression":
            key = ("alt", self.func, node.start_byte)
            for arm in (node.child_by_field_id(F.consequence), node.child_by_field_id(F.alternative)):
                src = self.source_of(arm) if arm is not None else None
                if src is not None:
                    self.u.flow(key, src)
            return key
        if kind == "comma_expression":
            return self.source_of(node.child_by_field_id(F.right))
        return None

    def field_struct(self, node: ts.Node) -> str | None:
        """The struct name of a field access, found without emitting code."""
        arg = node.child_by_field_id(F.argument)
        try:
            t = self.type_of(arg)
        except Exception:
            return None
        if node.child_by_field_id(F.operator).type == "->":
            t = t.pointee if isinstance(t, PtrType) else t.elem if isinstance(t, ArrayType) else None
        t = self.complete(t) if t is not None else None
        return t.name if isinstance(t, StructType) else None

    def record_flow(self, lnode: ts.Node, rnode: ts.Node) -> None:
        dst = self.source_of(lnode)
        if dst is None or dst[0] == "fn":
            return
        src = self.source_of(rnode)
        if src is not None:
            self.u.flow(dst, src)
