"""Registers: which instructions define and read them, and reaching definitions.

Registers are function-local and no pointer reaches them, so their def-use
chains are exact per function. :func:`reaching` gives, for a use of a register
at a pc, the pcs of the definitions that may reach it; :data:`ENTRY` stands for
the value the register had on entry (a parameter's argument, or an
uninitialised local).
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis.ir import Function
from distaff.analysis.liveness import defined, used
from distaff.analysis.static.cfg import Cfg, build

ENTRY = -1


@dataclass(frozen=True, slots=True)
class ReachingDefs:
    """Reaching definitions of one function's registers, as bit sets: bit
    ``i`` of ``into[pc]`` is set when definition ``i`` may reach ``pc``."""

    def_pcs: tuple[int, ...]  # definition index -> its pc (ENTRY for entry values)
    masks: dict  # register name -> bit set of its definitions
    into: tuple[int, ...]

    def reaching(self, pc: int, reg: str) -> tuple[int, ...]:
        """pcs of the definitions of ``reg`` that may reach ``pc`` (ENTRY first)."""
        bits = self.into[pc] & self.masks.get(reg, 0)
        out = []
        while bits:
            low = bits & -bits
            out.append(self.def_pcs[low.bit_length() - 1])
            bits ^= low
        return tuple(sorted(out))


def reaching_definitions(func: Function, cfg: Cfg | None = None) -> ReachingDefs:
    cfg = cfg or build(func)
    body = func.body
    names = {p.name for p in func.params}
    for i in body:
        names |= used(i)
    def_pcs: list[int] = []
    masks: dict[str, int] = {}
    entry_bits = 0
    for name in sorted(names):
        masks[name] = 1 << len(def_pcs)
        entry_bits |= 1 << len(def_pcs)
        def_pcs.append(ENTRY)
    gen = [0] * len(body)
    kill_reg: list[str | None] = [None] * len(body)
    for pc, i in enumerate(body):
        name = defined(i)
        if name is not None:
            bit = 1 << len(def_pcs)
            def_pcs.append(pc)
            gen[pc] = bit
            masks[name] = masks.get(name, 0) | bit
            kill_reg[pc] = name
    into = [0] * len(body)
    out = [0] * len(body)
    order = _forward_order(cfg, len(body))
    changed = True
    while changed:
        changed = False
        for pc in order:
            bits = entry_bits if pc == 0 else 0
            for p in cfg.pred[pc]:
                bits |= out[p]
            into[pc] = bits
            k = kill_reg[pc]
            new = gen[pc] | (bits & ~masks[k]) if k is not None else bits
            if new != out[pc]:
                out[pc] = new
                changed = True
    return ReachingDefs(tuple(def_pcs), masks, tuple(into))


def _forward_order(cfg: Cfg, n: int) -> list[int]:
    """Every pc, those reachable from the entry in reverse postorder first."""
    seen = [False] * n
    post: list[int] = []
    if n:
        seen[0] = True
        stack = [(0, iter(cfg.succ[0]))]
        while stack:
            node, it = stack[-1]
            for nxt in it:
                if nxt < n and not seen[nxt]:
                    seen[nxt] = True
                    stack.append((nxt, iter(cfg.succ[nxt])))
                    break
            else:
                stack.pop()
                post.append(node)
    post.reverse()
    return post + [pc for pc in range(n) if not seen[pc]]
