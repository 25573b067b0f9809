"""Symbolic memory: objects addressed by (object id, byte offset).

Pointers are plain bit-vectors of the data model's pointer width whose high
bits hold the object id and whose low bits hold the byte offset
(:class:`PointerLayout`). So pointer values need no special type: they are
stored in memory byte by byte like integers, cast to integers and back, compared
with ``==`` (two pointers alias exactly when their bit patterns are equal) and
moved by integer addition. Object id 0 is the null object: the null pointer is
0, and any integer cast to a pointer points into it (an invalid access).

An object's contents are kept in one of two forms:

* *cells* (the fast form): a dict from a concrete byte offset to a
  ``(size in bytes, value)`` pair, so that the common case -- a scalar written
  and read back at the same concrete offset -- is a dict lookup. Mixed-width and
  overlapping accesses split and join cells byte-wise.
* an *array* (z3 ``Array(BitVec(ptr), BitVec(8))``): once an access uses a
  symbolic offset (an array indexed by a symbolic value), the object is
  converted and from then on every access to it selects/stores bytes.

Bytes never written read as zero (globals, ``calloc``) or as fresh symbols
(stack objects, ``malloc``, ``alloca``): each uncovered run of bytes is
materialised once as a fresh symbol and kept, so reading it again gives the
same value. Objects are copied on write: a state owns the objects whose
``gen`` equals its own generation (:class:`Memory`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import z3

from distaff.analysis.ir import CType, Span
from distaff.analysis.record import Record
from distaff.analysis.symex.values import Val, Values

Fresh = Callable[[str, int], Val]  # (name, bits) -> a fresh symbol


@dataclass(frozen=True, slots=True, init=False)
class PointerLayout(Record):
    """How a pointer's bits split into object id (high) and offset (low)."""

    bits: int
    id_bits: int

    def __init__(self, bits: int, id_bits: int) -> None:
        object.__setattr__(self, "bits", bits)
        object.__setattr__(self, "id_bits", id_bits)

    @staticmethod
    def for_bits(bits: int) -> "PointerLayout":
        return PointerLayout(bits, 20 if bits == 64 else 12)

    @property
    def off_bits(self) -> int:
        return self.bits - self.id_bits

    @property
    def max_objects(self) -> int:
        return 1 << self.id_bits

    def make(self, oid: int, off: int = 0) -> int:
        return (oid << self.off_bits) | (off & ((1 << self.off_bits) - 1))

    def obj(self, p: Val, V: Values) -> Val:
        """The object id of ``p`` (``id_bits`` wide)."""
        if isinstance(p, int):
            return p >> self.off_bits
        if z3.is_app_of(p, z3.Z3_OP_CONCAT) and p.num_args() == 2:
            hi = p.arg(0)
            if z3.is_bv_value(hi) and hi.size() == self.id_bits:
                return hi.as_long()
        return V.extract(p, self.bits - 1, self.off_bits)

    def off(self, p: Val, V: Values) -> Val:
        """The byte offset of ``p``, zero-extended to pointer width."""
        if isinstance(p, int):
            return p & ((1 << self.off_bits) - 1)
        return V.zext(V.extract(p, self.off_bits - 1, 0), self.off_bits, self.bits)

    def add(self, p: Val, delta: Val, V: Values) -> Val:
        """``p`` moved by ``delta`` bytes (pointer width, two's complement). The
        offset wraps within its own bits and never carries into the object id:
        pointer arithmetic stays inside the object, and a result before its
        start or past its end is an out-of-bounds offset, reported on access."""
        ob = self.off_bits
        if isinstance(p, int) and isinstance(delta, int):
            m = (1 << ob) - 1
            return (p & ~m & ((1 << self.bits) - 1)) | ((p + delta) & m)
        if isinstance(delta, int) and delta == 0:
            return p
        oid = self.obj(p, V)
        off = V.add(V.extract(p, ob - 1, 0), V.trunc(delta, ob), ob)
        return V.concat([(oid, self.id_bits), (off, ob)])


@dataclass(slots=True, init=False)
class MemObject(Record):
    """One memory object. ``size`` (bytes) may be symbolic for heap blocks.
    ``kind`` is ``null``, ``global``, ``string``, ``function``, ``stack``,
    ``heap``, ``alloca`` or ``thread`` (the object naming a thread's join queue).
    ``ctype`` is the declared type when known (to name ``x.f[2]`` in traces)."""

    oid: int
    name: str
    kind: str
    size: Val
    ctype: CType | None
    span: Span | None
    zeroed: bool
    cells: dict
    widest: int = 1
    array: Any = None
    alive: bool = True
    readonly: bool = False
    gen: int = 0
    # the body-less function that last wrote unknown contents here: bytes read
    # before the program writes them again stand for its writes
    havoc: str = ""

    def __init__(self, oid: int, name: str, kind: str, size: Val, ctype: CType | None, span: Span | None,
                 zeroed: bool, cells: dict, widest: int = 1, array: Any = None, alive: bool = True,
                 readonly: bool = False, gen: int = 0, havoc: str = "") -> None:
        self.oid = oid
        self.name = name
        self.kind = kind
        self.size = size
        self.ctype = ctype
        self.span = span
        self.zeroed = zeroed
        self.cells = cells
        self.widest = widest
        self.array = array
        self.alive = alive
        self.readonly = readonly
        self.gen = gen
        self.havoc = havoc

    def copy(self, gen: int) -> "MemObject":
        return MemObject(
            self.oid, self.name, self.kind, self.size, self.ctype, self.span, self.zeroed,
            dict(self.cells), self.widest, self.array, self.alive, self.readonly, gen, self.havoc,
        )


