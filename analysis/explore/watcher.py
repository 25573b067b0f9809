"""Interrupting z3 calls past a budget: one watcher thread per process.

The engine polls its budget between instructions, but a z3 call in
progress only stops when its context is interrupted from another thread.
Every running exploration registers here; one daemon thread looks at all of
them every 50 ms and calls their ``poke()``, which interrupts the
exploration's context if its deadline passed or it was cancelled; with none
left it ends, and the next exploration starts it again. (A thread per
exploration cost about 0.1 ms to start and join, a fifth of a small
sub-check.)

Contract: once :meth:`Watcher.unwatch` returns, the exploration is never
poked again (pokes happen under the same lock), so a later solver call on
its context is not interrupted by a stale poke. A forked child starts with
nothing watched and its own lock; its next :meth:`Watcher.watch` starts
its thread.
"""

from __future__ import annotations

import os
import threading

PERIOD_S = 0.05


class Watcher:
    """See the module docstring."""

    def __init__(self, period_s: float = PERIOD_S):
        self.period_s = period_s
        self._forget()
        # a forked child watches nothing yet, and the lock may have been held
        # by the parent's watcher thread, which the child does not have
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._watched: list = []
        self._thread: threading.Thread | None = None

    def watch(self, exploration) -> None:
        with self._lock:
            self._watched.append(exploration)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="distaff-watcher", daemon=True)
                self._thread.start()

    def unwatch(self, exploration) -> None:
        with self._lock:
            self._watched = [e for e in self._watched if e is not exploration]

    def _run(self) -> None:
        wait = threading.Event().wait
        while True:
            wait(self.period_s)
            with self._lock:
                if not self._watched:  # idle: the next watch starts a thread again
                    self._thread = None
                    return
                for e in self._watched:
                    try:
                        e.poke()
                    except Exception:  # noqa: BLE001 - the watcher must outlive any one exploration
                        pass


WATCHER = Watcher()
