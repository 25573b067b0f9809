"""Wakeup trees (Abdulla, Aronis, Jonsson, Sagonas, POPL 2014, §6).

A wakeup tree at a node of the search is an ordered tree of thread
sequences still to be explored from there: each root child is begun in order,
and a child's subtree becomes the wakeup tree of the node it leads to. When a
race shows that some sequence ``v`` must be explored from the node,
:func:`insert` adds it unless a sequence of the tree already covers it up to
the reordering of independent steps: walking down, a child whose thread is a
*weak initial* of what remains of ``v`` is followed (and that thread's first
step is taken off ``v``); reaching a leaf, or using ``v`` up, means covered;
otherwise what remains of ``v`` becomes a new last child.

Which threads are weak initials is the caller's business
(``weak_initial(tid, footprints, rest)``), since it depends on the run's
happens-before and on the dependence relation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from distaff.analysis.record import Record


@dataclass(eq=False, init=False)
class WakeupNode(Record):
    """One step of a wakeup sequence: thread ``tid`` whose step is expected to
    have footprint ``fp`` (None: not known)."""

    tid: int
    fp: Any = None
    children: list = field(default_factory=list)

    def __init__(self, tid: int, fp: Any = None, children: list | None = None) -> None:
        self.tid = tid
        self.fp = fp
        self.children = [] if children is None else children


def insert(root: list, seq: list, weak_initial) -> bool:
    """Insert the steps ``seq`` (objects with ``tid`` and ``fp``) under the
    children ``root``; True when the tree grew.

    Below ``root`` trees share their nodes (a node's subtree is handed to the
    node it leads to without a copy): a growing tree copies the nodes on the
    path to its new leaf instead of changing them."""
    children = root
    rest = list(seq)
    if not rest:
        return False
    path = []
    while True:
        for i, node in enumerate(children):
            if weak_initial(node.tid, None if node.fp is None else [node.fp], rest):
                rest = without_first(rest, node.tid)
                if not node.children or not rest:
                    return False
                path.append(i)
                children = node.children
                break
        else:
            chain = root
            for i in path:
                node = chain[i]
                node = chain[i] = WakeupNode(node.tid, node.fp, list(node.children))
                chain = node.children
            for step in rest:
                n = WakeupNode(step.tid, step.fp)
                chain.append(n)
                chain = n.children
            return True


def without_first(steps: list, tid: int) -> list:
    """``steps`` without the first step of thread ``tid`` (unchanged if none)."""
    for i, s in enumerate(steps):
        if s.tid == tid:
            return steps[:i] + steps[i + 1:]
    return steps
