"""z3 contexts handed from one exploration to the next (optimisation ``context_reuse``).

Every exploration keeps its terms in a z3 context of its own, so that a
watcher thread can interrupt exactly that exploration. Making a context and
deleting it costs several milliseconds: a third of a small sub-check's time.
A context can serve another exploration once nothing of the first one is
left in it; this module keeps such contexts.

What makes reuse safe: z3 contexts are not thread-safe, and every z3 object
(term, solver, model) refers to its context and gives its reference back
when Python frees it, in whatever thread frees it. A context is taken back
(:func:`give`) only when its Python object has no referrer but the caller:
no term, solver or model of it is alive anywhere, not even in garbage a
later collection would free on another thread. It is also refused when an
interrupt was sent to it (the exploration ran out of budget or was
cancelled) or it has served :data:`MAX_USES` explorations (its symbol table
only grows). A refused context is left to Python, as without this module.
"""

from __future__ import annotations

import sys
import threading

import z3

MAX_USES = 200  # explorations one context serves before it is let go
KEPT = 4  # contexts waiting for an exploration, at most

_lock = threading.Lock()
_free: list[tuple[z3.Context, int]] = []  # (context, explorations it served)
_uses: dict[int, int] = {}  # id of a context out on loan -> explorations it served before


def take() -> tuple[z3.Context, bool]:
    """A context for one exploration, and whether it served an earlier one."""
    with _lock:
        if _free:
            ctx, used = _free.pop()
            _uses[id(ctx)] = used
            return ctx, True
    return z3.Context(), False


def give(ctx: z3.Context, clean: bool) -> bool:
    """Offer back a context :func:`take` handed out (or a new one), whose
    exploration ended; ``clean``: no interrupt was sent to it. The caller
    passes its last reference. True when the context was kept."""
    # beyond the caller's variable, this parameter and getrefcount's argument
    others = sys.getrefcount(ctx) - 3
    with _lock:
        used = _uses.pop(id(ctx), 0) + 1
        if not clean or others > 0 or used >= MAX_USES or len(_free) >= KEPT:
            return False
        _free.append((ctx, used))
        return True


__all__ = ["KEPT", "MAX_USES", "give", "take"]
