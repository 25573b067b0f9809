"""Lowering of a translation unit: file-scope declarations, then each
function body, then the thread sites.

Function names are collected first, so that a call can tell a function
defined later in the file (a ``Call``) from one without a body (an
``EXTERNAL`` intrinsic). Bodies are lowered after every file-scope
declaration has been seen. A function whose lowering fails internally is
dropped with an UNSUPPORTED finding ("internal: ...") at its range; nothing
raises out of :func:`lower_unit`.
"""

from __future__ import annotations

import sys

import tree_sitter as ts

from distaff.analysis.ir import (
    Addr,
    ArrayType,
    Const,
    DataModel,
    FindingKind,
    FuncType,
    Function,
    Intrinsic,
    Jump,
    Op,
    ObjKind,
    Program,
    PtrType,
    Reg,
    Return,
    StackVar,
    Store,
    StructType,
    ThreadSite,
    is_scalar,
)
from distaff.analysis.frontend.builtins import is_always_builtin, is_library
from distaff.analysis.frontend.ctypes import INT, CTypes
from distaff.analysis.frontend.lower_env import FuncSym, GlobalDef, RawSite, Scope, Spans, Unit, VarSym
from distaff.analysis.frontend.lower_loc import strip_parens
from distaff.analysis.frontend.lower_func import Lowerer
from distaff.analysis.frontend.lower_types import UNMODELLED
from distaff.analysis.frontend.parse import LANGUAGE, F, syntax_errors

_ADDR_OF = ts.Query(LANGUAGE, '(pointer_expression operator: "&" argument: (_) @arg)')
_IGNORED_TOP = frozenset({
    "comment", "preproc_include", "preproc_def", "preproc_function_def", "preproc_call",
    "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
    "empty_declaration", ";",
})
ATOMIC_PREFIX = "__VERIFIER_atomic_"
RECURSION_LIMIT = 100_000
STATIC_ASSERTS = (b"_Static_assert", b"static_assert")


def lower_unit(root: ts.Node, preprocessed, path: str, data_model: DataModel) -> Program:
    """The :class:`ir.Program` of the syntax tree ``root`` of ``preprocessed.text``.

    The lowering recurses along the syntax tree; the interpreter's recursion
    limit is raised while it runs so that deeply nested (generated) code
    lowers instead of failing.
    """
    limit = sys.getrecursionlimit()
    if limit < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        return _lower_unit(root, preprocessed, path, data_model)
    finally:
        if limit < RECURSION_LIMIT:
            sys.setrecursionlimit(limit)


def _lower_unit(root: ts.Node, preprocessed, path: str, data_model: DataModel) -> Program:
    ct = CTypes(data_model)
    u = Unit(path, data_model, Spans(preprocessed), ct)
    for node, message in syntax_errors(root):
        u.finding(FindingKind.SYNTAX, message, node)
    gscope = Scope()
    for tag, record in ct.library_records().items():
        gscope.tags["struct " + tag] = record
        u.records[record.name] = record
        u.record_names.add(record.name)
    gl = Lowerer(u, gscope, gscope, static=True)
    tops = [c for c in root.named_children]
    for c in tops:
        if c.type == "function_definition":
            name = function_name(c)
            if name is not None and not is_always_builtin(name):
                u.defined.add(name)
    pending: list[tuple] = []
    for c in tops:
        try:
            top_level(gl, c, pending)
        except Exception as e:  # noqa: BLE001 - never let one declaration sink the file
            u.unsupported(c, f"internal: {type(e).__name__}: {e}")
    u.defined = {p[0] for p in pending}
    lowered: dict[str, tuple[Function, list[RawSite], int]] = {}
    # inline functions (header material in .i files) are lowered only when used
    deferred = [p for p in pending if is_inline(p[3])]
    work = [p for p in pending if not is_inline(p[3])]
    while work:
        for name, ftype, params, node in work:
            if name in lowered:
                u.unsupported(node.child_by_field_id(F.declarator) or node, f"function '{name}' defined twice")
                continue
            try:
                f, fsites = lower_function(u, gscope, name, ftype, params, node)
            except Exception as e:  # noqa: BLE001
                u.unsupported(node, f"internal: {type(e).__name__}: {e}")
                f, fsites = stub_function(u, name, ftype, params, node), []
            lowered[name] = (f, fsites, node.start_byte)
        work = [p for p in deferred if p[0] in u.referenced and p[0] not in lowered]
    ordered = sorted(lowered.values(), key=lambda x: x[2])
    functions = [f for f, _, _ in ordered]
    sites = [s for _, fsites, _ in ordered for s in fsites]
    threads = resolve_sites(u, functions, sites)
    globals_ = tuple(g.freeze(g.name in u.thread_locals) for g in u.globals.values()) + tuple(u.strings)
    findings = tuple(preprocessed.findings) + tuple(u.findings)
    return Program(
        path=path,
        data_model=data_model,
        globals=globals_,
        functions=tuple(functions),
        threads=threads,
        findings=findings,
        externals=tuple(u.externals),
        user_externals=tuple(n for n in u.externals if n in u.func_types and not is_library(n)),
    )


