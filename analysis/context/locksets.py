"""Locksets: the locks a thread may hold, and must hold, at its context pc.

The arbitrary-context paper (§4.4) computes ``L+(T)``, the locks thread T
*may* hold at its initial pc, with relative locksets in the manner of
RELAY: each function contributes what it may acquire without releasing and
what it must release without first acquiring. We keep four sets of lock
address terms (:mod:`distaff.analysis.context.terms`), relative to the entry of the
function being walked:

* ``held_may`` -- acquired here and possibly still held (union at joins);
  :data:`ANY` stands for a lock the analysis cannot name;
* ``held_must`` -- acquired here and certainly still held (intersection);
* ``released_may`` / ``released_must`` -- locks held on entry that this
  function may / must release.

A walk of a thread starts from its routine with nothing held, so at the
context pc ``held_may`` is ``L+(T)`` and ``held_must`` the locks T certainly
holds. A call composes the callee's relative sets into the caller's
(:meth:`LockState.after_call`): the callee's *summary* for that call site.

The lock invariant (:mod:`distaff.analysis.context.invariants`) uses both: a lock
some thread must hold is taken; a lock no thread may hold is free. (The
paper's invariant reads ``L+`` as held; keeping "must" apart keeps the
initial state an over-approximation when a lock is taken on some paths
only.)
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis.context.terms import may_equal


class _Any:
    """Some lock the analysis cannot name."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ANY"


ANY = _Any()


@dataclass(frozen=True, slots=True)
class LockState:
    held_may: frozenset = frozenset()
    held_must: frozenset = frozenset()
    released_may: frozenset = frozenset()
    released_must: frozenset = frozenset()

    def lock(self, t, certain: bool = True) -> "LockState":
        """``t`` acquired (``certain`` False for a trylock: maybe)."""
        return LockState(self.held_may | {t}, self.held_must | {t} if certain else self.held_must,
                         self.released_may, self.released_must)

    def unlock(self, t) -> "LockState":
        was_may, was_must = t in self.held_may, t in self.held_must
        held_may = self.held_may - {t}
        held_must = frozenset(u for u in self.held_must if not may_equal(u, t))
        rel_may, rel_must = self.released_may, self.released_must
        if not was_must:
            rel_may = rel_may | {t}
        if not was_may:
            rel_must = rel_must | {t}
        return LockState(held_may, held_must, rel_may, rel_must)

    def join(self, other: "LockState") -> "LockState":
        return LockState(self.held_may | other.held_may, self.held_must & other.held_must,
                         self.released_may | other.released_may, self.released_must & other.released_must)

    def after_call(self, callee: "LockState") -> "LockState":
        """The caller's state after a call whose callee ended in ``callee``
        (relative to the callee's entry)."""
        if ANY in callee.released_may:
            held_must = frozenset()
        else:
            held_must = frozenset(u for u in self.held_must
                                  if not any(may_equal(u, r) for r in callee.released_may))
        held_may = (self.held_may - callee.released_must) | callee.held_may
        held_must = held_must | callee.held_must
        rel_must = self.released_must | frozenset(r for r in callee.released_must if r not in self.held_may)
        rel_may = self.released_may | frozenset(r for r in callee.released_may if r not in self.held_must)
        return LockState(held_may, held_must, rel_may, rel_must)

    def map_terms(self, fn) -> "LockState":
        """Each term replaced by ``fn(term)``; None makes it unnameable
        (ANY in the may-sets, dropped from the must-sets)."""
        def may(s):
            out = set()
            for t in s:
                u = t if t is ANY else fn(t)
                out.add(ANY if u is None else u)
            return frozenset(out)

        def must(s):
            out = set()
            for t in s:
                u = fn(t)
                if u is not None:
                    out.add(u)
            return frozenset(out)

        return LockState(may(self.held_may), must(self.held_must), may(self.released_may), must(self.released_must))


TOP = LockState(frozenset({ANY}), frozenset(), frozenset({ANY}), frozenset())
"""What an unanalysed call may do: acquire or release anything."""
