"""Memory dependence: which instructions may write the bytes a read may read.

Flow-insensitive, and blind to threads by design: a read depends on every
writer of an overlapping location anywhere in the program, in its own thread
(an earlier store) or in another (interference). Overlap is decided on byte
ranges ``[offset, offset + size)``; an unknown offset or size overlaps
everything in the object. A writer or reader whose address denotes nothing
known, or UNKNOWN memory, overlaps everything.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis.ir import Program
from distaff.analysis.static import access
from distaff.analysis.static.pointsto import ObjectKind, PointsTo

Site = tuple[str, int]


@dataclass(frozen=True, slots=True, eq=False)
class WriterIndex:
    """``by_object[o]``: ``(site, offset, size)`` of each write into object
    index ``o``; ``wild``: the writers that may write anywhere."""

    by_object: dict
    wild: tuple[Site, ...]
    all_sites: tuple[Site, ...]
    unknown: frozenset[int]  # indices of UNKNOWN objects

    def reads_everything(self, locs: frozenset) -> bool:
        """Whether a read at ``locs`` may read any memory (nothing known, or
        UNKNOWN memory): every writer is its writer."""
        return not locs or any(o in self.unknown for o, _ in locs)

    def writers(self, locs: frozenset, size: int | None) -> set[Site]:
        """Sites that may write what a read of ``size`` bytes at any of the id
        locations ``locs`` reads."""
        if not locs or any(o in self.unknown for o, _ in locs):
            return set(self.all_sites)
        out = set(self.wild)
        for o, k in locs:
            for site, wk, wsize in self.by_object.get(o, ()):
                if _overlap(k, size, wk, wsize):
                    out.add(site)
        return out


def _overlap(a: int | None, asize: int | None, b: int | None, bsize: int | None) -> bool:
    if a is None or b is None:
        return True
    if asize is not None and a + asize <= b:
        return False
    if bsize is not None and b + bsize <= a:
        return False
    return True


def writer_index(program: Program, pts: PointsTo) -> WriterIndex:
    ptr_bytes = program.data_model.pointer_bits // 8
    unknown = frozenset(i for i, o in enumerate(pts.objects) if o.kind is ObjectKind.UNKNOWN)
    by_object: dict[int, list] = {}
    wild: list[Site] = []
    all_sites: list[Site] = []
    for f in program.functions:
        for pc, instr in enumerate(f.body):
            ops = access.operands(instr, ptr_bytes)
            if not ops:
                continue
            targets = pts.operand_ids(f.name, pc)
            site = (f.name, pc)
            writes = False
            for operand, locs in zip(ops, targets):
                if operand.role is not access.Role.WRITE:
                    continue
                writes = True
                if not locs or any(o in unknown for o, _ in locs):
                    wild.append(site)
                    continue
                for o, k in locs:
                    by_object.setdefault(o, []).append((site, k, operand.size))
            if writes:
                all_sites.append(site)
    return WriterIndex(
        {o: tuple(v) for o, v in by_object.items()}, tuple(wild), tuple(all_sites), unknown
    )