# --------------------------------------------------------------------------
# File scope


def is_static_assert(node: ts.Node) -> bool:
    if node.type != "call_expression":
        return False
    f = node.child_by_field_id(F.function)
    return f is not None and f.text in STATIC_ASSERTS


def is_inline(fdef: ts.Node) -> bool:
    return any(
        c.type == "storage_class_specifier" and c.text.decode() in ("inline", "__inline", "__inline__")
        for c in fdef.children
    )


def function_name(fdef: ts.Node) -> str | None:
    d = fdef.child_by_field_id(F.declarator)
    while d is not None:
        if d.type == "identifier":
            return d.text.decode()
        if d.type in ("parenthesized_declarator", "attributed_declarator"):
            d = d.named_children[0] if d.named_children else None
            continue
        d = d.child_by_field_id(F.declarator)
    return None


def own_parameters(fdef: ts.Node) -> ts.Node | None:
    """The parameter list of the function declarator nearest the name."""
    d = fdef.child_by_field_id(F.declarator)
    found = None
    while d is not None and d.type != "identifier":
        if d.type == "function_declarator":
            found = d.child_by_field_id(F.parameters)
        if d.type in ("parenthesized_declarator", "attributed_declarator"):
            d = d.named_children[0] if d.named_children else None
            continue
        d = d.child_by_field_id(F.declarator)
    return found


def top_level(gl: Lowerer, c: ts.Node, pending: list) -> None:
    u = gl.u
    kind = c.type
    if kind == "function_definition":
        base, is_float = gl.decl_base(c)
        name, t, _, _ = gl.declarator(base, c.child_by_field_id(F.declarator))
        if name is None or not isinstance(t, FuncType):
            u.unsupported(c, "unsupported function definition")
            return
        gl.global_scope.names[name] = FuncSym(name, t, is_float)
        if is_always_builtin(name):
            return
        params, _ = gl.param_types(own_parameters(c))
        old_style = [d for d in c.named_children if d.type == "declaration"]
        if old_style:  # K&R: int f(a, b) int a; long b; { ... }
            params, t = kr_parameters(gl, params, old_style, t)
        u.func_types[name] = t
        gl.global_scope.names[name] = FuncSym(name, t, is_float)
        if c.child_by_field_id(F.body) is None:
            return
        pending.append((name, t, params, c))
    elif kind == "declaration":
        file_declaration(gl, c)
    elif kind == "type_definition":
        gl.type_definition(c)
    elif kind in _IGNORED_TOP or c.is_error or c.is_missing:
        return
    elif kind in ("struct_specifier", "union_specifier", "enum_specifier"):
        gl.spec_type(c)
    elif kind == "expression_statement" and (not c.named_children or is_static_assert(c.named_children[0])):
        return
    else:
        u.unsupported(c, f"unsupported top-level construct '{kind}'")


def kr_parameters(gl: Lowerer, params: list, decls: list[ts.Node], t: FuncType):
    """Parameters of an old-style definition typed by its declaration list."""
    types: dict[str, tuple] = {}
    for decl in decls:
        base, is_float = gl.decl_base(decl)
        for d in decl.children_by_field_id(F.declarator):
            pname, ptype, _, _ = gl.declarator(base, d)
            if isinstance(ptype, ArrayType):
                ptype = gl.ptr(ptype.elem)
            elif isinstance(ptype, FuncType):
                ptype = gl.ptr(ptype)
            if pname is not None:
                types[pname] = (ptype, is_float)
    out = []
    for pname, ptype, pnode, is_float in params:
        ptype, is_float = types.get(pname, (ptype, is_float))
        out.append((pname, ptype, pnode, is_float))
    return out, FuncType(t.ret, tuple(p[1] for p in out), t.variadic)


