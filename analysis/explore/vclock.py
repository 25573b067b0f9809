"""Vector clocks over the threads of one run (tuples indexed by thread id).

``clock[t]`` counts the events of thread ``t`` that happen before (or are)
the event the clock belongs to; an event is identified by its thread and its
1-based sequence number within that thread.
"""

from __future__ import annotations

Clock = tuple


def join(a: Clock, b: Clock) -> Clock:
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return a
    return tuple(map(max, a, b)) + a[len(b):]


def tick(c: Clock, tid: int, seq: int) -> Clock:
    """``c`` with thread ``tid``'s entry set to ``seq``."""
    if len(c) <= tid:
        c = c + (0,) * (tid + 1 - len(c))
    return c[:tid] + (seq,) + c[tid + 1:]


def covers(c: Clock | None, tid: int, seq: int) -> bool:
    """Does the clock ``c`` include event number ``seq`` of thread ``tid``?"""
    return c is not None and len(c) > tid and c[tid] >= seq
