"""Branches the must-reaching walk can decide from what ``main`` assumed.

The walk of :mod:`.reaching` follows both sides of a branch whose condition
it cannot fold to a constant, and joins them afterwards: a value defined on
one side becomes a join symbol, and its relation to the inputs is lost. Many
such branches are decided by what the program established before them:
``__VERIFIER_assume(1 <= x && x <= 2)`` followed by ``if (x > -2)``, or a
branch nested in another on the same input.

A *fact* is a condition term that holds on every path reaching a pc: an
assumption passed, or the side of a branch taken. Only conditions over
*settled* symbols are facts (constants and symbols ``main`` makes at pcs off
its cycles, :func:`.stored.settled`): such a symbol stands for one value per
run, so a fact about it stays true wherever the path goes on, and no join
can make it stale. Facts meet by intersection where paths join.

:class:`Decider` answers whether the facts imply a condition or its negation
(z3, in a context of its own, on integer terms only; a query it cannot
answer within :data:`TIMEOUT_MS` decides nothing).
"""

from __future__ import annotations

import z3

from distaff.analysis.context.stored import settled
from distaff.analysis.context.terms import Sym, condition, leaves
from distaff.analysis.ir import Const, IntType
from distaff.analysis.symex.values import Values

TIMEOUT_MS = 200
MAX_FACTS = 32  # more than this on one path: the newest are not kept


def usable(t, once: frozenset) -> bool:
    """Whether condition term ``t`` can be a fact: settled, over integers."""
    return settled(t, once) and all(isinstance(getattr(x, "type", None), IntType) and isinstance(x, (Const, Sym))
                                    for x in leaves(t))


class Decider:
    """Decides conditions from facts (see the module docstring); counts its
    queries in ``queries`` and what they decided in ``decided``."""

    def __init__(self):
        self.values: Values | None = None
        self.symbols: dict[str, object] = {}
        self.cache: dict = {}
        self.queries = 0
        self.decided = 0

    def decide(self, facts: frozenset, cond) -> bool | None:
        """True when ``facts`` imply ``cond``, False when they imply its
        negation, None otherwise."""
        key = (facts, cond)
        if key in self.cache:
            return self.cache[key]
        if self.values is None:
            self.values = Values(z3.Context())
        self.queries += 1
        V = self.values
        s = z3.Solver(ctx=V.ctx)
        s.set("timeout", TIMEOUT_MS)
        for t, holds in facts:
            c = V.lift_cond(self._cond(t))
            s.add(c if holds else z3.Not(c))
        c = V.lift_cond(self._cond(cond))
        answer = None
        if s.check(z3.Not(c)) == z3.unsat:
            answer = True
        elif s.check(c) == z3.unsat:
            answer = False
        if answer is not None:
            self.decided += 1
        self.cache[key] = answer
        return answer

    def _cond(self, t):
        return condition(t, self.values, None, 64, self._leaf)

    def _leaf(self, x):
        v = self.symbols.get(x.name)
        if v is None:
            v = self.symbols[x.name] = self.values.fresh(x.name, x.type.bits)
        return v