def file_declaration(gl: Lowerer, c: ts.Node) -> None:
    u = gl.u
    storage = gl.storage_classes(c)
    auto = gl.is_auto_type(c)
    base, is_float = (INT, False) if auto else gl.decl_base(c)
    atomic = gl.atomic_base(c)
    thread_local = storage & {"__thread", "_Thread_local", "thread_local"}
    for d in c.children_by_field_id(F.declarator):
        init = None
        dd = d
        if d.type == "init_declarator":
            init = d.child_by_field_id(F.value)
            dd = d.child_by_field_id(F.declarator)
        name, t, _, vla = gl.declarator(base, dd)
        if name is None:
            continue
        if auto:
            t, is_float = gl.auto_type(dd, init)
        if vla is not None:
            u.unsupported(vla, "variable-length array at file scope")
        t = gl.complete(t)
        if isinstance(t, FuncType):
            known = gl.global_scope.names.get(name)
            if not isinstance(known, FuncSym) or name not in u.defined:
                gl.global_scope.names[name] = FuncSym(name, t, is_float)
            u.func_types.setdefault(name, t)
            continue
        if thread_local:
            u.thread_locals.add(name)
        sym = VarSym(name, t, "global", name, is_float, gl.atomic_kind(atomic, t))
        gl.global_scope.names[name] = sym
        g = u.globals.get(name)
        if init is not None:
            if is_float:
                u.unsupported(d, f"{UNMODELLED} variable")
            sym.type = gl.define_static(name, t, init, d)
            continue
        if g is None:
            u.globals[name] = GlobalDef(name, t, gl.span(d), defined="extern" not in storage)
            if is_float and "extern" not in storage:
                u.unsupported(d, f"{UNMODELLED} variable")
        elif isinstance(g.type, ArrayType) and g.type.length is None and isinstance(t, ArrayType):
            g.type = t
        sym.type = u.globals[name].type


# --------------------------------------------------------------------------
# Functions


def addr_taken_names(body: ts.Node) -> set[str]:
    """Names of variables whose address ``&`` takes somewhere in ``body``."""
    out: set[str] = set()
    captures = ts.QueryCursor(_ADDR_OF).captures(body)
    for node in captures.get("arg", ()):
        n = strip_parens(node)
        while True:
            if n.type == "field_expression" and n.child_by_field_id(F.operator).type == ".":
                n = strip_parens(n.child_by_field_id(F.argument))
            elif n.type == "subscript_expression":
                n = strip_parens(n.child_by_field_id(F.argument))
            else:
                break
        if n.type == "identifier":
            out.add(n.text.decode())
    return out


def lower_function(u: Unit, gscope: Scope, name: str, ftype: FuncType, params, node: ts.Node):
    lw = Lowerer(u, Scope(gscope), gscope, func=name)
    lw.ret_type = ftype.ret
    body = node.child_by_field_id(F.body)
    lw.addr_taken = addr_taken_names(body)
    regs: list[Reg] = []
    if lw.is_aggregate(ftype.ret):  # the caller's temporary for the result (lower_aggregate's convention)
        lw.sret = Reg("%ret", lw.ptr(lw.complete(ftype.ret)))
        regs.append(lw.sret)
    for i, (pname, ptype, pnode, is_float) in enumerate(params):
        by_copy = lw.is_aggregate(ptype)  # the parameter is the caller's copy, at the address passed
        if by_copy:
            ptype = lw.complete(ptype)
        if pname is None:
            regs.append(Reg(f"%arg{i}", lw.ptr(ptype) if by_copy else ptype if is_scalar(ptype) else INT))
            continue
        if is_float:
            lw.unsupported(pnode, f"{UNMODELLED} parameter")
        reg = Reg(lw.fresh_name(pname), lw.ptr(ptype) if by_copy else ptype if is_scalar(ptype) else INT)
        regs.append(reg)
        if by_copy:
            sym = VarSym(pname, ptype, "ref", reg.name, is_float)
        elif pname in lw.addr_taken or not is_scalar(ptype):
            sname = lw.fresh_name(pname + ".addr")
            lw.stack.append(StackVar(sname, ptype, lw.span(pnode)))
            if is_scalar(ptype):
                lw.emit(Store(Addr(sname, ObjKind.STACK, lw.ptr(ptype)), reg, ptype, lw.span(pnode)))
            else:
                lw.unsupported(pnode, "parameter of a type passed by value that distaff does not know")
            sym = VarSym(pname, ptype, "stack", sname, is_float)
        else:
            sym = VarSym(pname, ptype, "reg", reg.name, is_float)
        if pnode is not None and pnode.type == "parameter_declaration":
            sym.atomic = lw.atomic_kind(lw.atomic_base(pnode), ptype)
        lw.scope.names[pname] = sym
        u.flow(lw.var_key(sym), ("arg", name, i))
    lw.compound(body)
    for lname, lab in lw.goto_labels.items():
        if lab.pc is None:
            lw.unsupported(node, f"goto to undefined label '{lname}'")
            lw.place(lab)
    close = body.children[-1] if body.child_count else body
    ret = Const(0, INT) if name == "main" and ftype.ret == INT else None
    lw.emit(Return(ret, lw.span(close)))
    instrs, sites = lw.finish()
    f = Function(
        name=name,
        type=ftype,
        params=tuple(regs),
        stack=tuple(lw.stack),
        body=instrs,
        span=lw.span(node),
        atomic=name.startswith(ATOMIC_PREFIX),
    )
    return f, lw.raw_sites(sites)


