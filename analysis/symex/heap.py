"""The C heap the engine's z3 contexts are made on.

Every exploration makes a z3 context and deletes it at the end. A context
takes tens of megabytes of tables, which glibc's malloc, with its default
thresholds, maps fresh and gives back to the system each time: making a
context then spends most of its 4 to 5 ms faulting those pages in again.
Keeping them in the heap (allocations up to 32 MB from the heap, and up to
64 MB of free heap kept rather than trimmed) makes it under 1 ms, and the
process holds at most those 64 MB more than it uses.

:func:`keep_heap` does it once per process, on glibc only;
``DISTAFF_KEEP_HEAP=0`` in the environment leaves malloc as it is.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
import threading
from contextlib import contextmanager

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # glibc's largest
TRIM_THRESHOLD = 64 << 20

_done = False


def keep_heap() -> bool:
    """Set the thresholds (see the module docstring); True when they were set
    by this call or an earlier one."""
    global _done
    if _done:
        return True
    if os.environ.get("DISTAFF_KEEP_HEAP") == "0" or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        ok = libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
    except (OSError, AttributeError):  # not glibc
        return False
    _done = ok
    return ok


# gc.set_threshold while an exploration runs: a young pass every 10,000
# allocations instead of 700, an older pass every 10 young ones, a full pass
# every 10 older ones (CPython then still waits for the long-lived objects to
# grow by a quarter)
EXPLORE_THRESHOLDS = (10_000, 10, 10)

_lock = threading.Lock()
_running = 0
_saved: tuple | None = None


@contextmanager
def quiet_collector():
    """Run the body with the collector's thresholds at ``EXPLORE_THRESHOLDS``
    (see the module docstring). Nests, and is safe from several threads: the
    first to enter sets them, the last to leave restores the ones it found."""
    global _running, _saved
    if os.environ.get("DISTAFF_QUIET_GC") == "0":
        yield
        return
    with _lock:
        if _running == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(*EXPLORE_THRESHOLDS)
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None


__all__ = ["EXPLORE_THRESHOLDS", "keep_heap", "quiet_collector"]
