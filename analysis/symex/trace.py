"""Counterexamples: a run's record rendered under a model, in C's words.

A run records :class:`~distaff.analysis.symex.state.StepRecord` s whose ``parts`` are
strings and placeholders; :func:`build_trace` evaluates the placeholders in a
z3 model of the path condition and yields a :class:`distaff.analysis.report.Trace`:

* ``("v", value, ctype)`` -- a value printed as its C type reads it (signed or
  unsigned decimal, ``&x.f[2]`` / ``NULL`` for pointers);
* ``("lv", pointer, ctype)`` -- the lvalue a pointer designates (``x``,
  ``nodes[1].data``, ``heap@12[4]``);
* ``("expr", ir_expr, {temp: value})`` -- an IR expression printed as C, the
  lowering's temporaries (``%t1``) replaced by their values.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from distaff.analysis import floats, ir
from distaff.analysis.ir import ArrayType, FloatType, IntType, PtrType, StructType, type_size
from distaff.analysis.irtext import format_expr
from distaff.analysis.report import Input, Step, Trace
from distaff.analysis.symex import arguments
from distaff.analysis.symex.memory import PointerLayout
from distaff.analysis.symex.pivots import Leaf, LeafKind
from distaff.analysis.symex.state import State, cons_list
from distaff.analysis.symex.values import to_signed

if TYPE_CHECKING:
    from distaff.analysis.symex.engine import Engine


def model_value(model, v) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if model is None:
        return 0
    r = model.eval(v, model_completion=True)
    try:
        return r.as_long()
    except AttributeError:
        import z3

        return 1 if z3.is_true(r) else 0


def lvalue(st: State, L: PointerLayout, p: int, ctype=None) -> str:
    """The C lvalue a concrete pointer designates."""
    oid = p >> L.off_bits
    off = p & ((1 << L.off_bits) - 1)
    obj = st.memory.get(oid)
    if obj is None:
        return f"*(0x{p:x})"
    if obj.kind == "null":
        return "*NULL" if off == 0 else f"*(0x{off:x})"
    if obj.kind == "function":
        return obj.name
    return obj.name + _path(obj.ctype, off, ctype)


def _path(t, off: int, want) -> str:
    if off == 0 and (t is None or want is None or t == want or not isinstance(t, (ArrayType, StructType))):
        return ""
    if isinstance(t, ArrayType):
        es = type_size(t.elem) or 1
        return f"[{off // es}]" + _path(t.elem, off % es, want)
    if isinstance(t, StructType):
        for f in t.fields:
            fs = type_size(f.type)
            if f.offset <= off < f.offset + max(fs, 1):
                return f".{f.name}" + _path(f.type, off - f.offset, want)
    return f"+{off}" if off else ""


def value_text(st: State, L: PointerLayout, v: int, ctype) -> str:
    if isinstance(ctype, PtrType):
        if v == 0:
            return "NULL"
        return "&" + lvalue(st, L, v)
    if isinstance(ctype, IntType):
        if ctype.is_bool:
            return str(v & 1)
        return str(to_signed(v, ctype.bits) if ctype.signed else v)
    if isinstance(ctype, FloatType):
        return floats.text(v, ctype.bits)
    return str(v)


def render(st: State, L: PointerLayout, model, parts) -> str:
    out = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif p[0] == "v":
            out.append(value_text(st, L, model_value(model, p[1]), p[2]))
        elif p[0] == "lv":
            out.append(lvalue(st, L, model_value(model, p[1]), p[2] if len(p) > 2 else None))
        elif p[0] == "expr":
            values = p[2] if len(p) > 2 else {}

            def reg_text(r, values=values):
                """A temporary of the lowering by its value in the run."""
                if type(r) is ir.Reg and values.get(r.name) is not None:
                    return value_text(st, L, model_value(model, values[r.name]), r.type)
                return None

            out.append(format_expr(p[1], c=True, leaf=reg_text))
    return "".join(out)


def build_trace(st: State, L: PointerLayout, model) -> Trace:
    """The counterexample of ``st`` in ``model``: its inputs (the arguments
    of main's command line as C strings, those past ``argc`` left out) and
    its steps."""
    inputs = []
    symbols = [s for s in cons_list(st.symbols) if s.input]
    argc = next((model_value(model, s.term) for s in symbols if arguments.is_argc(s.name)), None)
    for sym in symbols:
        v = model_value(model, sym.term)
        index = arguments.argument_index(sym.name)
        if index is not None:
            if argc is not None and index >= argc:
                continue
            inputs.append(Input(sym.name, v, sym.span, arguments.c_string(arguments.argument_bytes(v, sym.bits))))
            continue
        text = floats.text(v, sym.ctype.bits) if sym.ctype is not None else ""
        inputs.append(Input(sym.name, to_signed(v, sym.bits) if sym.signed else v, sym.span, text))
    steps = [
        Step(r.tid, st.threads[r.tid].name, r.span, render(st, L, model, r.parts))
        for r in cons_list(st.steps)
    ]
    return Trace(
        inputs=tuple(inputs),
        steps=tuple(steps),
        schedule=tuple(cons_list(st.schedule)),
        choices=tuple(cons_list(st.choices)),
    )


def finish_trace(E: Engine, st: State, leaf: Leaf) -> Trace:
    """The counterexample of a run ending at ``leaf``: a model of its path
    condition, and for a run-time error a last step naming it."""
    if leaf.kind is LeafKind.ERROR and leaf.tid is not None:
        st.add_step(leaf.tid, leaf.span or ir.NO_SPAN, leaf.message)
    trace = build_trace(st, E.layout, small_model(E, st))
    return replace(trace, free_waits=True) if E.free_waits else trace


SMALL = 1000


def small_model(E: Engine, st: State):
    """A model of the path condition, preferring inputs within +-SMALL (one
    extra query) and command-line arguments short and printable (a query per
    length tried) so that counterexamples read naturally. None when the
    check never made a term, or the run made no symbol and has no path
    condition: every value is concrete and there is nothing to solve."""
    V = E.values
    if not V.has_terms or (st.symbols is None and st.pc is None):
        return None
    bounds = []
    strings = []
    for sym in cons_list(st.symbols):
        if sym.input and arguments.argument_index(sym.name) is not None:
            bounds += [E.item(c) for c in arguments.printable(V, sym.term, sym.bits)]
            strings.append(sym)
        elif sym.input and sym.bits <= 64:
            lo = V.le(-SMALL & ((1 << sym.bits) - 1), sym.term, sym.bits, True) if sym.signed else True
            hi = V.le(sym.term, SMALL, sym.bits, sym.signed)
            c = V.and_(lo, hi)
            if c is not True:
                bounds.append(E.item(c))
    longest = max((s.bits // 8 for s in strings), default=0)
    for n in range(1, longest):  # every argument at most n bytes long, the shortest n that will do
        short = [E.item(V.eq(V.extract(s.term, 8 * n + 7, 8 * n), 0, 8)) for s in strings]
        m = E.solver.model(st.pc, bounds + short)
        if m is not None:
            return m
    if bounds:
        m = E.solver.model(st.pc, bounds)
        if m is not None:
            return m
    return E.solver.model(st.pc)
