"""The events of the current run, indexed by what they touch.

DPOR's ``on_event`` needs, for each new event, the earlier events it may be
dependent with (to build its vector clock and to find its races). Scanning
every earlier event makes a run quadratic in its length; most earlier events
touch other objects. :class:`StepLog` keeps the steps in order and, per
*conflict key*, the indices of the steps that carry it, so that
:meth:`StepLog.candidates` returns a superset of the dependent steps in a
time proportional to the steps that share a key with the new one.

Conflict keys (:meth:`distaff.analysis.explore.dependence.Dependence.conflict_keys`)
follow the dependence relation: a memory block of an object, a
synchronization object, a thread (its own events, its creation and its
join). A step whose footprint may conflict with anything (unknown, ending
the process, an address whose object is symbolic) is a *wildcard*: a
candidate for every later step, and every earlier step is a candidate for it.

Truncation (backtracking to an earlier node) removes steps from the end,
and each index list loses exactly its last entries, so it costs what it
removes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # (typed, the compiled code reads a step's fields directly)
    from distaff.analysis.explore.dpor import Step

WILD = "*"


class StepLog:
    """Steps of one run in order (``log[i].index == i``), with indices per
    conflict key. ``keys_of(fp)`` returns ``(register, query)`` key tuples,
    or None for a wildcard footprint."""

    __slots__ = ("items", "_keys", "_index", "keys_of", "_by_thread", "_asked")

    def __init__(self, keys_of: Callable[[Any], Any]) -> None:
        self.items: list[Step] = []
        self._keys: list[tuple] = []  # per step: the keys it was filed under
        self._index: dict = {}  # key -> ascending step indices
        self._by_thread: dict[int, list[int]] = {}
        self.keys_of = keys_of
        self._asked: tuple[Any, Any] = (None, None)  # the footprint candidates() last keyed, and its keys

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def __iter__(self):
        return iter(self.items)

    def __reversed__(self):
        return reversed(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def append(self, step: Step) -> None:
        i = len(self.items)
        self.items.append(step)
        keys = self._keys_of(step.fp)
        filed = (WILD,) if keys is None else keys[0]
        if step.wakes:
            filed = filed + tuple(("w", t) for t in step.wakes)
        index = self._index
        for key in filed:
            if key in index:
                index[key].append(i)
            else:
                index[key] = [i]
        self._keys.append(filed)
        seen = self._by_thread.get(step.tid)
        if seen is None:
            self._by_thread[step.tid] = [i]
        else:
            seen.append(i)

    def truncate(self, k: int) -> None:
        """Drop the steps from index ``k`` on."""
        items = self.items
        while len(items) > k:
            for key in self._keys.pop():
                self._index[key].pop()
            self._by_thread[items.pop().tid].pop()

    def _keys_of(self, fp: Any) -> Any:
        asked, keys = self._asked
        if asked is not fp:  # a new step is asked about, then appended
            keys = self.keys_of(fp)
            self._asked = (fp, keys)
        return keys

    def last_of(self, tid: int) -> Step | None:
        """The latest step of thread ``tid``, or None."""
        seen = self._by_thread.get(tid)
        return self.items[seen[-1]] if seen else None

    def creator(self, tid: int) -> Step | None:
        """The step that created thread ``tid``, or None: it is filed under
        the created thread's key, or is a wildcard."""
        index = self._index
        found = None
        for key in (("t", tid), WILD):
            for j in index.get(key, ()):
                if found is not None and j >= found.index:
                    break
                s = self.items[j]
                if tid in s.fp.creates:
                    found = s
                    break
        return found

    def woke(self, tid: int) -> Sequence[int]:
        """Ascending indices of the steps that woke thread ``tid``."""
        return self._index.get(("w", tid), ())

    def candidates(self, fp) -> list[int]:
        """Ascending indices of the steps that may be dependent with a new
        step of footprint ``fp`` (a superset: callers still ask
        :meth:`Dependence.dependent`)."""
        keys = self._keys_of(fp)
        if keys is None:
            return list(range(len(self.items)))
        index = self._index
        lists: list[list[int]] = []
        for k in keys[1]:
            hit = index.get(k)
            if hit:
                lists.append(hit)
        wild = index.get(WILD)
        if wild:
            lists.append(wild)
        if not lists:
            return []
        out = lists[0]
        for other in lists[1:]:
            out = _union(out, other)
        return out


def _union(a: list[int], b: list[int]) -> list[int]:
    """The ascending union of two ascending lists of distinct indices."""
    out: list[int] = []
    i, j, n, m = 0, 0, len(a), len(b)
    while i < n and j < m:
        x, y = a[i], b[j]
        if x < y:
            out.append(x)
            i += 1
        elif y < x:
            out.append(y)
            j += 1
        else:
            out.append(x)
            i += 1
            j += 1
    if i < n:
        out.extend(a[i:])
    if j < m:
        out.extend(b[j:])
    return out
