"""Interprocedural fixpoints solved one strongly connected component at a time.

Several analyses compute a value per function from the values of the
functions it depends on (its callees, or its callers): the shortest path to a
return, the distance to an assertion, what may still be reached. Iterating
over all functions until nothing changes costs one sweep of the program per
level of call depth: quadratic on long call chains. :func:`solve` instead
visits the strongly connected components of the dependence graph with every
component after those it depends on, so a function outside recursion is
computed once, from final values; only inside a recursive component is there
iteration, until a sweep of that component changes nothing.

The result is the same fixpoint as the whole-program iteration reaches for
the monotone (only decreasing, or only growing) equations these analyses use.
"""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, Sequence

from distaff.analysis.static.budget import poll


def components(nodes: Sequence[Hashable], deps: Callable[[Hashable], Iterable[Hashable]]) -> list[list]:
    """The strongly connected components of the graph with an edge from each
    node to each of ``deps(node)`` (those not in ``nodes`` are ignored), every
    component listed after the components it has edges into (Tarjan's
    algorithm, iterative). Within a component, nodes keep their order in
    ``nodes``."""
    position = {n: i for i, n in enumerate(nodes)}
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list[list] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(deps(root)))]
        while work:
            node, it = work[-1]
            descended = False
            for nxt in it:
                if nxt not in position:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(deps(nxt))))
                    descended = True
                    break
                if nxt in on_stack and index[nxt] < low[node]:
                    low[node] = index[nxt]
            if descended:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == node:
                        break
                comp.sort(key=position.__getitem__)
                out.append(comp)
        poll()
    return out


def solve(nodes: Sequence[Hashable], deps: Callable[[Hashable], Iterable[Hashable]],
          update: Callable[[Hashable], bool]) -> None:
    """Bring ``update`` to a fixpoint: ``update(n)`` recomputes node ``n``'s
    value from the current values of ``deps(n)`` and says whether it changed.
    Each node is updated after every node it depends on outside its own
    component is final; a component with a cycle is swept (in ``nodes``
    order) until a sweep changes nothing, at most ``len(component) + 1``
    sweeps (the bound the whole-program iteration had)."""
    for comp in components(nodes, deps):
        if len(comp) == 1 and comp[0] not in set(deps(comp[0])):
            update(comp[0])
            continue
        for _ in range(len(comp) + 1):
            changed = False
            for n in comp:
                changed = update(n) or changed
            poll()
            if not changed:
                break
