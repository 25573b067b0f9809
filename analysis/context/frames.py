"""What a context frame knows besides its definitions: live registers and guards.

* :func:`live_registers` -- the registers some path from a pc reads before
  writing them. Only those get a value in the initial state: a dead
  register would only add symbols to counterexamples.
* :func:`guards` -- branch outcomes that must hold at a pc. When a branch
  dominates the pc, no path from its other side reaches the pc without
  passing the branch again, and the registers of its condition have the
  same must-reaching terms at the branch and at the pc, then the latest
  execution of the branch went the pc's way and its condition still has
  the value it had: a fact of the initial state. (The arbitrary-context
  paper's definitions would forget that ``x < X`` holds inside
  ``for (x = 0; x < X; x++)``; a guard keeps it, so a fresh loop counter
  does not overflow on ``x++``.) An ``assume`` that dominates the pc is a
  guard that always goes the pc's way: its condition held at its latest
  execution, and it still holds when its terms are the same at the pc.
"""

from __future__ import annotations

from distaff.analysis import ir
from distaff.analysis.ir import Branch, Intrinsic, Op
from distaff.analysis.liveness import defined, used


def live_registers(f: ir.Function) -> list[frozenset[str]]:
    """For each pc, the registers live before it (backward may-analysis)."""
    n = len(f.body)
    succ = [f.successors(pc) for pc in range(n)]
    uses = [used(i) for i in f.body]
    defs = [defined(i) for i in f.body]
    live: list[frozenset[str]] = [frozenset()] * n
    changed = True
    while changed:
        changed = False
        for pc in range(n - 1, -1, -1):
            out: frozenset[str] = frozenset()
            for s in succ[pc]:
                out |= live[s]
            d = defs[pc]
            new = uses[pc] | (out - {d} if d is not None else out)
            if new != live[pc]:
                live[pc] = new
                changed = True
    return live


def dominators(f: ir.Function) -> list[frozenset[int]]:
    """For each pc, the pcs on every path from the entry to it (itself included)."""
    n = len(f.body)
    preds: list[list[int]] = [[] for _ in range(n)]
    for pc in range(n):
        for s in f.successors(pc):
            preds[s].append(pc)
    everything = frozenset(range(n))
    dom = [everything] * n
    dom[0] = frozenset({0})
    changed = True
    while changed:
        changed = False
        for pc in range(1, n):
            ps = [dom[p] for p in preds[pc]]
            new = (frozenset.intersection(*ps) if ps else frozenset()) | {pc}
            if new != dom[pc]:
                dom[pc] = new
                changed = True
    return dom


def _reach_avoiding(f: ir.Function, start: int, avoid: int) -> set[int]:
    seen, todo = set(), [start]
    while todo:
        x = todo.pop()
        if x == avoid or x in seen:
            continue
        seen.add(x)
        todo.extend(f.successors(x))
    return seen


def guards(f: ir.Function, pc: int, cond_at) -> list[tuple[ir.Expr, bool, int]]:
    """Branches whose outcome holds at ``pc``, and assumptions that hold there:
    ``(condition, outcome, pc of the branch or the assume)``.
    ``cond_at(p, expr)`` is the term of ``expr`` before pc ``p`` (None when
    unreachable); a guard is kept only when it is the same at the branch and
    at ``pc``."""
    out = []
    dom = dominators(f)[pc]
    for b in sorted(dom):
        i = f.body[b]
        if b == pc:
            continue
        if isinstance(i, Intrinsic) and i.op is Op.ASSUME and len(i.args) == 1:
            cond, via_then = i.args[0], True
        elif isinstance(i, Branch) and i.then != i.other:
            cond = i.cond
            via_then = pc in _reach_avoiding(f, i.then, b)
            if via_then == (pc in _reach_avoiding(f, i.other, b)):
                continue
        else:
            continue
        here, there = cond_at(pc, cond), cond_at(b, cond)
        if here is None or here != there:
            continue
        out.append((cond, via_then, b))
    return out
