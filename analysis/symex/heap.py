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
import os
import sys

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


__all__ = ["keep_heap"]
