"""Abstract values of the thread-modular prover: an integer interval and the
objects a pointer may point into.

A :class:`Val` stands for a set of machine values of one IR type. ``lo`` and
``hi`` bound the integer value (for a pointer: its byte offset into the
object), ``None`` meaning unbounded; ``objs`` names the objects a pointer may
point into (empty for an integer or a null pointer; :data:`ANY` for a pointer
that may point anywhere). The arithmetic follows C on the IR's types:
unsigned arithmetic wraps (a result that may wrap is the type's whole
range), and a signed result outside its type is an overflow, which the
engine reports as a run-time error that ends the run, so only the values in
range go on (as the engine's ``require`` does).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from distaff.analysis import ir

ANY = frozenset({"*"})  # a pointer into any object


@dataclass(frozen=True, slots=True)
class Val:
    lo: int | None
    hi: int | None
    objs: frozenset = frozenset()

    @property
    def empty(self) -> bool:
        return self.lo is not None and self.hi is not None and self.lo > self.hi

    def excludes_zero(self) -> bool:
        """Is every value of it non-zero (a condition that holds)? A pointer
        into an object is never null, whatever its offset."""
        if self.empty:
            return True
        if self.objs and self.objs is not ANY and "*" not in self.objs:
            return True
        return not self.objs and ((self.lo is not None and self.lo > 0) or (self.hi is not None and self.hi < 0))

    def is_zero(self) -> bool:
        return not self.objs and self.lo == 0 and self.hi == 0

    def text(self) -> str:
        if self.objs:
            return "a pointer into " + ", ".join(sorted(self.objs)) if "*" not in self.objs else "any pointer"
        if self.lo == self.hi and self.lo is not None:
            return f"== {self.lo}"
        lo = "-inf" if self.lo is None else str(self.lo)
        hi = "+inf" if self.hi is None else str(self.hi)
        return f"in [{lo}, {hi}]"


BOTTOM = Val(1, 0)


def const(v: int) -> Val:
    return Val(v, v)


def type_range(t, ptr_bits: int) -> tuple[int, int]:
    if isinstance(t, ir.IntType):
        if t.is_bool:
            return 0, 1
        return (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else (0, (1 << t.bits) - 1)
    bits = ir.bits_of(t, ptr_bits)
    return 0, (1 << bits) - 1


def top(t, ptr_bits: int) -> Val:
    """Any value of type ``t``."""
    lo, hi = type_range(t, ptr_bits)
    return Val(lo, hi, ANY if isinstance(t, ir.PtrType) else frozenset())


def join(a: Val, b: Val) -> Val:
    if a.empty:
        return b
    if b.empty:
        return a
    lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
    hi = None if a.hi is None or b.hi is None else max(a.hi, b.hi)
    objs = ANY if "*" in a.objs or "*" in b.objs else a.objs | b.objs
    return Val(lo, hi, objs)


def meet(a: Val, lo: int | None, hi: int | None) -> Val:
    """``a`` with its integer value limited to [lo, hi] (a pointer keeps its
    objects: only integers are narrowed)."""
    if a.objs:
        return a
    nlo = a.lo if lo is None else (lo if a.lo is None else max(a.lo, lo))
    nhi = a.hi if hi is None else (hi if a.hi is None else min(a.hi, hi))
    return Val(nlo, nhi)


def widen(old: Val, new: Val, t, ptr_bits: int, thresholds: tuple[int, ...] = ()) -> Val:
    """``new`` joined with ``old``, each bound that grew pushed to the next
    of the sorted ``thresholds`` (the program's constants) or else to the
    type's end, so loops and interference reach a fixpoint in few steps."""
    j = join(old, new)
    if old.empty:
        return j
    lo, hi = type_range(t, ptr_bits)
    if j.lo != old.lo and j.lo is not None:
        i = bisect.bisect_right(thresholds, j.lo) - 1
        lo = thresholds[i] if i >= 0 and thresholds[i] >= lo else lo
    elif j.lo == old.lo:
        lo = j.lo
    if j.hi != old.hi and j.hi is not None:
        i = bisect.bisect_left(thresholds, j.hi)
        hi = thresholds[i] if i < len(thresholds) and thresholds[i] <= hi else hi
    elif j.hi == old.hi:
        hi = j.hi
    return Val(lo, hi, j.objs)


def leq(a: Val, b: Val) -> bool:
    if a.empty:
        return True
    if b.empty:
        return False
    if "*" not in b.objs and not a.objs <= b.objs:
        return False
    return (b.lo is None or (a.lo is not None and a.lo >= b.lo)) and (b.hi is None or (a.hi is not None and a.hi <= b.hi))


def fit(v: Val, t, ptr_bits: int, wraps: bool) -> Val:
    """``v`` as a value of integer type ``t``: unchanged when it fits;
    otherwise the part in range when ``wraps`` is false (a signed overflow
    ends its run), the type's whole range when it is true."""
    if v.empty or v.objs:
        return v
    lo, hi = type_range(t, ptr_bits)
    inside = v.lo is not None and v.hi is not None and lo <= v.lo and v.hi <= hi
    if inside:
        return v
    if not wraps:
        return meet(v, lo, hi)
    if v.lo is not None and v.lo == v.hi:  # one value: its bit pattern
        bits = ir.bits_of(t, ptr_bits)
        x = v.lo & ((1 << bits) - 1)
        if isinstance(t, ir.IntType) and t.signed:
            x = ir.to_signed(x, bits)
        return const(x)
    return Val(lo, hi)


def _corners(a: Val, b: Val, f) -> Val:
    if a.lo is None or a.hi is None or b.lo is None or b.hi is None:
        return Val(None, None)
    xs = [f(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return Val(min(xs), max(xs))


def _quotient(x: int, y: int) -> int:
    """C's ``x / y``: truncated towards zero."""
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def arith(op: str, a: Val, b: Val) -> Val | None:
    """The mathematical result of an integer operation (before fitting to a
    type); None when the domain has nothing better than any value."""
    if a.empty or b.empty:
        return BOTTOM
    if op == "+":
        return Val(_add(a.lo, b.lo), _add(a.hi, b.hi))
    if op == "-":
        return Val(_add(a.lo, None if b.hi is None else -b.hi), _add(a.hi, None if b.lo is None else -b.lo))
    if op == "*":
        return _corners(a, b, lambda x, y: x * y)
    if op in ("/", "%") and b.lo is not None and b.hi is not None and (b.lo > 0 or b.hi < 0):
        if op == "/":
            return _corners(a, b, _quotient)
        m = max(abs(b.lo), abs(b.hi)) - 1
        if a.lo is not None and a.lo >= 0:
            return Val(0, m if a.hi is None else min(m, a.hi))
        return Val(-m, m)
    if op == "&" and a.lo is not None and a.lo >= 0 and b.lo is not None and b.lo >= 0:
        return Val(0, min(x for x in (a.hi, b.hi) if x is not None) if (a.hi, b.hi) != (None, None) else None)
    return None


def compare(op: str, a: Val, b: Val) -> Val:
    """0, 1 or either, for a comparison of two values."""
    if a.objs or b.objs:
        return Val(0, 1)
    if a.empty or b.empty:
        return BOTTOM
    lt_always = a.hi is not None and b.lo is not None and a.hi < b.lo
    gt_always = a.lo is not None and b.hi is not None and a.lo > b.hi
    le_always = a.hi is not None and b.lo is not None and a.hi <= b.lo
    ge_always = a.lo is not None and b.hi is not None and a.lo >= b.hi
    eq_always = a.lo == a.hi == b.lo == b.hi and a.lo is not None
    outcomes = {
        "<": (lt_always, ge_always), "<=": (le_always, gt_always),
        ">": (gt_always, le_always), ">=": (ge_always, lt_always),
        "==": (eq_always, lt_always or gt_always), "!=": (lt_always or gt_always, eq_always),
    }
    yes, no = outcomes[op]
    return const(1) if yes else const(0) if no else Val(0, 1)


FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def narrow(op: str, a: Val, b: Val) -> Val:
    """``a`` where ``a op b`` holds for some value of ``b``."""
    if a.objs or b.objs or b.empty:
        return a
    if op == "<":
        return meet(a, None, None if b.hi is None else b.hi - 1)
    if op == "<=":
        return meet(a, None, b.hi)
    if op == ">":
        return meet(a, None if b.lo is None else b.lo + 1, None)
    if op == ">=":
        return meet(a, b.lo, None)
    if op == "==":
        return meet(a, b.lo, b.hi)
    if op == "!=" and b.lo is not None and b.lo == b.hi:
        if a.lo == b.lo:
            return meet(a, b.lo + 1, None)
        if a.hi == b.lo:
            return meet(a, None, b.lo - 1)
    return a
