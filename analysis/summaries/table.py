"""The predicate summary table PS and the RVar/WVar record, per global
control state.

An :class:`Entry` holds, for one control state:

* ``parts``: predicate summaries, each learned under a sleep set (the threads
  partial order reduction did not explore from that node, with their next
  footprints). A part is usable at a node whose own sleep set includes the
  part's: the traces it left out are then left out here too. Parts with the
  same sleep set are merged by disjunction (Algorithm 2, line 24);
* ``accesses`` (RVar/WVar, §5.2): the footprints of every event explored
  below nodes with this control state, by thread, so that pruning there can
  still tell partial order reduction which races the skipped events have.

Under-approximations (§6.2), both optional: ``slots`` bounds the table (a
state hashing to a slot held by another state replaces it: the other's
summary becomes ``false``), ``max_size`` bounds a summary's size in AST
nodes (a disjunct that would exceed it is not added). Neither can make
pruning unsound: a smaller summary prunes less.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3


@dataclass(slots=True)
class Part:
    sleep: frozenset
    phi: Any
    accesses: frozenset
    size: int = 1  # distinct AST nodes of phi, or an upper bound of them (tracked only with a max_size)


@dataclass(slots=True)
class Entry:
    key: Any
    parts: list = field(default_factory=list)
    accesses: dict = field(default_factory=dict)
    pruned: int = 0


def size(phi, limit: int) -> int:
    """Distinct AST nodes of ``phi``, counted up to ``limit + 1`` (on z3's
    raw ASTs: the Python API makes an object per child visited, which cost
    seconds per summary of a few thousand nodes)."""
    if isinstance(phi, bool):
        return 1
    ctx = phi.ctx_ref()
    app = z3.Z3_APP_AST
    seen: set = set()
    todo = [phi.as_ast()]
    while todo and len(seen) <= limit:
        a = todo.pop()
        i = z3.Z3_get_ast_id(ctx, a)
        if i in seen:
            continue
        seen.add(i)
        if z3.Z3_get_ast_kind(ctx, a) == app:
            todo.extend(z3.Z3_get_app_arg(ctx, a, k) for k in range(z3.Z3_get_app_num_args(ctx, a)))
    return len(seen)


class SummaryTable:
    """PS and RVar/WVar; ``counts`` collects the table's statistics."""

    def __init__(self, slots: int | None = None, max_size: int | None = None):
        self.slots = slots
        self.max_size = max_size
        self._entries: dict = {}
        self._slot_of: dict = {}
        self.counts: dict[str, int] = {}

    def _count(self, name: str, k: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + k

    def get(self, key) -> Entry | None:
        return self._entries.get(key)

    def entry(self, key) -> Entry:
        e = self._entries.get(key)
        if e is not None:
            return e
        if self.slots:
            slot = hash(key) % self.slots
            old = self._slot_of.get(slot)
            if old is not None and old != key:
                self._entries.pop(old, None)
                self._count("summary_collisions")
            self._slot_of[slot] = key
        e = self._entries[key] = Entry(key)
        return e

    def add(self, key, sleep: frozenset, phi, accesses: frozenset) -> None:
        """PS[key] := PS[key] || phi (under ``sleep``)."""
        if phi is False:
            return
        e = self.entry(key)
        n = 1
        if self.max_size:
            n = size(phi, self.max_size)
            if n > self.max_size:
                self._count("summary_size_drops")
                return
        for p in e.parts:
            if p.sleep == sleep:
                if p.phi is True:
                    return
                merged = True if phi is True else z3.Or(p.phi, phi)
                if self.max_size:
                    # a DAG's nodes: at most both sides' and the new root; counted only past the bound
                    bound = 1 if merged is True else p.size + n + 1
                    if bound > self.max_size:
                        bound = size(merged, self.max_size)
                        if bound > self.max_size:
                            self._count("summary_size_drops")
                            return
                    p.size = bound
                p.phi = merged
                p.accesses = p.accesses | accesses
                self._count("summary_merges")
                return
        e.parts.append(Part(sleep, phi, accesses, n))
        self._count("summary_entries")

    def usable(self, key, sleep: frozenset):
        """``(phi, accesses, parts)`` of the parts of PS[key] valid under
        ``sleep`` (``phi`` their disjunction), or None."""
        e = self._entries.get(key)
        if e is None:
            return None
        parts = [p for p in e.parts if p.sleep <= sleep]
        if not parts:
            return None
        acc = frozenset()
        for p in parts:
            if p.phi is True:
                return True, p.accesses, [p]
            acc |= p.accesses
        phis = [p.phi for p in parts]
        return (phis[0] if len(phis) == 1 else z3.Or(*phis)), acc, parts

    def record_accesses(self, key, accesses: dict) -> None:
        if accesses:
            self.entry(key).accesses.update(accesses)

    def entries(self):
        return list(self._entries.values())
