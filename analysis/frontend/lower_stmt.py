"""Lowering of C statements and local declarations to a flat instruction list.

Loops are laid out so that their only way back is a ``Jump`` to an earlier pc
(a back edge the engine counts to unroll): the condition is tested at the
top, branches only go forward, and ``do``/``continue`` reach the top by a
Jump. A ``switch`` becomes a chain of equality branches on a temporary.
"""

from __future__ import annotations

import tree_sitter as ts

from distaff.analysis.ir import (
    SCALAR_TYPES,
    Addr,
    ArrayType,
    Const,
    CType,
    Expr,
    FuncType,
    Intrinsic,
    IntType,
    ObjKind,
    Op,
    PtrType,
    Reg,
    Return,
    StackVar,
    StructType,
    VoidType,
    is_scalar,
    type_size,
)
from distaff.analysis.frontend.labels import Goto, IfGoto
from distaff.analysis.frontend.ctypes import INT
from distaff.analysis.frontend.gnu import CASE_RANGE
from distaff.analysis.frontend.lower_const import binary, cast, const
from distaff.analysis.frontend.lower_env import FuncSym, GlobalDef, Scope, TypedefSym, VarSym
from distaff.analysis.frontend.lower_loc import MemLoc, RegLoc
from distaff.analysis.frontend.lower_types import UNMODELLED
from distaff.analysis.frontend.parse import F

_IGNORED = frozenset({
    "comment", "preproc_include", "preproc_def", "preproc_function_def", "preproc_call",
    "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
    ";", "{", "}",
})


class StmtLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: statements."""

    def stmt(self, node: ts.Node) -> None:
        handler = _STMT.get(node.type)
        if handler is not None:
            handler(self, node)
        elif node.type in _IGNORED or node.is_error or node.is_missing:
            return
        else:
            self.unsupported(node, f"unsupported statement '{node.type}'")

    def push_scope(self) -> Scope:
        self.scope = Scope(self.scope)
        return self.scope

    def pop_scope(self) -> None:
        self.scope = self.scope.parent

    def compound(self, node: ts.Node) -> None:
        self.push_scope()
        try:
            for c in node.named_children:
                self.stmt(c)
        finally:
            self.pop_scope()

    def expression_statement(self, node: ts.Node) -> None:
        for c in node.named_children:
            if c.type != "comment":
                self.effect(c)

    def statement_expr(self, node: ts.Node, whole: bool = False):
        """The value of a GNU statement expression ``({ ...; e; })``; with
        ``whole``, the location of an aggregate one (see :meth:`value`)."""
        stmts = [c for c in node.named_children if c.type != "comment"]
        self.push_scope()
        try:
            for c in stmts[:-1]:
                self.stmt(c)
            if stmts and stmts[-1].type == "expression_statement" and stmts[-1].named_children:
                last = stmts[-1].named_children[0]
                return self.value(last) if whole else self.rvalue(last)
            product = self.misread_product(stmts[-1]) if stmts else None
            if product is not None:  # ({ ...; a * b; })
                return product
            if stmts:
                self.stmt(stmts[-1])
            return Const(0, INT)
        finally:
            self.pop_scope()

    # -- control flow -------------------------------------------------------

    def if_stmt(self, node: ts.Node) -> None:
        then, other, end = self.label(), self.label(), self.label()
        self.cond(node.child_by_field_id(F.condition), then, other)
        self.place(then)
        self.stmt_or_nothing(node.child_by_field_id(F.consequence))
        alt = node.child_by_field_id(F.alternative)
        if alt is not None:
            self.emit(Goto(end, self.span(alt)))
        self.place(other)
        if alt is not None:
            for c in alt.named_children:
                self.stmt(c)
        self.place(end)

    def stmt_or_nothing(self, node: ts.Node | None) -> None:
        if node is not None:
            self.stmt(node)

    def while_stmt(self, node: ts.Node) -> None:
        head, body, end = self.label(), self.label(), self.label()
        self.place(head)
        self.cond(node.child_by_field_id(F.condition), body, end)
        self.place(body)
        self.loops.append((end, head))
        self.stmt_or_nothing(node.child_by_field_id(F.body))
        self.loops.pop()
        self.emit(Goto(head, self.span(node)))
        self.place(end)

    def do_stmt(self, node: ts.Node) -> None:
        top, cont, back, end = self.label(), self.label(), self.label(), self.label()
        self.place(top)
        self.loops.append((end, cont))
        self.stmt_or_nothing(node.child_by_field_id(F.body))
        self.loops.pop()
        self.place(cont)
        cnode = node.child_by_field_id(F.condition)
        known = self.const_int(cnode) if cnode is not None else None
        if known == 0:
            pass  # do { ... } while (0): runs once, no back edge
        elif cnode is None or known is not None:
            self.emit(Goto(top, self.span(cnode or node)))
        else:
            self.cond(cnode, back, end)
            self.place(back)
            self.emit(Goto(top, self.span(cnode)))
        self.place(end)

    def for_stmt(self, node: ts.Node) -> None:
        self.push_scope()
        try:
            init = node.child_by_field_id(F.initializer)
            if init is not None:
                if init.type == "declaration":
                    self.declaration(init)
                else:
                    self.effect(init)
            head, body, cont, end = self.label(), self.label(), self.label(), self.label()
            self.place(head)
            cnode = node.child_by_field_id(F.condition)
            if cnode is not None:
                self.cond(cnode, body, end)
            self.place(body)
            self.loops.append((end, cont))
            self.stmt_or_nothing(node.child_by_field_id(F.body))
            self.loops.pop()
            self.place(cont)
            update = node.child_by_field_id(F.update)
            if update is not None:
                self.effect(update)
            self.emit(Goto(head, self.span(node)))
            self.place(end)
        finally:
            self.pop_scope()

    def switch_stmt(self, node: ts.Node) -> None:
        cnode = node.child_by_field_id(F.condition)
        v = self.rvalue(cnode)
        if not isinstance(v.type, IntType):
            self.unsupported(cnode, "switch on a non-integer")
            v = Const(0, INT)
        t = self.ct.promote(v.type)
        v = self.materialise(cast(v, t), cnode)
        body = node.child_by_field_id(F.body)
        cases = [c for c in body.named_children if c.type == "case_statement"] if body is not None else []
        end = self.label()
        default = None
        for c in cases:
            lab = self.label()
            self.case_labels[c.id] = lab
            value = c.child_by_field_id(F.value)
            if value is None:
                default = lab
                continue
            test = self.case_test(v, t, value)
            if test is None:
                continue
            nxt = self.label()
            self.emit(IfGoto(test, lab, nxt, self.span(c)))
            self.place(nxt)
        self.emit(Goto(default or end, self.span(node)))
        self.loops.append((end, None))
        if body is not None:
            self.stmt(body)
        self.loops.pop()
        self.place(end)

    def case_test(self, v: Expr, t: CType, value: ts.Node) -> Expr | None:
        """When the switch value ``v`` (promoted to ``t``) goes to case label
        ``value``: ``v == k``, or ``lo <= v && v <= hi`` for a GNU case
        range (as :mod:`distaff.analysis.frontend.gnu` writes it)."""
        fn = value.child_by_field_id(F.function) if value.type == "call_expression" else None
        if fn is not None and fn.type == "identifier" and self.text(fn) == CASE_RANGE:
            args = value.child_by_field_id(F.arguments).named_children
            bounds = [self.const_int(a) for a in args]
            if len(bounds) != 2 or None in bounds:
                self.unsupported(value, "case range bound is not a constant")
                return None
            lo, hi = bounds
            return binary("&&", binary(">=", v, const(lo, t), INT), binary("<=", v, const(hi, t), INT), INT)
        k = self.const_int(value)
        if k is None:
            self.unsupported(value, "case label is not a constant")
            return None
        return binary("==", v, const(k, t), INT)

    def case_stmt(self, node: ts.Node) -> None:
        lab = self.case_labels.pop(node.id, None)
        if lab is None:
            self.unsupported(node, "case label outside the top level of a switch body")
        else:
            self.place(lab)
        value = node.child_by_field_id(F.value)
        for c in node.named_children:
            if value is not None and c.id == value.id:
                continue
            self.stmt(c)

    def break_stmt(self, node: ts.Node) -> None:
        if not self.loops:
            self.unsupported(node, "break outside a loop or switch")
            return
        self.emit(Goto(self.loops[-1][0], self.span(node)))

    def continue_stmt(self, node: ts.Node) -> None:
        for _, cont in reversed(self.loops):
            if cont is not None:
                self.emit(Goto(cont, self.span(node)))
                return
        self.unsupported(node, "continue outside a loop")

    def return_stmt(self, node: ts.Node) -> None:
        value = None
        vnode = next((c for c in node.named_children if c.type != "comment"), None)
        if vnode is not None and self.sret is not None:  # copied into the caller's temporary
            self.copy_aggregate(MemLoc(self.sret, self.complete(self.ret_type)), vnode, node)
        elif vnode is not None:
            v = self.rvalue(vnode)
            rt = self.ret_type
            if isinstance(rt, SCALAR_TYPES):
                value = self.conv(v, rt)
                src = self.source_of(vnode)
                if src is not None:
                    self.u.flow(("ret", self.func), src)
        self.emit(Return(value, self.span(node)))

    def goto_label(self, name: str):
        lab = self.goto_labels.get(name)
        if lab is None:
            lab = self.goto_labels[name] = self.label()
        return lab

    def goto_stmt(self, node: ts.Node) -> None:
        lnode = node.child_by_field_id(F.label)
        if lnode is None:
            return
        self.emit(Goto(self.goto_label(self.text(lnode)), self.span(node)))

    def labeled_stmt(self, node: ts.Node) -> None:
        lnode = node.child_by_field_id(F.label)
        if lnode is not None:
            lab = self.goto_label(self.text(lnode))
            if lab.pc is not None:
                self.unsupported(lnode, "label defined twice")
            self.place(lab)
        for c in node.named_children:
            if lnode is None or c.id != lnode.id:
                self.stmt(c)

    def attributed_stmt(self, node: ts.Node) -> None:
        for c in node.named_children:
            if c.type != "attribute_declaration":
                self.stmt(c)

    # -- declarations -------------------------------------------------------

    def type_definition(self, node: ts.Node) -> None:
        decls = node.children_by_field_id(F.declarator)
        hint = decls[0].text.decode() if len(decls) == 1 and decls[0].type == "type_identifier" else None
        base, is_float = self.decl_base(node, hint)
        atomic = self.atomic_base(node)
        for d in decls:
            name, t, _, vla = self.declarator(base, d)
            if vla is not None:
                self.unsupported(vla, "variable-length array type")
            if name is not None:
                self.scope.names[name] = TypedefSym(t, is_float, atomic and not isinstance(t, PtrType))

    def storage_classes(self, node: ts.Node) -> set[str]:
        return {c.text.decode() for c in node.children if c.type == "storage_class_specifier"}

    def misread_product(self, node: ts.Node) -> Expr | None:
        """The value of ``a * b;`` (or ``a * *b;``) that the parser, not
        knowing that ``a`` is a variable, read as a declaration of a pointer
        ``b`` to type ``a``; None for any other statement (nothing lowered)."""
        if node.type != "declaration" or len(node.named_children) != 2:
            return None
        tnode, d = node.child_by_field_id(F.type), node.child_by_field_id(F.declarator)
        if tnode is None or tnode.type != "type_identifier" or d is None or d.type != "pointer_declarator":
            return None
        if not isinstance(self.scope.lookup(self.text(tnode)), VarSym):
            return None
        derefs = 0
        inner = d.child_by_field_id(F.declarator)
        while inner is not None and inner.type == "pointer_declarator":
            derefs += 1
            inner = inner.child_by_field_id(F.declarator)
        if inner is None or inner.type != "identifier":
            return None
        left = self.identifier(tnode)
        right = self.identifier(inner)
        for _ in range(derefs):
            right = self.load(self.deref(right, d), d)
        return self.arith("*", left, right, node)

    def declaration(self, node: ts.Node) -> None:
        """A declaration inside a function body."""
        if self.misread_product(node) is not None:
            return  # a * b; as a statement: its operands are read, the product dropped
        storage = self.storage_classes(node)
        auto = self.is_auto_type(node)
        base, is_float = (INT, False) if auto else self.decl_base(node)
        atomic = self.atomic_base(node)
        for d in node.children_by_field_id(F.declarator):
            init = None
            dd = d
            if d.type == "init_declarator":
                init = d.child_by_field_id(F.value)
                dd = d.child_by_field_id(F.declarator)
            name, t, _, vla = self.declarator(base, dd)
            if name is None:
                continue
            if auto:
                t, is_float = self.auto_type(dd, init)
            t = self.complete(t)
            if isinstance(t, FuncType):
                self.scope.names[name] = FuncSym(name, t, is_float)
                if name not in self.u.func_types:
                    self.u.func_types[name] = t
                continue
            if "extern" in storage:
                if name not in self.u.globals:
                    self.declare_global(name, t, d)
                self.scope.names[name] = VarSym(name, t, "global", name, is_float, self.atomic_kind(atomic, t))
                continue
            if is_float:
                self.unsupported(d, f"{UNMODELLED} variable")
            if "static" in storage:
                gname = self.u.unique_global_name(f"{self.func}.{name}")
                if storage & {"__thread", "_Thread_local", "thread_local"}:
                    self.u.thread_locals.add(gname)
                sym = VarSym(name, t, "global", gname, is_float, self.atomic_kind(atomic, t))
                self.scope.names[name] = sym
                self.define_static(gname, t, init, d)
                sym.type = self.u.globals[gname].type
                continue
            if isinstance(t, ArrayType) and t.length is None and init is not None:
                t = self.complete_array(t, init)
            if vla is not None:
                self.declare_vla(name, t, vla, d)
                continue
            if isinstance(t, VoidType) or (isinstance(t, StructType) and not t.complete):
                self.unsupported(d, f"variable of incomplete type {t}")
                continue
            if is_scalar(t) and name not in self.addr_taken:
                reg = Reg(self.fresh_name(name), t)
                self.scope.names[name] = VarSym(name, t, "reg", reg.name, is_float, self.atomic_kind(atomic, t))
                if init is not None:
                    self.init_local(RegLoc(reg), init, d)
            else:
                sname = self.fresh_name(name)
                self.stack.append(StackVar(sname, t, self.span(d)))
                self.scope.names[name] = sym = VarSym(name, t, "stack", sname, is_float,
                                                      self.atomic_kind(atomic, t))
                if init is not None:
                    self.init_local(MemLoc(Addr(sname, ObjKind.STACK, self.ptr(t)), t), init, d)
            if init is not None and init.type != "initializer_list":
                src = self.source_of(init)
                if src is not None:
                    self.u.flow(("var", self.func, self.scope.names[name].ir_name), src)

    def declare_vla(self, name: str, t: ArrayType, size_node: ts.Node, d: ts.Node) -> None:
        n = self.rvalue(size_node)
        if not isinstance(n.type, IntType):
            self.unsupported(size_node, "array size is not an integer")
            n = Const(1, INT)
        st = self.ct.size_t
        nbytes = binary("*", cast(n, st), const(type_size(t.elem), st), st)
        reg = Reg(self.fresh_name(name), self.ptr(t.elem))
        self.emit(Intrinsic(Op.ALLOCA, reg, (nbytes,), self.span(d), name="vla"))
        self.scope.names[name] = VarSym(name, t, "vla", reg.name)

    def declare_global(self, name: str, t, node: ts.Node) -> None:
        self.u.globals[name] = GlobalDef(name, t, self.span(node))


_STMT = {
    "compound_statement": StmtLowering.compound,
    "expression_statement": StmtLowering.expression_statement,
    "declaration": StmtLowering.declaration,
    "type_definition": StmtLowering.type_definition,
    "if_statement": StmtLowering.if_stmt,
    "while_statement": StmtLowering.while_stmt,
    "do_statement": StmtLowering.do_stmt,
    "for_statement": StmtLowering.for_stmt,
    "switch_statement": StmtLowering.switch_stmt,
    "case_statement": StmtLowering.case_stmt,
    "break_statement": StmtLowering.break_stmt,
    "continue_statement": StmtLowering.continue_stmt,
    "return_statement": StmtLowering.return_stmt,
    "goto_statement": StmtLowering.goto_stmt,
    "labeled_statement": StmtLowering.labeled_stmt,
    "attributed_statement": StmtLowering.attributed_stmt,
    "gnu_asm_expression": lambda self, n: self.asm(n),
    "struct_specifier": lambda self, n: self.spec_type(n),
    "union_specifier": lambda self, n: self.spec_type(n),
    "enum_specifier": lambda self, n: self.spec_type(n),
}
