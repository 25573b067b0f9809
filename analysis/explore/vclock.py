"""Vector clocks over the threads of one run (tuples indexed by thread id).

``clock[t]`` counts the events of thread ``t`` that happen before (or are)
the event the clock belongs to; an event is identified by its thread and its
1-based sequence number within that thread.
"""

from __future__ import annotations

Clock = tuple


def join(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The element-wise maximum; ``a`` or ``b`` itself when it covers the other."""
    if len(a) < len(b):
        a, b = b, a
    n = len(b)
    i = 0
    while i < n and a[i] >= b[i]:
        i += 1
    if i == n:  # a covers b (a dependency's clock is often in the step's already)
        return a
    out = list(a)
    while i < n:
        x = b[i]
        if x > out[i]:
            out[i] = x
        i += 1
    return tuple(out)


def tick(c: tuple[int, ...], tid: int, seq: int) -> tuple[int, ...]:
    """``c`` with thread ``tid``'s entry set to ``seq``."""
    out = list(c)
    if len(out) <= tid:
        out.extend([0] * (tid + 1 - len(out)))
    out[tid] = seq
    return tuple(out)


def covers(c: Clock | None, tid: int, seq: int) -> bool:
    """Does the clock ``c`` include event number ``seq`` of thread ``tid``?"""
    return c is not None and len(c) > tid and c[tid] >= seq
