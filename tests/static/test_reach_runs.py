"""Reach and distance checked against concrete walks of random control flow.

Random functions branch (forwards and backwards), jump, call each other
directly and through a function pointer, start threads, abort, return, and
hold a few assertions. A walk follows random branch choices, running a
created thread at once (one of its interleavings). Whenever an assertion runs,
every earlier point of its thread, and of the threads that created it before
they did, must have been told that it may reach the assertion, at a distance
no larger than the number of instructions actually run in between.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from distaff.analysis.ir import (
    Addr, AssertKind, Branch, Call, Const, Function, FuncType, Intrinsic, Ite, Jump, Kind,
    ObjKind, Op, PtrType, Reg, Return, StackVar, VoidType,
)
from distaff.analysis.static.facts import analyze
from tests.static.irbuild import I32, I64, S, assign, program

VP = PtrType(VoidType())
FUNCS = ("main", "f0", "f1", "f2")
FP = Reg("fp", VP)


def faddr(name):
    return Addr(name, ObjKind.FUNCTION, VP)


@hs.composite
def body(draw, name: str, n: int):
    out = []
    for pc in range(n):
        kind = draw(hs.sampled_from("aabbbjcccppttaeurrsss" if name != "main" else "aabbbjcccppttturss"))
        target = lambda: draw(hs.integers(0, n - 1))
        if kind == "a":
            out.append(assign(Reg("x", I32), Const(pc, I32)))
        elif kind == "b":
            out.append(Branch(Reg("c", I32), target(), target(), S))
        elif kind == "j":
            out.append(Jump(target(), S))
        elif kind == "c":
            out.append(Call(None, faddr(draw(hs.sampled_from(FUNCS[1:]))), (), S))
        elif kind == "p":
            out.append(Call(None, FP, (), S))
        elif kind == "t":
            routine = draw(hs.sampled_from(FUNCS[1:] + ("fp",)))
            r = FP if routine == "fp" else faddr(routine)
            out.append(Intrinsic(Op.THREAD_CREATE, None,
                                 (Addr("h", ObjKind.STACK, VP), Const(0, VP), r, Const(0, VP)),
                                 S, Kind.GLOBAL))
        elif kind == "e":
            out.append(Intrinsic(Op.THREAD_EXIT, None, (Const(0, VP),), S, Kind.GLOBAL))
        elif kind == "u":
            out.append(Intrinsic(Op.ABORT, None, (), S))
        elif kind == "r":
            out.append(Return(None, S))
        else:
            out.append(Intrinsic(Op.ASSERT, None, (Const(1, I32),), S,
                                 assert_kind=AssertKind.ASSERT, text="1"))
    # Each function first sets its own function pointer register.
    choice = Ite(Reg("c", I32), faddr(draw(hs.sampled_from(FUNCS[1:]))),
                 faddr(draw(hs.sampled_from(FUNCS[1:]))), VP)
    return [assign(FP, choice)] + [_shift(i, 1) for i in out] + [Return(None, S)]


def _shift(i, k=0):
    import dataclasses
    if isinstance(i, Branch):
        return dataclasses.replace(i, then=i.then + k, other=i.other + k)
    if isinstance(i, Jump):
        return dataclasses.replace(i, target=i.target + k)
    return i


@hs.composite
def programs(draw):
    funcs = []
    for name in FUNCS:
        n = draw(hs.integers(1, 10))
        funcs.append(Function(name, FuncType(VP, ()), (), (StackVar("h", I64, S),),
                              tuple(draw(body(name, n))), S))
    return program(*funcs)


class Walk:
    def __init__(self, prog, coins):
        self.prog = prog
        self.coins = coins
        self.coin = 0
        self.step = 0
        self.events = []  # (step, thread, frames)
        self.asserts = []  # (step, thread, func, pc)
        self.parent = {0: None}  # thread -> (parent thread, step of the create)
        self.threads = 0
        self.stopped = False

    def flip(self):
        self.coin += 1
        return self.coins[self.coin % len(self.coins)]

    def run_thread(self, thread, func):
        stack = [[func, 0, None]]  # function, pc, its fp register
        while stack and not self.stopped:
            if self.step > 300 or len(stack) > 6:
                self.stopped = True
                return
            f, pc, fp = stack[-1]
            body = self.prog.function(f).body
            i = body[pc]
            self.events.append((self.step, thread, tuple((g, p) for g, p, _ in stack)))
            self.step += 1
            nxt = pc + 1
            if isinstance(i, Branch):
                nxt = i.then if self.flip() else i.other
            elif isinstance(i, Jump):
                nxt = i.target
            elif isinstance(i, Return):
                stack.pop()
                if stack:
                    stack[-1][1] += 1
                continue
            elif isinstance(i, Call):
                callee = i.callee.name if isinstance(i.callee, Addr) else fp
                stack.append([callee, 0, None])
                continue
            elif isinstance(i, Intrinsic):
                if i.op is Op.ASSERT:
                    self.asserts.append((self.step - 1, thread, f, pc))
                elif i.op is Op.ABORT:
                    self.stopped = True
                    return
                elif i.op is Op.THREAD_EXIT:
                    return
                elif i.op is Op.THREAD_CREATE:
                    routine = i.args[2].name if isinstance(i.args[2], Addr) else fp
                    self.threads += 1
                    child = self.threads
                    self.parent[child] = (thread, self.step - 1)
                    self.run_thread(child, routine)
            elif getattr(i, "dst", None) == FP:
                e = i.expr
                stack[-1][2] = (e.then if self.flip() else e.other).name
            stack[-1][1] = nxt


@settings(max_examples=200, deadline=None)
@given(programs(), hs.lists(hs.booleans(), min_size=1, max_size=20))
def test_reach_and_distance_bound_every_real_path(prog, coins):
    facts = analyze(prog)
    walk = Walk(prog, coins)
    walk.run_thread(0, "main")
    for step, thread, func, pc in walk.asserts:
        reach = facts.reach(f"{func}:{pc}")
        limit = {thread: step}
        t = thread
        while walk.parent[t] is not None:
            t, created_at = walk.parent[t]
            limit[t] = min(limit.get(t, created_at), created_at)
        for s, th, frames in walk.events:
            if th in limit and s <= limit[th] and (th == thread or s < limit[th]):
                d = reach.from_stack(list(frames))
                assert d is not None, (func, pc, frames)
                assert d <= step - s, (func, pc, frames, d, step - s)
