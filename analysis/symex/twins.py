"""Twins: threads explored up to their permutation (symmetry reduction).

A thread started at an interchangeable create site
(:func:`distaff.analysis.static.symmetry.interchangeable_sites`) by the same
parent, on the same routine, with an equal argument as an earlier thread is
that thread's *twin*. The later twin waits (blocked, "waits for t#1 to
start") until the earlier one has taken its first step: of every pair of runs
that differ only in which twin starts first, one is explored. The wait is a
wake-up like a join's, so DPOR orders the two first steps by it and never
tries to reverse them, and a summary's control state sees it.

What would tell twins apart is checked as runs go (the rest is static): a
thread other than the parent joining a twin, and the parent doing anything
visible, other than joining the twins or loading their handles, between its
first join of a twin and its join of the last one. Either raises
:class:`SymmetryBroken`: the exploration
starts again without twins (counted as ``symmetry_abandoned``).

Counted: ``twin_waits`` (threads that waited for their twin to start).
"""

from __future__ import annotations

from dataclasses import dataclass, replace



class SymmetryBroken(Exception):
    """A run did what tells twins apart (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Twins:
    """A run's twins, immutable (a state's clone shares it). ``groups``:
    ((parent, routine, argument), members in creation order);
    ``unstarted``: members that have taken no step; ``joined``: members
    their parent has joined; ``handles``: object ids holding twins' handles."""

    groups: tuple = ()
    unstarted: frozenset = frozenset()
    joined: frozenset = frozenset()
    handles: frozenset = frozenset()

    def group_of(self, tid: int):
        for key, members in self.groups:
            if tid in members:
                return key, members
        return None


def created(tw: Twins | None, parent: int, routine: str, arg, new: int, handle_oid: int) -> tuple[Twins, int | None]:
    """``parent`` started ``new`` on ``routine`` with ``arg`` at an
    interchangeable site: the twins after it, and the twin ``new`` waits
    for (None: it need not wait)."""
    tw = tw or Twins()
    if not isinstance(arg, int):  # a symbolic argument: equal to another only by a proof
        return replace(tw, handles=tw.handles | {handle_oid}), None
    key = (parent, routine, arg)
    groups, wait = [], None
    for k, members in tw.groups:
        if k == key:
            wait = members[-1] if members[-1] in tw.unstarted else None
            members = members + (new,)
        groups.append((k, members))
    if not any(k == key for k, _ in tw.groups):
        groups.append((key, (new,)))
    return Twins(tuple(groups), tw.unstarted | {new}, tw.joined, tw.handles | {handle_oid}), wait


def started(tw: Twins, tid: int) -> Twins:
    return replace(tw, unstarted=tw.unstarted - {tid})


def joined(tw: Twins, joiner: int, target: int) -> Twins:
    """``joiner`` joins ``target``; SymmetryBroken when ``target`` is a twin
    and ``joiner`` not its parent."""
    g = tw.group_of(target)
    if g is None:
        return tw
    (parent, _, _), members = g
    if len(members) > 1 and joiner != parent:
        raise SymmetryBroken(f"a thread other than its parent joins thread {target}")
    return replace(tw, joined=tw.joined | {target})


def check_parent_step(tw: Twins, ev, layout, values) -> None:
    """SymmetryBroken when ``ev`` is a visible step of a parent that has
    joined some of a group of twins and not all, other than a join of one
    of them or loads of their handles."""
    for (parent, _, _), members in tw.groups:
        if parent != ev.tid or len(members) < 2:
            continue
        done = sum(1 for m in members if m in tw.joined)
        if done == 0 or done == len(members):
            continue
        joins = [s for s in ev.syncs if s.op == "thread_join"]
        if joins and all(s.obj in members for s in joins) and len(joins) == len(ev.syncs) and not ev.accesses:
            continue
        if not ev.syncs and ev.accesses and all(
                not a.write and isinstance(a.addr, int) and layout.obj(a.addr, values) in tw.handles
                for a in ev.accesses):
            continue
        raise SymmetryBroken("the parent of twins acts between its joins of them")


__all__ = ["SymmetryBroken", "Twins", "check_parent_step", "created", "joined", "started"]
