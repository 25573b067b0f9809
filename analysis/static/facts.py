"""Everything the static analyses know about a program, in one bundle.

:func:`analyze` runs the program-wide analyses (points-to, sharedness, call
graph) at once; per-function facts (CFG, control dependence, reaching
definitions), the memory writer index, and per-assertion facts (slice,
reachability and distances) are computed on first use and kept. A
:class:`Facts` pickles as its program-wide part only, so sending it to a worker
process is cheap; the worker recomputes what it asks for.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from distaff.analysis.ir import Call, Program
from distaff.analysis.memo import ProgramMemo
from distaff.analysis.static import cfg as cfgmod
from distaff.analysis.static.callgraph import CallGraph, call_graph
from distaff.analysis.static.defuse import ReachingDefs, reaching_definitions
from distaff.analysis.static.escape import shared_ids
from distaff.analysis.static.pointsto import MemObject, PointsTo, points_to
from distaff.analysis.static.reach import Reach, reach_of, returning_distance
from distaff.analysis.static.slicing import Slice, base_seeds, base_slicer, slice_of
from distaff.analysis.static.writers import WriterIndex, writer_index


@dataclass(frozen=True, slots=True, eq=False)
class Facts:
    """``shared`` holds the indices (in ``points_to.objects``) of the objects
    more than one thread may access."""

    program: Program
    points_to: PointsTo
    shared: frozenset[int]
    calls: CallGraph
    _cache: dict = field(default_factory=dict, repr=False)

    def __reduce__(self):
        return (Facts, (self.program, self.points_to, self.shared, self.calls))

    def _cached(self, key, make):
        value = self._cache.get(key)
        if value is None:
            value = self._cache[key] = make()
        return value

    # ---------------------------------------------------------------- memory

    def shared_objects(self) -> frozenset[MemObject]:
        return frozenset(self.points_to.objects[i] for i in self.shared)

    def may_touch_shared(self, func: str, pc: int) -> bool:
        """Whether some memory operand of the instruction may denote a shared
        object, or nothing known (which counts as shared)."""
        for locs in self.points_to.operand_ids(func, pc):
            if not locs or any(o in self.shared for o, _ in locs):
                return True
        return False

    @property
    def writers(self) -> WriterIndex:
        return self._cached("writers", lambda: writer_index(self.program, self.points_to))

    # ---------------------------------------------------------------- per function

    def cfg(self, func: str) -> cfgmod.Cfg:
        return self._cached(("cfg", func), lambda: cfgmod.build(self.program.function(func)))

    def control_dependences(self, func: str) -> tuple[tuple[int, ...], ...]:
        return self._cached(
            ("cd", func),
            lambda: cfgmod.control_dependences(self.program.function(func), self.cfg(func)),
        )

    def reaching_definitions(self, func: str) -> ReachingDefs:
        return self._cached(
            ("rd", func),
            lambda: reaching_definitions(self.program.function(func), self.cfg(func)),
        )

    @property
    def call_successors(self) -> dict:
        """Call site (func, pc) -> the pcs its caller continues at."""
        def make():
            out = {}
            for f in self.program.functions:
                for pc, instr in enumerate(f.body):
                    if isinstance(instr, Call):
                        out[(f.name, pc)] = f.successors(pc)
            return out
        return self._cached("call_successors", make)

    @property
    def returning(self) -> dict[str, int | None]:
        """Shortest entry-to-return path length per function (None: never returns)."""
        return self._cached("returning", lambda: returning_distance(self.program, self))

    # ---------------------------------------------------------------- per assertion

    def slice_base(self, other_assertions: bool = True):
        """What every slice contains (see :func:`distaff.analysis.static.slicing.base_slicer`).
        It is most of the cost of a slice: when the budget runs out while it
        is computed, the next sub-check continues it instead of starting over."""
        key = ("slice_base", other_assertions)
        done = self._cache.get(key)
        if done is not None:
            return done
        with self._cache.setdefault("resuming", threading.Lock()):  # one thread continues it
            partial_key = ("slice_base_partial", other_assertions)
            partial = self._cached(partial_key, lambda: base_seeds(self.program, self, other_assertions))
            return self._cached(key, lambda: base_slicer(self.program, self, other_assertions, partial))

    def slice(self, assertion_id: str, other_assertions: bool = True) -> Slice:
        """See :func:`distaff.analysis.static.slicing.slice_of`."""
        return self._cached(("slice", assertion_id, other_assertions),
                            lambda: slice_of(self.program, assertion_id, self,
                                             other_assertions=other_assertions))

    def reach(self, assertion_id: str) -> Reach:
        return self._cached(("reach", assertion_id),
                            lambda: reach_of(self.program, assertion_id, self))

    def distance(self, assertion_id: str, func: str, pc: int) -> int | None:
        return self.reach(assertion_id).distance(func, pc)

    @property
    def counters(self) -> tuple[tuple[str, int], ...]:
        return self.points_to.counters + (("shared_objects", len(self.shared)),)


def analyze(program: Program) -> Facts:
    """The program-wide facts of ``program``; the rest follows on demand. The
    same program object gets the same Facts (the last few programs are kept),
    so the sub-checks of one check share the analyses and every lazily
    computed fact: the part of all assertions' slices they have in common is
    computed once."""
    hit = _FACTS.get(program)
    if hit is not None:
        return hit
    return remember(program, points_to(program))


def remember(program: Program, pts: PointsTo) -> Facts:
    """Make :func:`analyze` of ``program`` answer with facts built on
    ``pts`` (its points-to, already solved, e.g. by the escape analysis)."""
    return _FACTS.put(program, Facts(program, pts, shared_ids(pts), call_graph(program, pts)))


_FACTS = ProgramMemo(keep=4)
