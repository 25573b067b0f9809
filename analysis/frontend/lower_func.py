"""The lowering of one function body (or of file-scope constant expressions):
the instruction buffer, labels, temporaries, and checkpoints for speculative
lowering.

:class:`Lowerer` combines the type, expression, statement and initialiser
mixins over one buffer. A *static* lowerer has no buffer: it evaluates
file-scope constant expressions, and any instruction it would emit raises
:class:`NotConstant`.

What a function's lowering reports unsupported also leaves a mark where it
is, a NONDET without destination named :data:`UNSUPPORTED_MARK`: the engine
taints a run that executes it, and a violation, run-time error or deadlock
found on such a run is undecided (the construct is in its range: a
constant expression's, as an array size, is marked after it).
"""

from __future__ import annotations

import dataclasses

import tree_sitter as ts

from distaff.analysis.ir import Branch, Const, CType, Instr, Intrinsic, Jump, Op, Reg, Span, StackVar
from distaff.analysis.frontend.labels import Goto, IfGoto, Label
from distaff.analysis.frontend.lower_env import NotConstant, RawSite, Scope, Unit
from distaff.analysis.ir import FindingKind
from distaff.analysis.frontend.lower_aggregate import AggregateLowering
from distaff.analysis.frontend.lower_ambig import AmbiguityLowering
from distaff.analysis.frontend.lower_atomic import AtomicLowering
from distaff.analysis.frontend.lower_call import CallLowering
from distaff.analysis.frontend.lower_expr import ExprLowering
from distaff.analysis.frontend.lower_generic import GenericLowering
from distaff.analysis.frontend.lower_gnu import GnuLowering
from distaff.analysis.frontend.lower_const import null_based
from distaff.analysis.frontend.lower_init import InitLowering
from distaff.analysis.frontend.lower_literals import LiteralLowering
from distaff.analysis.frontend.lower_logic import LogicLowering
from distaff.analysis.frontend.lower_math import MathLowering
from distaff.analysis.frontend.lower_stmt import StmtLowering
from distaff.analysis.frontend.lower_string import StringLowering
from distaff.analysis.frontend.lower_types import TypeLowering


# the name of the NONDET an unsupported construct leaves in a function's body
# (the engine's distaff.analysis.symex.intrinsics knows it too)
UNSUPPORTED_MARK = "unsupported"


@dataclasses.dataclass(slots=True)
class Checkpoint:
    instrs: int
    temps: int
    findings: int
    strings: int
    stack: int
    sites: int


