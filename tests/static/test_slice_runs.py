"""Slices checked against the dynamic dependences of concrete runs.

The random pointer programs of :mod:`test_soundness`, with assertions added,
are run concretely while recording, for every executed instruction, the
instruction instances it depends on: the last definitions of the registers it
reads (a parameter is defined by the argument at the call site, a call's
result by the callee's return), the last writers of the memory cells it reads
(in any thread), and the call or thread creation that ran its function. The
instructions of every dynamic slice of an assertion must be in its static
slice, computed without the always-included assertions.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as hs

from distaff.analysis.ir import AssertKind, Binary, Call, Const, Intrinsic, Load, Op, Return, regs_of
from distaff.analysis.liveness import used
from distaff.analysis.static.facts import analyze
from distaff.analysis.static.pointsto import MemObject, ObjectKind
from distaff.analysis.static.slicing import slice_of
from tests.static.irbuild import I32, S
from tests.static.test_soundness import REGS, Run, programs, reg


@hs.composite
def programs_with_assertions(draw):
    prog = draw(programs())
    functions = list(prog.functions)
    for _ in range(draw(hs.integers(1, 3))):
        k = draw(hs.integers(0, len(functions) - 1))
        f = functions[k]
        pc = draw(hs.integers(0, len(f.body) - 1))
        cond = Binary("!=", reg(draw(hs.sampled_from(REGS))), Const(0, reg("x").type), I32)
        check = Intrinsic(Op.ASSERT, None, (cond,), S, assert_kind=AssertKind.ASSERT, text="x")
        functions[k] = dataclasses.replace(f, body=f.body[:pc] + (check,) + f.body[pc:])
    return dataclasses.replace(prog, functions=tuple(functions), _index={})


class TracedRun(Run):
    """A :class:`Run` that records dynamic dependences. A node is an executed
    instruction instance: ``(func, pc, deps)``."""

    def __init__(self, prog):
        super().__init__(prog)
        self.nodes: list = []
        self.writer: dict = {}  # concrete cell -> node
        self.checks: list = []  # nodes of executed assertions
        self.last_return = None

    def node(self, func, pc, deps):
        self.nodes.append((func, pc, tuple(d for d in deps if d is not None)))
        return len(self.nodes) - 1

    def call(self, name, arg, depth, arg_node=None, enter_node=None):
        f = self.prog.function(name)
        if f is None or depth > 3:
            return ("int", 0), None
        regs = {r: ("int", 0) for r in REGS}
        regs["p0"] = arg
        defs = {r: None for r in REGS}
        defs["p0"] = arg_node
        frame = {v.name: self.new(MemObject(ObjectKind.STACK, v.name, name)) for v in f.stack}
        for pc, i in enumerate(f.body):
            self.steps += 1
            if self.steps > 400:
                return ("int", 0), None
            reads = lambda e: [defs[r] for r in regs_of(e)]
            control = [enter_node]
            if isinstance(i, Return):
                n = self.node(name, pc, control + reads(i.value))
                return regs[i.value.name], n
            if isinstance(i, Call):
                n = self.node(name, pc, control + reads(i.callee))
                target = self.eval(i.callee, regs, frame)
                value, ret_node = ("int", 0), None
                if target[0] == "ptr" and target[1].abstract.kind.value == "function":
                    param = self.node(name, pc, [n] + reads(i.args[0]))
                    value, ret_node = self.call(target[1].abstract.name, self.eval(i.args[0], regs, frame),
                                                depth + 1, param, n)
                regs[i.dst.name], defs[i.dst.name] = value, ret_node
                continue
            if isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE:
                n = self.node(name, pc, control + [d for a in i.args[:3] for d in reads(a)])
                handle = self.eval(i.args[0], regs, frame)
                if handle[0] == "ptr":
                    self.writer[(handle[1], handle[2])] = n
                routine = self.eval(i.args[2], regs, frame)
                if routine[0] == "ptr" and routine[1].abstract.kind.value == "function":
                    param = self.node(name, pc, [n] + reads(i.args[3]))
                    _, self.last_return = self.call(routine[1].abstract.name,
                                                    self.eval(i.args[3], regs, frame), depth + 1, param, n)
                continue
            deps = control + [defs[r] for r in sorted(used(i))]
            if isinstance(i, Load):
                a = self.eval(i.addr, regs, frame)
                if a[0] == "ptr":
                    deps.append(self.writer.get((a[1], a[2])))
            if isinstance(i, Intrinsic) and i.op is Op.MEMCPY:
                d, s = self.eval(i.args[0], regs, frame), self.eval(i.args[1], regs, frame)
                if d[0] == "ptr" and s[0] == "ptr":
                    deps += [w for (o, k), w in self.writer.items() if o == s[1] and s[2] <= k < s[2] + 16]
            if isinstance(i, Intrinsic) and i.op is Op.THREAD_JOIN:
                deps.append(self.last_return)
            n = self.node(name, pc, deps)
            if isinstance(i, Intrinsic) and i.op is Op.ASSERT:
                self.checks.append(n)
            before = dict(self.memory)
            value = self.step(name, pc, i, regs, frame, depth)
            for cell, v in self.memory.items():
                if before.get(cell, object()) is not v:
                    self.writer[cell] = n
            dst = getattr(i, "dst", None)
            if dst is not None and value is not None:
                regs[dst.name], defs[dst.name] = value, n
        return ("int", 0), None


@settings(max_examples=200, deadline=None)
@given(programs_with_assertions())
def test_static_slice_contains_every_dynamic_slice(prog):
    facts = analyze(prog)
    run = TracedRun(prog)
    run.call("main", ("int", 0), 0)
    for check in run.checks:
        func, pc, _ = run.nodes[check]
        static = slice_of(prog, f"{func}:{pc}", facts, other_assertions=False)
        seen, work = {check}, [check]
        while work:
            f, p, deps = run.nodes[work.pop()]
            assert static.contains(f, p), (func, pc, f, p)
            for d in deps:
                if d not in seen:
                    seen.add(d)
                    work.append(d)
