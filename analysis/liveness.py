"""Which registers an instruction reads and writes, and which are live.

Registers are function-local and no pointer reaches them, so what an
instruction defines and uses is exact. The engine asks which registers are
live at a loop head (a round of a spin loop that leaves them as they were
changed nothing: :mod:`distaff.analysis.symex.awaits`); the static analyses
build reaching definitions on the same two functions
(:mod:`distaff.analysis.static.defuse`).
"""

from __future__ import annotations

from distaff.analysis.ir import (
    Assign, Branch, Call, Function, Instr, Intrinsic, Load, Return, Store, regs_of, successors,
)


def defined(instr: Instr) -> str | None:
    """The register ``instr`` writes, if any."""
    dst = getattr(instr, "dst", None)
    return dst.name if dst is not None else None


def used(instr: Instr) -> frozenset[str]:
    """Every register ``instr`` reads."""
    if isinstance(instr, Assign):
        return regs_of(instr.expr)
    if isinstance(instr, Load):
        return regs_of(instr.addr)
    if isinstance(instr, Store):
        return regs_of(instr.addr) | regs_of(instr.value)
    if isinstance(instr, Branch):
        return regs_of(instr.cond)
    if isinstance(instr, Return):
        return regs_of(instr.value) if instr.value is not None else frozenset()
    if isinstance(instr, (Call, Intrinsic)):
        out = regs_of(instr.callee) if isinstance(instr, Call) else frozenset()
        for a in instr.args:
            out |= regs_of(a)
        return out
    return frozenset()


def live_registers(func: Function) -> tuple[frozenset[str], ...]:
    """For each pc of ``func``, the registers live on entry to it: read on
    some path from there before being written (a register read before any
    write is a fresh symbol the first time, kept: it is live too)."""
    body = func.body
    uses = [used(i) for i in body]
    defs = [defined(i) for i in body]
    succ = [successors(body, pc) for pc in range(len(body))]
    live: list[frozenset[str]] = [frozenset()] * len(body)
    changed = True
    while changed:
        changed = False
        for pc in reversed(range(len(body))):
            out: frozenset[str] = frozenset()
            for q in succ[pc]:
                out |= live[q]
            d = defs[pc]
            new = uses[pc] | (out - {d} if d is not None else out)
            if new != live[pc]:
                live[pc] = new
                changed = True
    return tuple(live)


__all__ = ["defined", "live_registers", "used"]
