"""The process's watcher thread pokes running explorations, and never one it was told to forget."""

from __future__ import annotations

import threading
import time

from distaff.analysis.explore.watcher import Watcher


class Probe:
    def __init__(self):
        self.pokes = 0
        self.first = threading.Event()

    def poke(self):
        self.pokes += 1
        self.first.set()


class Broken:
    def poke(self):
        raise RuntimeError("an exploration's poke failed")


def test_a_watched_exploration_is_poked_and_an_unwatched_one_never_again():
    w = Watcher(period_s=0.005)
    a, b = Probe(), Probe()
    w.watch(Broken())  # its failures do not stop the thread
    w.watch(a)
    w.watch(b)
    assert a.first.wait(5) and b.first.wait(5)
    w.unwatch(a)
    seen = a.pokes
    b.first.clear()
    assert b.first.wait(5)  # the thread still runs (and pokes b) ...
    time.sleep(0.05)
    assert a.pokes == seen  # ... but a is not poked after unwatch returned


def test_one_thread_serves_every_exploration():
    w = Watcher(period_s=0.005)
    probes = [Probe() for _ in range(20)]
    before = threading.active_count()
    for p in probes:
        w.watch(p)
    assert all(p.first.wait(5) for p in probes)
    assert threading.active_count() == before + 1
    for p in probes:
        w.unwatch(p)


def test_the_thread_ends_when_nothing_is_watched_and_comes_back():
    w = Watcher(period_s=0.005)
    p = Probe()
    w.watch(p)
    assert p.first.wait(5)
    thread = w._thread
    w.unwatch(p)
    thread.join(5)
    assert not thread.is_alive()
    q = Probe()
    w.watch(q)
    assert q.first.wait(5)
    w.unwatch(q)


def test_a_forked_child_watches_again_even_if_the_parent_held_the_lock():
    import os

    w = Watcher(period_s=0.005)
    w._lock.acquire()  # as if the parent's thread was poking when the fork happened
    try:
        pid = os.fork()
        if pid == 0:  # the child: must not hang on the inherited lock
            import signal

            signal.alarm(10)  # (a hang fails the test instead of hanging it)
            p = Probe()
            w.watch(p)
            os._exit(0 if p.first.wait(5) else 1)
    finally:
        w._lock.release()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
