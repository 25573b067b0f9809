"""What is computed once per program object, kept for the last few.

A parsed :class:`~distaff.analysis.ir.Program` is immutable and the sub-checks
of one check share the same object, so analyses of it (facts, assertion
sites, a context's plan) are memoised by the object's identity. One policy
for all of them: entries are keyed by ``(program, key)``, an entry is found
only for the very object it was made for (the memo holds the program, so its
id cannot be reused meanwhile), the least recently used entry goes when more
than ``keep`` are held, and a lock makes it safe across threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict


class ProgramMemo:
    """Values per ``(program, key)``; at most ``keep`` of them."""

    def __init__(self, keep: int):
        self.keep = keep
        self._entries: OrderedDict = OrderedDict()  # (id(program), key) -> (program, value)
        self._lock = threading.Lock()

    def get(self, program, key=()):
        """The value kept for ``program`` and ``key``, or None."""
        k = (id(program), key)
        with self._lock:
            hit = self._entries.get(k)
            if hit is None or hit[0] is not program:
                return None
            self._entries.move_to_end(k)
            return hit[1]

    def put(self, program, value, key=()):
        """Keep ``value`` for ``program`` and ``key``; returns it."""
        k = (id(program), key)
        with self._lock:
            self._entries[k] = (program, value)
            self._entries.move_to_end(k)
            while len(self._entries) > self.keep:
                self._entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._entries)


__all__ = ["ProgramMemo"]
