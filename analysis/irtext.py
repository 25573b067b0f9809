"""A deterministic, readable text dump of an :class:`ir.Program`.

This is what ``distaff ir FILE`` prints and the format of the front end's
golden tests. Layout::

    ; <path> (<data model>)
    global <name>: <type> [= { <offset>: <type> <value>, ... }]   ; <span>
    function <name>(<params>) -> <ret> [atomic]   ; <span>
      stack <name>: <type>
      <pc>  <L|B|G>  <instruction>   ; <line:col-line:col>
    thread <func>:<pc> -> <routines> [in loop]   ; <span>
    finding <kind> <span>: <message>

Expressions: registers by name, constants as ``5`` (type ``i32``) or
``5:u64``, addresses ``@g`` (global), ``$x`` (stack), ``@.str.0`` (string
literal), ``&f`` (function); ``(a + b)``, ``(i64)e``, ``(p +p off)`` for
:class:`ir.PtrAdd`, ``(a -p b)`` for :class:`ir.PtrDiff`, ``(c ? a : b)``.
"""

from __future__ import annotations

from typing import Callable

from distaff.analysis import floats
from distaff.analysis.ir import (
    ArrayType,
    FuncType,
    Addr,
    Assign,
    Binary,
    Branch,
    Call,
    Cast,
    Const,
    Expr,
    FloatType,
    Function,
    GlobalVar,
    Instr,
    Intrinsic,
    IntType,
    Ite,
    Jump,
    Kind,
    Load,
    MemOrder,
    ObjKind,
    Program,
    PtrAdd,
    PtrDiff,
    PtrType,
    Reg,
    Return,
    Span,
    Store,
    Unary,
    mask,
    to_signed,
)

_KIND = {Kind.LOCAL: "L", Kind.BRANCH: "B", Kind.GLOBAL: "G"}
_INT = IntType(32, True)


def format_type(t) -> str:
    """A type as C would write it: arrays outermost dimension first."""
    if isinstance(t, ArrayType):
        dims = []
        while isinstance(t, ArrayType):
            dims.append("" if t.length is None else str(t.length))
            t = t.elem
        return format_type(t) + "".join(f"[{d}]" for d in dims)
    if isinstance(t, PtrType):
        return format_type(t.pointee) + "*"
    if isinstance(t, FuncType):
        ps = ", ".join(format_type(p) for p in t.params) + (", ..." if t.variadic else "")
        return f"{format_type(t.ret)}({ps})"
    return str(t)


_COMPOUND = (Binary, Ite, PtrAdd, PtrDiff)


def format_expr(e: Expr, c: bool = False, leaf: Callable[[object], str | None] | None = None) -> str:
    """An expression as text, the one printer of expressions.

    By default in this dump's notation (above), exact: types of constants,
    casts, address sigils, every compound parenthesised, so equal texts are
    equal expressions. With ``c``, as C for a user: constants signed as their
    type reads them, ``NULL``, ``&x``, no casts, parentheses only around
    compound operands. ``leaf(node)`` may name any node first (a register by
    its value in a counterexample, a context's symbols); None lets it print as
    usual."""
    if leaf is not None:
        text = leaf(e)
        if text is not None:
            return text

    def sub(x) -> str:
        text = format_expr(x, c, leaf)
        while c and isinstance(x, Cast):  # casts are not written in C notation: what they cast decides
            x = x.arg
        return f"({text})" if c and isinstance(x, _COMPOUND) else text

    def compound(text: str) -> str:
        return text if c else f"({text})"

    if isinstance(e, Const):
        if isinstance(e.type, PtrType) and e.value == 0:
            return "NULL" if c else "null"
        if isinstance(e.type, FloatType):
            text = floats.text(e.value, e.type.bits)
            return text if c else f"{text}:{format_type(e.type)}"
        if c:
            t = e.type
            return str(to_signed(e.value & mask(t.bits), t.bits) if isinstance(t, IntType) and t.signed else e.value)
        return str(e.value) if e.type == _INT else f"{e.value}:{format_type(e.type)}"
    if isinstance(e, Reg):
        return e.name
    if isinstance(e, Addr):
        if c:
            return e.name if e.kind is ObjKind.FUNCTION else f"&{e.name}"
        return {ObjKind.GLOBAL: "@", ObjKind.STRING: "@", ObjKind.STACK: "$", ObjKind.FUNCTION: "&"}[e.kind] + e.name
    if isinstance(e, Unary):
        if e.op.isalpha():  # a <math.h> function
            return f"{e.op}({format_expr(e.arg, c, leaf)})"
        return f"{e.op}{sub(e.arg)}"
    if isinstance(e, Binary):
        if e.op.isalpha():
            return f"{e.op}({format_expr(e.left, c, leaf)}, {format_expr(e.right, c, leaf)})"
        return compound(f"{sub(e.left)} {e.op} {sub(e.right)}")
    if isinstance(e, Cast):
        return format_expr(e.arg, c, leaf) if c else f"({format_type(e.type)}){sub(e.arg)}"
    if isinstance(e, PtrAdd):
        return compound(f"{sub(e.ptr)} {'+' if c else '+p'} {sub(e.offset)}")
    if isinstance(e, PtrDiff):
        return compound(f"{sub(e.left)} {'-' if c else '-p'} {sub(e.right)}")
    if isinstance(e, Ite):
        return compound(f"{sub(e.cond)} ? {sub(e.then)} : {sub(e.other)}")
    return "?" if c else repr(e)