def stub_function(u: Unit, name: str, ftype: FuncType, params, node: ts.Node) -> Function:
    """A function whose body could not be lowered: it returns a fresh value,
    like an external, so that calls of it stay well-formed."""
    span = u.spans.span(node)
    dst = Reg("%t0", ftype.ret) if is_scalar(ftype.ret) else None
    ptr_bits = u.ct.pointer_bits
    regs = tuple(Reg(p[0] or f"%arg{i}", p[1] if is_scalar(p[1]) else PtrType(p[1], ptr_bits))
                 for i, p in enumerate(params))
    sret = (Reg("%ret", PtrType(ftype.ret, ptr_bits)),) if isinstance(ftype.ret, StructType) else ()
    regs = sret + regs  # as lower_aggregate's convention has it; the result is unknown
    body = (Intrinsic(Op.EXTERNAL, dst, sret, span, name=name), Return(dst, span))
    return Function(name, ftype, regs, (), body, span, atomic=name.startswith(ATOMIC_PREFIX))


# --------------------------------------------------------------------------
# Threads


def loop_ranges(body) -> list[tuple[int, int]]:
    """[target, pc] of every back edge: the pcs a loop may run again."""
    return [(i.target, pc) for pc, i in enumerate(body) if isinstance(i, Jump) and i.target <= pc]


def resolve_sites(u: Unit, functions: list[Function], sites: list[RawSite]) -> tuple[ThreadSite, ...]:
    by_name = {f.name: f for f in functions}
    order = {f.name: k for k, f in enumerate(functions)}
    ranges = {f.name: loop_ranges(f.body) for f in functions}
    out = []
    for s in sites:
        routines, bodiless = resolve_routines(u, s.sources, by_name)
        if not routines and not bodiless:
            routines = fallback_routines(u, by_name)
        routines = sorted(set(routines), key=lambda n: order.get(n, 1 << 30))
        in_loop = any(lo <= s.pc <= hi for lo, hi in ranges.get(s.func, ()))
        out.append(ThreadSite(s.func, s.pc, tuple(routines), in_loop, s.span))
    return tuple(out)


def resolve_routines(u: Unit, sources: set, by_name: dict) -> tuple[list[str], bool]:
    """The functions whose addresses flow to ``sources``, and whether some
    function without a body (an external routine, which no thread can run
    here) flows there too."""
    found: list[str] = []
    bodiless = False
    seen: set = set()
    stack = list(sources)
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        if s[0] == "fn":
            if s[1] in by_name:
                found.append(s[1])
            else:
                bodiless = True
            continue
        stack.extend(u.flows.get(s, ()))
    return found, bodiless


def fallback_routines(u: Unit, by_name: dict) -> list[str]:
    taken = [n for n in u.address_taken_funcs if n in by_name]
    shaped = [n for n in taken if _looks_like_routine(by_name[n].type)]
    return shaped or taken


def _looks_like_routine(t: FuncType) -> bool:
    return isinstance(t.ret, PtrType) and len(t.params) == 1 and isinstance(t.params[0], PtrType)
