"""Hand-built IR programs for the engine's unit tests (no front end involved).

``prog(functions, globals)`` makes a Program whose entry is ``main``; the
helpers below spell instructions tersely. Instructions get the line of their
pc + 1 in a file named ``ir.c``, so traces can be checked by line."""

from __future__ import annotations

from distaff.analysis import ir
from distaff.analysis.ir import (
    Addr, Assign, Binary, Branch, Call, Cast, Const, Function, FuncType, GlobalVar, InitValue,
    Intrinsic, IntType, Jump, Kind, Load, ObjKind, Op, Program, PtrAdd, PtrType, Reg, Return, Span,
    StackVar, Store, StructType, Field, ArrayType, AssertKind,
)

I8 = IntType(8, True)
U8 = IntType(8, False)
I16 = IntType(16, True)
I32 = IntType(32, True)
U32 = IntType(32, False)
I64 = IntType(64, True)
U64 = IntType(64, False)
BOOL = IntType(8, False, is_bool=True)
VOID = ir.VoidType()
VP = PtrType(VOID)


def span(line: int) -> Span:
    return Span("ir.c", line, 1, line, 2)


def c(v: int, t=I32) -> Const:
    return Const(v, t)


def r(name: str, t=I32) -> Reg:
    return Reg(name, t)


def gaddr(name: str, t) -> Addr:
    return Addr(name, ObjKind.GLOBAL, PtrType(t))


def saddr(name: str, t) -> Addr:
    return Addr(name, ObjKind.STACK, PtrType(t))


def faddr(name: str) -> Addr:
    return Addr(name, ObjKind.FUNCTION, PtrType(FuncType(VP, (VP,))))


def b(op: str, x, y, t=None) -> Binary:
    t = t or (I32 if op in ("==", "!=", "<", "<=", ">", ">=", "&&", "||") else x.type)
    return Binary(op, x, y, t)


def add(p, off) -> PtrAdd:
    return PtrAdd(p, off if not isinstance(off, int) else c(off, I64), p.type)


def body(*instrs):
    """Give each instruction the span of its pc (line pc + 1)."""
    out = []
    for pc, i in enumerate(instrs):
        out.append(_with_span(i, span(pc + 1)))
    return tuple(out)


def _with_span(i, s):
    from dataclasses import replace

    return replace(i, span=s)


S0 = span(0)


def assign(dst, e):
    return Assign(dst, e, S0)


def load(dst, addr, t=None, kind=Kind.GLOBAL):
    return Load(dst, addr, t or dst.type, S0, kind)


def store(addr, value, t=None, kind=Kind.GLOBAL):
    return Store(addr, value, t or value.type, S0, kind)


def jump(target):
    return Jump(target, S0)


def branch(cond, then, other):
    return Branch(cond, then, other, S0)


def call(callee, *args, dst=None):
    if isinstance(callee, str):
        callee = faddr(callee)
    return Call(dst, callee, tuple(args), S0)


def ret(e=None):
    return Return(e, S0)


def op(o: Op, *args, dst=None, name=""):
    kind = Kind.GLOBAL if o in ir.SYNC_OPS else Kind.LOCAL
    return Intrinsic(o, dst, tuple(args), S0, kind=kind, name=name or o.value)


def nondet(dst, name="__VERIFIER_nondet_int"):
    return Intrinsic(Op.NONDET, dst, (), S0, name=name)


def assert_(cond, text="c"):
    return Intrinsic(Op.ASSERT, None, (cond,), S0, name="assert", assert_kind=AssertKind.ASSERT, text=text)


def func(name, *instrs, params=(), stack=(), ret_t=I32):
    return Function(name, FuncType(ret_t, tuple(p.type for p in params)), tuple(params),
                    tuple(StackVar(n, t, S0) for n, t in stack), body(*instrs), S0)


def glob(name, t, *init):
    return GlobalVar(name, t, tuple(InitValue(off, it, v) for off, it, v in init), S0)


def prog(*functions, globals=(), threads=(), externals=()) -> Program:
    return Program("ir.c", ir.DataModel.LP64, tuple(globals), tuple(functions), tuple(threads), (),
                   tuple(externals))


__all__ = [n for n in dir() if not n.startswith("_")] + ["ArrayType", "StructType", "Field", "Cast"]