class Lowerer(TypeLowering, ExprLowering, LiteralLowering, LogicLowering, CallLowering, StmtLowering,
              InitLowering, AtomicLowering, StringLowering, AmbiguityLowering, GnuLowering, AggregateLowering,
              MathLowering, GenericLowering):
    def __init__(
        self,
        unit: Unit,
        scope: Scope,
        global_scope: Scope,
        func: str | None = None,
        static: bool = False,
    ) -> None:
        self.u = unit
        self.ct = unit.ct
        self.scope = scope
        self.global_scope = global_scope
        self.func = func
        self.static = static
        self.discard = False
        self.instrs: list[Instr | Goto | IfGoto] = []
        self.stack: list[StackVar] = []
        self.ntemps = 0
        self.names: dict[str, int] = {}
        self.addr_taken: set[str] = set()
        self.loops: list[tuple[Label, Label | None]] = []
        self.goto_labels: dict[str, Label] = {}
        self.case_labels: dict[int, Label] = {}
        self.ret_type: CType | None = None
        self.sret: Reg | None = None  # where an aggregate result goes (lower_aggregate's convention)
        self.sites: list[tuple[int, set, Span]] = []
        self.heights: dict[int, tuple[int, object]] = {}
        self.chain_inner: set[int] = set()
        self.marking = True  # unsupported constructs leave a mark (not inside const_int)

    # -- buffer -------------------------------------------------------------

    def span(self, node: ts.Node) -> Span:
        return self.u.spans.span(node)

    def emit(self, instr: Instr) -> int:
        if self.discard:
            return -1
        if self.static:
            raise NotConstant
        self.instrs.append(instr)
        return len(self.instrs) - 1

    def unsupported(self, node: ts.Node | Span, message: str) -> None:
        """Report C distaff does not cover at ``node``, and in a function
        body mark the place (see the module docstring)."""
        self.u.unsupported(node, message)
        self.mark_unsupported(node)

    def mark_unsupported(self, node: ts.Node | Span) -> None:
        if self.func is not None and self.marking and not self.static and not self.discard:
            span = node if isinstance(node, Span) else self.span(node)
            self.emit(Intrinsic(Op.NONDET, None, (), span, name=UNSUPPORTED_MARK))

    def temp(self, t: CType) -> Reg:
        self.ntemps += 1
        return Reg(f"%t{self.ntemps - 1}", t)

    def label(self) -> Label:
        return Label()

    def place(self, label: Label) -> None:
        label.pc = len(self.instrs)

    def fresh_name(self, name: str) -> str:
        """A function-unique name for a C local (``x``, then ``x.1`` ...)."""
        n = self.names.get(name)
        if n is None:
            self.names[name] = 0
            return name
        while True:
            n += 1
            cand = f"{name}.{n}"
            if cand not in self.names:
                self.names[name] = n
                self.names[cand] = 0
                return cand

    def checkpoint(self) -> Checkpoint:
        return Checkpoint(
            len(self.instrs), self.ntemps, len(self.u.findings), len(self.u.strings),
            len(self.stack), len(self.sites),
        )

    def rollback(self, cp: Checkpoint) -> None:
        del self.instrs[cp.instrs:]
        self.ntemps = cp.temps
        for f in self.u.findings[cp.findings:]:
            self.u.finding_keys.discard((f.kind, f.message, f.span))
        del self.u.findings[cp.findings:]
        del self.u.strings[cp.strings:]
        del self.stack[cp.stack:]
        del self.sites[cp.sites:]

    # -- finishing ----------------------------------------------------------

    def finish(self) -> tuple[tuple[Instr, ...], list[tuple[int, set, Span]]]:
        """Resolve labels, drop jumps to the next instruction, and renumber.
        Returns the body and this function's thread sites (pcs renumbered)."""
        instrs = self.instrs
        end = len(instrs)

        def target(x: Label) -> int:
            return end if x.pc is None else x.pc

        # a jump to the next instruction is dropped; pcs after it shift down
        new_pc = [0] * (end + 1)
        n = 0
        for pc, i in enumerate(instrs):
            new_pc[pc] = n
            if not (type(i) is Goto and target(i.target) == pc + 1):
                n += 1
        new_pc[end] = n
        body: list[Instr] = []
        for pc, i in enumerate(instrs):
            kind = type(i)
            if kind is Goto:
                t = target(i.target)
                if t == pc + 1:
                    continue
                i = Jump(new_pc[t], i.span, i.kind)
            elif kind is IfGoto:
                i = Branch(i.cond, new_pc[target(i.then)], new_pc[target(i.other)], i.span, i.kind, i.text)
            body.append(i)
        sites = [(new_pc[pc], src, span) for pc, src, span in self.sites]
        return tuple(body), sites

    def static_lowerer(self) -> "Lowerer":
        """A lowerer for constant expressions in this lowerer's scope."""
        if self.static:
            return self
        return Lowerer(self.u, self.scope, self.global_scope, self.func, static=True)

    def const_int(self, node: ts.Node) -> int | None:
        """The value of integer constant expression ``node``, or None."""
        cp = self.checkpoint()
        saved, marking = self.discard, self.marking
        self.marking = False
        try:
            e = self.rvalue(node)
            emitted = len(self.instrs) != cp.instrs
        except NotConstant:
            return None
        finally:
            self.discard, self.marking = saved, marking
        if not emitted and not isinstance(e, Const):
            e = null_based(e)  # offsetof written as &((T *)0)->m
        if emitted or not isinstance(e, Const):
            self.rollback(cp)
            return None
        if len(self.u.findings) > cp.findings and any(
                f.kind is FindingKind.UNSUPPORTED for f in self.u.findings[cp.findings:]):
            self.mark_unsupported(node)
        return e.value

    def raw_sites(self, sites) -> list[RawSite]:
        return [RawSite(self.func or "", pc, src, span) for pc, src, span in sites]