def _dst(r: Reg | None) -> str:
    return f"{r.name}:{format_type(r.type)} := " if r is not None else ""


def _order(o: MemOrder) -> str:
    return "" if o is MemOrder.NA else f".{o.value}"


def format_instr(i: Instr) -> str:
    if isinstance(i, Assign):
        return f"{_dst(i.dst)}{format_expr(i.expr)}"
    if isinstance(i, Load):
        return f"{_dst(i.dst)}load{_order(i.order)} {format_type(i.type)} [{format_expr(i.addr)}]"
    if isinstance(i, Store):
        cas = f" if {format_expr(i.only_if)} else{_order(i.fail_order)}" if i.only_if is not None else ""
        return f"store{_order(i.order)} {format_type(i.type)} [{format_expr(i.addr)}] := {format_expr(i.value)}{cas}"
    if isinstance(i, Jump):
        return f"jump {i.target}"
    if isinstance(i, Branch):
        return f"branch {format_expr(i.cond)} ? {i.then} : {i.other}"
    if isinstance(i, Call):
        args = ", ".join(format_expr(a) for a in i.args)
        return f"{_dst(i.dst)}call {format_expr(i.callee)}({args})"
    if isinstance(i, Return):
        return "return" if i.value is None else f"return {format_expr(i.value)}"
    if isinstance(i, Intrinsic):
        args = ", ".join(format_expr(a) for a in i.args)
        s = f"{_dst(i.dst)}{i.op.value}({args})"
        if i.name and i.name != i.op.value:
            s += f" {i.name}"
        if i.assert_kind is not None:
            s += f" [{i.assert_kind.value}] {i.text!r}"
        return s
    return repr(i)


def format_span(s: Span, path: str | None = None) -> str:
    where = "" if s.file == path else f"{s.file}:"
    return f"{where}{s.line}:{s.col}-{s.end_line}:{s.end_col}"


def _string_text(g: GlobalVar) -> str:
    length = getattr(g.type, "length", None) or 0
    data = bytearray(length)
    for v in g.init:
        if isinstance(v.value, Const) and 0 <= v.offset < length:
            data[v.offset] = v.value.value & 0xFF
    return repr(bytes(data[:-1]) if length else b"")[1:]


def format_global(g: GlobalVar, path: str) -> str:
    if g.is_string:
        return f"string {g.name}: {format_type(g.type)} = {_string_text(g)}   ; {format_span(g.span, path)}"
    init = ""
    if g.init:
        init = " = { " + ", ".join(f"{v.offset}: {format_type(v.type)} {format_expr(v.value)}" for v in g.init) + " }"
    kind = "thread_local" if g.thread_local else "global"
    return f"{kind} {g.name}: {format_type(g.type)}{init}   ; {format_span(g.span, path)}"


def format_function(f: Function, path: str) -> list[str]:
    params = ", ".join(f"{p.name}: {format_type(p.type)}" for p in f.params)
    if f.type.variadic:
        params += ", ..." if params else "..."
    head = f"function {f.name}({params}) -> {format_type(f.type.ret)}{' atomic' if f.atomic else ''}"
    lines = [f"{head}   ; {format_span(f.span, path)}"]
    for s in f.stack:
        lines.append(f"  stack {s.name}: {format_type(s.type)}   ; {format_span(s.span, path)}")
    width = len(str(max(len(f.body) - 1, 0)))
    for pc, i in enumerate(f.body):
        text = f"  {pc:>{width}}  {_KIND[i.kind]}  {format_instr(i)}"
        lines.append(f"{text}   ; {format_span(i.span, path)}")
    return lines


def format_program(program: Program) -> str:
    """The whole program as text (ends with a newline)."""
    path = program.path
    out = [f"; {path} ({program.data_model.value})"]
    for g in program.globals:
        out.append(format_global(g, path))
    for f in program.functions:
        out.append("")
        out.extend(format_function(f, path))
    if program.threads:
        out.append("")
    for t in program.threads:
        loop = " in loop" if t.in_loop else ""
        out.append(f"thread {t.func}:{t.pc} -> {', '.join(t.routines) or '?'}{loop}   ; {format_span(t.span, path)}")
    if program.externals:
        out.append("")
        out.append("externals " + ", ".join(program.externals))
    if program.findings:
        out.append("")
    for fd in program.findings:
        out.append(f"finding {fd.kind.value} {format_span(fd.span, path)}: {fd.message}")
    return "\n".join(out) + "\n"