class Memory:
    """The objects of one state, copied on write."""

    __slots__ = ("objs", "gen")

    def __init__(self, objs: dict[int, MemObject], gen: int):
        self.objs = objs
        self.gen = gen

    def clone(self, gen: int) -> "Memory":
        return Memory(dict(self.objs), gen)

    def get(self, oid: int) -> MemObject | None:
        return self.objs.get(oid)

    def writable(self, oid: int) -> MemObject:
        o = self.objs[oid]
        if o.gen != self.gen:
            o = o.copy(self.gen)
            self.objs[oid] = o
        return o

    def add(self, obj: MemObject) -> None:
        obj.gen = self.gen
        self.objs[obj.oid] = obj

    # ------------------------------------------------------------------
    # reads and writes at an in-bounds offset

    def load(self, oid: int, off: Val, nbytes: int, V: Values, layout: PointerLayout, fresh: Fresh) -> Val:
        obj = self.objs[oid]
        if obj.array is None and isinstance(off, int):
            cell = obj.cells.get(off)
            if cell is not None and cell[0] == nbytes:
                return cell[1]
            if obj.zeroed and not _overlaps(obj, off, nbytes):
                return 0
            return _load_cells(self.writable(oid), off, nbytes, V, fresh)
        obj = self.writable(oid)
        arr = ensure_array(obj, V, layout)
        idx = [V.add(off, i, layout.bits) for i in range(nbytes)]
        parts = [(_select(arr, V.lift(i, layout.bits)), 8) for i in reversed(idx)]
        v = V.concat(parts)
        return V.simplified(v) if isinstance(off, int) else v

    def peek(self, oid: int, off: int, nbytes: int) -> Val | None:
        """What ``nbytes`` at ``off`` hold when telling needs neither a new
        symbol nor the solver: one cell of that size, or zeroed bytes no cell
        covers; None otherwise, or when the object is gone."""
        obj = self.objs.get(oid)
        if obj is None or not obj.alive or obj.array is not None:
            return None
        cell = obj.cells.get(off)
        if cell is not None and cell[0] == nbytes:
            return cell[1]
        if obj.zeroed and not _overlaps(obj, off, nbytes):
            return 0
        return None

    def store(self, oid: int, off: Val, nbytes: int, value: Val, V: Values, layout: PointerLayout) -> None:
        obj = self.writable(oid)
        if obj.array is None and isinstance(off, int):
            cell = obj.cells.get(off)
            if cell is not None and cell[0] == nbytes:
                obj.cells[off] = (nbytes, value)
                return
            _clear(obj, off, nbytes, V)
            obj.cells[off] = (nbytes, value)
            obj.widest = max(obj.widest, nbytes)
            return
        arr = ensure_array(obj, V, layout)
        for i in range(nbytes):
            arr = _store(arr, V.lift(V.add(off, i, layout.bits), layout.bits), V.lift(V.extract(value, 8 * i + 7, 8 * i), 8))
        obj.array = arr


def _select(arr, i):
    return z3.Select(arr, i)


def _store(arr, i, v):
    return z3.Store(arr, i, v)


def _overlaps(obj: MemObject, off: int, n: int) -> bool:
    cells = obj.cells
    for s in range(off - obj.widest + 1, off + n):
        c = cells.get(s)
        if c is not None and s + c[0] > off:
            return True
    return False


def _covering(obj: MemObject, b: int):
    """The cell covering byte ``b``: ``(start, size, value)`` or None."""
    cells = obj.cells
    for s in range(b, b - obj.widest, -1):
        c = cells.get(s)
        if c is not None and s + c[0] > b:
            return s, c[0], c[1]
    return None


def _load_cells(obj: MemObject, off: int, n: int, V: Values, fresh: Fresh) -> Val:
    segments: list[tuple[Val, int]] = []  # least significant first
    b, end = off, off + n
    while b < end:
        cov = _covering(obj, b)
        if cov is not None:
            s, size, v = cov
            hi = min(s + size, end)
            segments.append((V.extract(v, (hi - s) * 8 - 1, (b - s) * 8), (hi - b) * 8))
            b = hi
            continue
        run_end = b + 1
        while run_end < end and _covering(obj, run_end) is None:
            run_end += 1
        width = run_end - b
        if obj.zeroed:
            v = 0
        else:
            v = fresh(f"{obj.name}[{b}]" if width == 1 or obj.kind != "stack" else f"{obj.name}+{b}", width * 8)
            obj.cells[b] = (width, v)
            obj.widest = max(obj.widest, width)
        segments.append((v, width * 8))
        b = run_end
    if len(segments) == 1:
        return segments[0][0]
    return V.concat(list(reversed(segments)))


def _clear(obj: MemObject, off: int, n: int, V: Values) -> None:
    """Remove the cells overlapping ``[off, off+n)``, keeping the parts outside."""
    cells = obj.cells
    end = off + n
    for s in range(off - obj.widest + 1, end):
        c = cells.get(s)
        if c is None or s + c[0] <= off:
            continue
        size, v = c
        del cells[s]
        if s < off:
            cells[s] = (off - s, V.extract(v, (off - s) * 8 - 1, 0))
        if s + size > end:
            cells[end] = (s + size - end, V.extract(v, size * 8 - 1, (end - s) * 8))


def ensure_array(obj: MemObject, V: Values, layout: PointerLayout):
    if obj.array is not None:
        return obj.array
    if obj.zeroed:
        arr = V.zero_array(layout.bits)
    else:
        arr = V.fresh_array(f"{obj.name}@{obj.oid}[]", layout.bits)
    for s, (size, v) in sorted(obj.cells.items()):
        for i in range(size):
            arr = _store(arr, V.const(s + i, layout.bits), V.lift(V.extract(v, 8 * i + 7, 8 * i), 8))
    obj.array = arr
    obj.cells = {}
    return arr
