"""Terse constructors for hand-written IR programs in the static-analysis tests.

Each instruction gets a span whose line is its index in a running counter, so
tests can name instructions by pc and still see distinct spans."""

from __future__ import annotations

from distaff.analysis import ir
from distaff.analysis.ir import (
    Addr, Assign, Branch, Call, Const, Function, FuncType, GlobalVar, InitValue,
    IntType, Intrinsic, Jump, Kind, Load, ObjKind, Op, Program, PtrAdd, PtrType, Reg,
    Return, Span, StackVar, Store, ThreadSite,
)

I32 = IntType(32, True)
I64 = IntType(64, True)
P = PtrType(I32)
VP = PtrType(ir.VoidType())
PP = PtrType(P)


def span(line: int = 1) -> Span:
    return Span("t.c", line, 1, line, 2)


S = span()


def r(name: str, t: ir.CType = P) -> Reg:
    return Reg(name, t)


def c(v: int, t: ir.CType = I32) -> Const:
    return Const(v, t)


def g(name: str, t: ir.CType = P) -> Addr:
    return Addr(name, ObjKind.GLOBAL, PtrType(t))


def st(name: str, t: ir.CType = P) -> Addr:
    return Addr(name, ObjKind.STACK, PtrType(t))


def fa(name: str) -> Addr:
    return Addr(name, ObjKind.FUNCTION, PtrType(FuncType(VP, (VP,))))


def add(p: ir.Expr, off: ir.Expr | int) -> PtrAdd:
    return PtrAdd(p, c(off, I64) if isinstance(off, int) else off, p.type)


def assign(dst: Reg, e: ir.Expr) -> Assign:
    return Assign(dst, e, S)


def load(dst: Reg, addr: ir.Expr, t: ir.CType | None = None) -> Load:
    return Load(dst, addr, t or dst.type, S)


def store(addr: ir.Expr, value: ir.Expr, t: ir.CType | None = None) -> Store:
    return Store(addr, value, t or value.type, S)


def call(callee: ir.Expr, *args: ir.Expr, dst: Reg | None = None) -> Call:
    return Call(dst, callee, tuple(args), S)


def op(o: Op, *args: ir.Expr, dst: Reg | None = None, name: str = "") -> Intrinsic:
    kind = Kind.GLOBAL if o in ir.SYNC_OPS else Kind.LOCAL
    return Intrinsic(o, dst, tuple(args), S, kind=kind, name=name or o.value)


def ret(e: ir.Expr | None = None) -> Return:
    return Return(e, S)


def branch(cond: ir.Expr, then: int, other: int) -> Branch:
    return Branch(cond, then, other, S)


def jump(target: int) -> Jump:
    return Jump(target, S)


def assert_(cond: ir.Expr, text: str = "") -> Intrinsic:
    return Intrinsic(Op.ASSERT, None, (cond,), S, name="assert",
                     assert_kind=ir.AssertKind.ASSERT, text=text)


def fn(name: str, body: list, params: tuple[Reg, ...] = (), stack: dict | None = None,
       ret_type: ir.CType = I32) -> Function:
    """``stack`` maps stack object names to their types."""
    body = [dataclass_with_line(i, pc + 1) for pc, i in enumerate(body)]
    return Function(
        name, FuncType(ret_type, tuple(p.type for p in params)), params,
        tuple(StackVar(n, t, S) for n, t in (stack or {}).items()), tuple(body), S,
    )


def dataclass_with_line(i: ir.Instr, line: int) -> ir.Instr:
    import dataclasses
    return dataclasses.replace(i, span=span(line))


def gvar(name: str, t: ir.CType = P, init: tuple[InitValue, ...] = ()) -> GlobalVar:
    return GlobalVar(name, t, init, S)


def program(*functions: Function, globals: tuple[GlobalVar, ...] = (),
            threads: tuple[ThreadSite, ...] = (), externals: tuple[str, ...] = ()) -> Program:
    return Program("t.c", ir.DataModel.LP64, tuple(globals), tuple(functions), tuple(threads),
                   (), externals)


def thread_sites(p: Program) -> tuple[ThreadSite, ...]:
    """The ThreadSite of every THREAD_CREATE whose routine is a function address."""
    out = []
    for f in p.functions:
        for pc, i in enumerate(f.body):
            if isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE and isinstance(i.args[2], Addr):
                out.append(ThreadSite(f.name, pc, (i.args[2].name,), False, i.span))
    return tuple(out)


def create(handle: ir.Expr, routine: ir.Expr, arg: ir.Expr) -> Intrinsic:
    return op(Op.THREAD_CREATE, handle, c(0, VP), routine, arg, name="pthread_create")


def with_threads(p: Program) -> Program:
    import dataclasses
    return dataclasses.replace(p, threads=thread_sites(p), _index={})
