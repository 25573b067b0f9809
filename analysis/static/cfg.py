"""A function's control-flow graph: post-dominators and control dependence.

The graph has one node per pc plus a virtual exit node (``len(body)``).
Instructions without successors (return, abort, exit, ``pthread_exit``, the
last instruction) go to the exit. A loop no path leaves (``while (1)`` in a
thread) would have no post-dominators; as usual, each back edge inside such a
region also gets an edge to the exit, so control dependence stays defined and
errs towards more dependences, never fewer.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis.ir import Function


@dataclass(frozen=True, slots=True)
class Cfg:
    """``succ[pc]`` and ``pred[pc]`` over nodes ``0..exit`` (``exit == len(body)``);
    ``succ[exit]`` is empty."""

    succ: tuple[tuple[int, ...], ...]
    pred: tuple[tuple[int, ...], ...]

    @property
    def exit(self) -> int:
        return len(self.succ) - 1


def build(func: Function) -> Cfg:
    n = len(func.body)
    succ = [list(func.successors(pc)) or [n] for pc in range(n)] + [[]]
    reaches_exit = _backward_reachable(succ, n)
    for pc in range(n):
        if not reaches_exit[pc] and any(t <= pc for t in succ[pc]):
            succ[pc].append(n)
    pred: list[list[int]] = [[] for _ in range(n + 1)]
    for pc, ss in enumerate(succ):
        for s in ss:
            pred[s].append(pc)
    return Cfg(tuple(map(tuple, succ)), tuple(map(tuple, pred)))


def _backward_reachable(succ: list[list[int]], target: int) -> list[bool]:
    pred: list[list[int]] = [[] for _ in succ]
    for pc, ss in enumerate(succ):
        for s in ss:
            pred[s].append(pc)
    seen = [False] * len(succ)
    seen[target] = True
    work = [target]
    while work:
        x = work.pop()
        for p in pred[x]:
            if not seen[p]:
                seen[p] = True
                work.append(p)
    return seen


def postdominators(cfg: Cfg) -> list[int]:
    """The immediate post-dominator of each node (the exit's is itself)
    (Cooper, Harvey and Kennedy's iteration on the reversed graph)."""
    exit_ = cfg.exit
    order = _reverse_postorder(cfg.pred, exit_)
    index = {x: i for i, x in enumerate(order)}
    ipdom = [-1] * len(cfg.succ)
    ipdom[exit_] = exit_
    changed = True
    while changed:
        changed = False
        for x in order[1:]:
            new = -1
            for s in cfg.succ[x]:
                if ipdom[s] == -1:
                    continue
                new = s if new == -1 else _intersect(ipdom, index, s, new)
            if new != ipdom[x]:
                ipdom[x] = new
                changed = True
    return ipdom


def _reverse_postorder(edges, root: int) -> list[int]:
    seen = {root}
    post: list[int] = []
    stack = [(root, iter(edges[root]))]
    while stack:
        node, it = stack[-1]
        for nxt in it:
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(edges[nxt])))
                break
        else:
            stack.pop()
            post.append(node)
    post.reverse()
    return post


def _intersect(ipdom: list[int], index: dict[int, int], a: int, b: int) -> int:
    while a != b:
        while index[a] > index[b]:
            a = ipdom[a]
        while index[b] > index[a]:
            b = ipdom[b]
    return a


def control_dependences(func: Function, cfg: Cfg | None = None) -> tuple[tuple[int, ...], ...]:
    """For each pc, the pcs it is control dependent on: the instructions with
    several successors whose choice decides whether it runs (Ferrante,
    Ottenstein and Warren)."""
    cfg = cfg or build(func)
    ipdom = postdominators(cfg)
    deps: list[set[int]] = [set() for _ in cfg.succ]
    for a, ss in enumerate(cfg.succ):
        if len(ss) < 2:
            continue
        stop = ipdom[a]
        for b in ss:
            x = b
            while x != stop and x != -1 and x != cfg.exit:
                deps[x].add(a)
                x = ipdom[x]
    return tuple(tuple(sorted(d)) for d in deps[: cfg.exit])
