"""What every runner of sub-checks does when a sub-check does not answer.

Three runners run sub-checks (:mod:`distaff.analysis.subcheck`) away from
their caller: the local process pool of :mod:`distaff.analysis.check`, the Dask
runner of :mod:`distaff.analysis.cluster` and the language server's scheduler
(:mod:`distaff.server.scheduler`). The engine keeps each sub-check's time
budget itself; a runner steps in only when that fails, and all three do it
the same way, in :class:`~distaff.analysis.report.Reason`'s words:

* **deadline and grace**: work given ``timeout_s`` per sub-check for ``n``
  sub-checks run one after another may take ``n * (timeout_s + WIND_DOWN_S)
  + GRACE_S`` (:func:`allowance_s`), counted from when it started where it runs; past
  that it is stopped and reported TIMEOUT, "... overran its time budget";
* **cancel**: the running work is stopped and every outstanding sub-check is
  answered at once, CANCELLED;
* **crash**: work that raised, or whose process died, is CRASHED with how;
  work that ran out of memory under ``Options.max_memory_mb``
  (:func:`limit_memory` in the process that runs it) is MEMORY.

An assertion a runner gives up on is reported undecided for that reason
(:func:`distaff.analysis.subcheck.undecided`), never as a verdict.
"""

from __future__ import annotations

import resource
import threading
import time
from dataclasses import dataclass

from distaff.analysis.report import FindingsSearch, Reason, SearchEnd

# what a runner adds to the engine's own time budget before it steps in: the
# engine stops within about 50 ms of its deadline (its watcher interrupts z3),
# but a phase of z3 that ignores interrupts can take seconds; past the grace the
# runner stops the sub-check, so `--timeout S` ends the command within S + 1 s
GRACE_S = 0.5


@dataclass(frozen=True, slots=True)
class Lost:
    """Why a sub-check gave no result: the reason and a message saying how."""

    reason: Reason
    message: str


CANCELLED = Lost(Reason.CANCELLED, "cancelled")


def search_lost(lost: Lost, budget_s: float | None = None) -> FindingsSearch:
    """The search for findings that gave no result: cut (its time or memory
    ran out), cancelled, or crashed."""
    end = {Reason.CANCELLED: SearchEnd.CANCELLED, Reason.TIMEOUT: SearchEnd.CUT,
           Reason.MEMORY: SearchEnd.CUT}.get(lost.reason, SearchEnd.CRASHED)
    return FindingsSearch(end, lost.message, budget_s=budget_s)


def overran(who: str, allowance_s: float | None = None) -> Lost:
    return Lost(Reason.TIMEOUT, f"{who} overran its time budget" + (f" of {allowance_s:.0f} s" if allowance_s else ""))


def crashed(how: str) -> Lost:
    return Lost(Reason.CRASHED, how)


def limit_memory(mb: int) -> None:
    """Cap this process's address space at ``mb`` MB (0: leave it): an
    allocation past it fails with MemoryError (z3's with an exception), which
    the explorer reports as Reason.MEMORY."""
    if mb <= 0:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mb << 20
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def address_space_mb() -> int | None:
    """This process's address space now, in MB (what ``RLIMIT_AS`` counts);
    None where ``/proc`` does not say."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return (pages * resource.getpagesize()) >> 20


class MemoryCap:
    """:func:`limit_memory` for a while, in a process that goes on after it:
    ``restore()`` gives back the limit the process had (an unprivileged
    process may raise its soft limit again, up to the hard one)."""

    def __init__(self, mb: int):
        self._before = resource.getrlimit(resource.RLIMIT_AS)
        self._on = mb > 0
        limit_memory(mb)

    def restore(self) -> None:
        if self._on:
            resource.setrlimit(resource.RLIMIT_AS, self._before)
            self._on = False


def out_of_memory(message: str) -> bool:
    """Whether a failure's message (a traceback's last line, z3's text) says
    memory ran out."""
    return "MemoryError" in message or "out of memory" in message or "memory exceeded" in message


def lost_to(message: str) -> Lost:
    """What a sub-check that raised ``message`` lost: MEMORY when memory ran
    out, else CRASHED."""
    return Lost(Reason.MEMORY, "memory limit reached") if out_of_memory(message) else crashed(message)


# what each sub-check of a run may take past its budget as it winds down
# (the engine's next poll, the verdict, the summaries printed), beyond the grace
WIND_DOWN_S = 0.1


def allowance_s(timeout_s: float | None, tasks: int = 1, grace_s: float | None = None) -> float | None:
    """Seconds ``tasks`` sub-checks of ``timeout_s`` each, run one after
    another, may take before their runner stops them; None without a
    timeout (the runner then waits)."""
    if timeout_s is None:
        return None
    return (timeout_s + WIND_DOWN_S) * max(1, tasks) + (GRACE_S if grace_s is None else grace_s)


class Watch:
    """The work a runner has started and when it is due; thread-safe (the
    Dask runner learns of starts on Dask's thread and looks on its own)."""

    def __init__(self) -> None:
        self._due: dict = {}
        self._overran: set = set()
        self._lock = threading.Lock()

    def start(self, key, timeout_s: float | None, tasks: int = 1) -> None:
        """``key`` started now, with ``tasks`` sub-checks of ``timeout_s`` each."""
        allowance = allowance_s(timeout_s, tasks)
        if allowance is not None:
            with self._lock:
                self._due.setdefault(key, time.monotonic() + allowance)

    def done(self, key) -> None:
        with self._lock:
            self._due.pop(key, None)

    def overdue(self) -> list:
        """The keys past their allowance, each returned once; they count as
        :meth:`overran` from then on."""
        now = time.monotonic()
        with self._lock:
            late = [k for k, due in self._due.items() if now > due]
            for k in late:
                del self._due[k]
            self._overran.update(late)
        return late

    def overran(self, key) -> bool:
        with self._lock:
            return key in self._overran
