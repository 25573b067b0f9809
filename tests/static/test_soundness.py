"""Points-to and escape checked against concrete runs of random IR programs.

Each drawn program is run concretely, threads sequentialised (a created
thread runs to its end at once, which is one of its interleavings). Every
address a Load, Store or MEMCPY really used, every pointer a register really
held, every function an indirect call really reached must be in the analysis'
answer; and every object two threads really touched must be shared, with every
access to it classified GLOBAL.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as hs

from distaff.analysis.ir import (
    Addr, Call, Cast, Const, Function, FuncType, Intrinsic, Ite, Kind, Load, ObjKind, Op,
    PtrAdd, PtrType, Reg, Return, StackVar, Store, StructType, Field, VoidType,
)
from distaff.analysis.static.escape import classify, shared_ids
from distaff.analysis.static.pointsto import MemObject, ObjectKind, points_to
from tests.static.irbuild import I64, S, gvar, program

VP = PtrType(VoidType())
CELL = StructType("cell", (Field("a", VP, 0), Field("b", VP, 8)), 16, 8)
FUNCS = ("main", "f0", "f1", "f2")
REGS = ("r0", "r1", "r2", "p0")


def reg(name):
    return Reg(name, VP)


@hs.composite
def instruction(draw, func: str):
    dst = reg(draw(hs.sampled_from(REGS[:3])))
    # Addresses are often the parameter or a stack object, values often stack
    # addresses: the flows that decide sharing.
    a = _operand(draw(hs.sampled_from(REGS + ("p0", "p0", "s0"))))
    b = _operand(draw(hs.sampled_from(REGS + ("s0",))))
    # Casts from integers make UNKNOWN pointers, which make everything they
    # touch shared: kept rare, so the other reasons for sharing get tested.
    kind = draw(hs.sampled_from((0, 0, 0, 1, 1, 2, 4, 4, 4, 5, 5, 5, 6, 7, 8, 9, 9, 10, 11) * 3 + (3,)))
    if kind == 0:
        target = draw(hs.sampled_from(("g0", "g1", "s0", "s0", "s1") + FUNCS[1:]))
        ok = ObjKind.GLOBAL if target[0] == "g" else ObjKind.STACK if target[0] == "s" else ObjKind.FUNCTION
        return _assign(dst, Addr(target, ok, VP))
    if kind == 1:
        return _assign(dst, PtrAdd(a, Const(draw(hs.sampled_from((0, 8, 16, -8))), I64), VP))
    if kind == 2:
        return _assign(dst, Ite(Const(draw(hs.integers(0, 1)), I64), a, b, VP))
    if kind == 3:
        return _assign(dst, Cast(Cast(a, I64), VP))
    if kind == 4:
        return Store(a, b, VP, S)
    if kind == 5:
        return Load(dst, a, VP, S)
    if kind == 6:
        return Intrinsic(Op.MALLOC, dst, (Const(16, I64),), S, name="malloc")
    if kind == 7:
        callee = Addr(draw(hs.sampled_from(FUNCS[1:])), ObjKind.FUNCTION, VP)
        return Call(dst, callee, (a,), S)
    if kind == 8:
        return Call(dst, a, (b,), S)
    if kind == 9:
        routine = draw(hs.sampled_from(FUNCS[1:] + ("reg",)))
        r = a if routine == "reg" else Addr(routine, ObjKind.FUNCTION, VP)
        handle = PtrAdd(Addr("s1", ObjKind.STACK, VP), Const(8, I64), VP)
        return Intrinsic(Op.THREAD_CREATE, None, (handle, Const(0, VP), r, b), S, Kind.GLOBAL)
    if kind == 10:
        return Intrinsic(Op.MEMCPY, None, (a, b, Const(16, I64)), S, Kind.GLOBAL)
    return Intrinsic(Op.THREAD_JOIN, None, (Const(0, I64), a), S, Kind.GLOBAL)


def _operand(name):
    return Addr(name, ObjKind.STACK, VP) if name.startswith("s") else reg(name)


def _assign(dst, e):
    from distaff.analysis.ir import Assign
    return Assign(dst, e, S)


@hs.composite
def programs(draw):
    functions = []
    for name in FUNCS:
        body = draw(hs.lists(instruction(name), min_size=3, max_size=14))
        body.append(Return(reg(draw(hs.sampled_from(REGS))), S))
        functions.append(Function(
            name, FuncType(VP, (VP,)), (reg("p0"),),
            (StackVar("s0", CELL, S), StackVar("s1", CELL, S)), tuple(body), S,
        ))
    return program(*functions, globals=(gvar("g0", CELL), gvar("g1", CELL)))


@dataclass(frozen=True)
class Obj:
    abstract: MemObject
    instance: int


class Run:
    """A concrete run. Values: ("int", n), ("ptr", Obj, offset)."""

    def __init__(self, prog):
        self.prog = prog
        self.memory: dict = {}
        self.instances = 0
        self.steps = 0
        self.accesses: list = []  # (func, pc, operand, Obj, offset, thread)
        self.reg_values: list = []  # (func, reg, Obj, offset)
        self.indirect: list = []  # (func, pc, callee)
        self.thread = 0
        self.threads = 0
        self.last_result = ("int", 0)

    def new(self, abstract):
        self.instances += 1
        return Obj(abstract, self.instances)

    def call(self, name, arg, depth):
        f = self.prog.function(name)
        if f is None or depth > 3:
            return ("int", 0)
        regs = {r: ("int", 0) for r in REGS}
        regs["p0"] = arg
        frame = {v.name: self.new(MemObject(ObjectKind.STACK, v.name, name)) for v in f.stack}
        self.note(name, "p0", arg)
        for pc, i in enumerate(f.body):
            self.steps += 1
            if self.steps > 400:
                return ("int", 0)
            if isinstance(i, Return):
                return regs[i.value.name]
            value = self.step(name, pc, i, regs, frame, depth)
            dst = getattr(i, "dst", None)
            if dst is not None and value is not None:
                regs[dst.name] = value
                self.note(name, dst.name, value)
        return ("int", 0)

    def note(self, func, name, v):
        if v[0] == "ptr":
            self.reg_values.append((func, name, v[1], v[2]))

    def eval(self, e, regs, frame):
        if isinstance(e, Reg):
            return regs[e.name]
        if isinstance(e, Const):
            return ("int", e.value)
        if isinstance(e, Addr):
            if e.kind is ObjKind.STACK:
                return ("ptr", frame[e.name], 0)
            if e.kind is ObjKind.FUNCTION:
                return ("ptr", Obj(MemObject(ObjectKind.FUNCTION, e.name), 0), 0)
            return ("ptr", Obj(MemObject(ObjectKind.GLOBAL, e.name), 0), 0)
        if isinstance(e, PtrAdd):
            v = self.eval(e.ptr, regs, frame)
            off = e.offset.value
            return ("ptr", v[1], v[2] + off) if v[0] == "ptr" else ("int", v[1] + off)
        if isinstance(e, Ite):
            return self.eval(e.then if e.cond.value else e.other, regs, frame)
        if isinstance(e, Cast):
            return self.eval(e.arg, regs, frame)
        raise AssertionError(e)

    def touch(self, func, pc, operand, v):
        if v[0] != "ptr" or v[1].abstract.kind is ObjectKind.FUNCTION:
            return False
        self.accesses.append((func, pc, operand, v[1], v[2], self.thread))
        return True

    def step(self, func, pc, i, regs, frame, depth):
        ev = lambda e: self.eval(e, regs, frame)
        if isinstance(i, Load):
            a = ev(i.addr)
            if self.touch(func, pc, 0, a):
                return self.memory.get((a[1], a[2]), ("int", 0))
            return ("int", 0)
        if isinstance(i, Store):
            a = ev(i.addr)
            if self.touch(func, pc, 0, a):
                self.memory[(a[1], a[2])] = ev(i.value)
            return None
        if isinstance(i, Call):
            target = ev(i.callee)
            if target[0] != "ptr" or target[1].abstract.kind is not ObjectKind.FUNCTION:
                return ("int", 0)
            if not isinstance(i.callee, Addr):
                self.indirect.append((func, pc, target[1].abstract.name))
            return self.call(target[1].abstract.name, ev(i.args[0]), depth + 1)
        if isinstance(i, Intrinsic):
            if i.op is Op.MALLOC:
                return ("ptr", self.new(MemObject(ObjectKind.HEAP, "malloc", func, pc)), 0)
            if i.op is Op.THREAD_CREATE:
                routine, arg = ev(i.args[2]), ev(i.args[3])
                self.touch(func, pc, 0, ev(i.args[0]))
                if routine[0] == "ptr" and routine[1].abstract.kind is ObjectKind.FUNCTION:
                    saved = self.thread
                    self.threads += 1
                    self.thread = self.threads
                    self.last_result = self.call(routine[1].abstract.name, arg, depth + 1)
                    self.thread = saved
                return None
            if i.op is Op.THREAD_JOIN:
                a = ev(i.args[1])
                if self.touch(func, pc, 0, a):
                    self.memory[(a[1], a[2])] = self.last_result
                return None
            if i.op is Op.MEMCPY:
                d, s = ev(i.args[0]), ev(i.args[1])
                if self.touch(func, pc, 0, d) and self.touch(func, pc, 1, s):
                    for (o, k), v in list(self.memory.items()):
                        if o == s[1] and s[2] <= k < s[2] + 16:
                            self.memory[(d[1], d[2] + k - s[2])] = v
                return None
        if hasattr(i, "expr"):
            return ev(i.expr)
        return None


def covered(locs, index, offset):
    return (index, offset) in locs or (index, None) in locs


@settings(max_examples=300, deadline=None)
@given(programs())
def test_points_to_and_escape_cover_a_concrete_run(prog):
    pts = points_to(prog)
    ids = {o: k for k, o in enumerate(pts.objects)}
    run = Run(prog)
    run.call("main", ("int", 0), 0)
    for func, pc, operand, obj, off, _ in run.accesses:
        locs = pts.operand_ids(func, pc)[operand]
        assert covered(locs, ids[obj.abstract], off), (func, pc, obj, off)
    for func, name, obj, off in run.reg_values:
        assert covered(pts.registers.get((func, name), ()), ids[obj.abstract], off), (func, name, obj)
    for func, pc, callee in run.indirect:
        assert callee in pts.callees[(func, pc)]
    threads_of: dict = {}
    for _, _, _, obj, _, thread in run.accesses:
        threads_of.setdefault(obj, set()).add(thread)
    shared = shared_ids(pts)
    classified = classify(prog, pts)
    for func, pc, _, obj, _, _ in run.accesses:
        if len(threads_of[obj]) > 1:
            assert ids[obj.abstract] in shared, obj
            assert classified.function(func).body[pc].kind is Kind.GLOBAL, (func, pc)
