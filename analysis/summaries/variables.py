"""Program variables as z3 terms: what predicate summaries are written over.

A summary must mean the same thing at every state with the same control
state, so it cannot mention the symbols of the run that learned it. It is
written over *program variables* instead, each a z3 constant whose name says
which one it is:

* ``r!tid!depth!func!name!bits`` -- register ``name`` of the frame at
  ``depth`` (0 = the thread's first frame) of thread ``tid``, running ``func``;
* ``s!tid!depth!func!name`` -- the address of stack object ``name`` of that
  frame;
* ``M!`` -- all of memory, an array from byte address to byte (loads and
  stores in weakest preconditions become selects and stores on it);
* ``q!n`` -- a value nobody knows in advance (a nondet result, an unset
  register): summaries hold for every value of these.

:func:`parse` reads a name back. Everything lives in the check's z3 context.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import z3

MEMORY = "M!"


@dataclass(frozen=True, slots=True)
class RegVar:
    tid: int
    depth: int
    func: str
    name: str
    bits: int


@dataclass(frozen=True, slots=True)
class StackVar:
    tid: int
    depth: int
    func: str
    name: str


@dataclass(frozen=True, slots=True)
class FreeVar:
    n: int


@functools.lru_cache(maxsize=65536)
def parse(name: str):
    """The variable a constant's name denotes (None for other symbols)."""
    if name == MEMORY:
        return MEMORY
    parts = name.split("!")
    try:
        if parts[0] == "r" and len(parts) >= 6:
            return RegVar(int(parts[1]), int(parts[2]), parts[3], "!".join(parts[4:-1]), int(parts[-1]))
        if parts[0] == "s" and len(parts) >= 5:
            return StackVar(int(parts[1]), int(parts[2]), parts[3], "!".join(parts[4:]))
        if parts[0] == "q" and len(parts) == 2:
            return FreeVar(int(parts[1]))
    except ValueError:
        return None
    return None


class Variables:
    """Makes the program-variable constants of one check (``ptr_bits`` wide
    addresses) in the context of ``values`` (a
    :class:`~distaff.analysis.symex.values.Values`), asked for it on first
    use: a check that never forms a summary makes no context for them."""

    def __init__(self, values, ptr_bits: int):
        self._values = values
        self.ptr_bits = ptr_bits
        self._fresh = itertools.count(1)
        self._memory: z3.ArrayRef | None = None
        self._made: dict = {}  # (kind, fields) -> constant: making one through z3 is slow

    @property
    def ctx(self) -> z3.Context:
        return self._values.ctx

    @property
    def memory(self) -> z3.ArrayRef:
        """The memory array ``M``: byte addresses to bytes."""
        m = self._memory
        if m is None:
            ctx = self.ctx
            m = self._memory = z3.Array(MEMORY, z3.BitVecSort(self.ptr_bits, ctx), z3.BitVecSort(8, ctx))
        return m

    def reg(self, tid: int, depth: int, func: str, name: str, bits: int) -> z3.BitVecRef:
        key = ("r", tid, depth, func, name, bits)
        c = self._made.get(key)
        if c is None:
            c = self._made[key] = z3.BitVec(f"r!{tid}!{depth}!{func}!{name}!{bits}", bits, self.ctx)
        return c

    def stack(self, tid: int, depth: int, func: str, name: str) -> z3.BitVecRef:
        key = ("s", tid, depth, func, name)
        c = self._made.get(key)
        if c is None:
            c = self._made[key] = z3.BitVec(f"s!{tid}!{depth}!{func}!{name}", self.ptr_bits, self.ctx)
        return c

    def fresh(self, bits: int) -> z3.BitVecRef:
        return z3.BitVec(f"q!{next(self._fresh)}", bits, self.ctx)

    def term(self, var) -> z3.ExprRef:
        """The constant of a parsed variable."""
        if var == MEMORY:
            return self.memory
        if isinstance(var, RegVar):
            return self.reg(var.tid, var.depth, var.func, var.name, var.bits)
        if isinstance(var, StackVar):
            return self.stack(var.tid, var.depth, var.func, var.name)
        raise TypeError(var)
