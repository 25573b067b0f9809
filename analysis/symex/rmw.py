"""Read-modify-writes that commute: atomic regions that add to one location
(or and, or, xor into it) and use nothing of what they read.

Two such updates of the same location with the same operator leave memory
as they found it in either order (``(m + a) + b == (m + b) + a`` in wrapping
arithmetic, and alike for ``&``, ``|``, ``^``), and when neither keeps the old
value in a live register nor branches on it, nothing else of either thread
differs: the two events commute, and partial order reduction need not try
both orders (Nidhugg's ``commute_rmws`` does the same for LLVM's
``atomicrmw`` whose result is unused). ``atomic_fetch_add(&hits, 1)`` as a
statement is one; a fetch whose result is used is not.

``x++``, ``x--`` and ``x += k`` on a signed ``_Atomic int`` (``k`` a
constant) add with C's arithmetic, whose overflow is undefined and checked
(a run-time error, which ends the run in a step dependent with every other).
Two such additions of constants of one sign commute too: either order
overflows exactly when the sum of both does, and on the side where neither
does the path's condition is the same (``x + a`` stays in range once
``x + a + b`` does); what may differ is which of the two statements the error
is reported at. Additions of constants of opposite signs, or a signed one
beside a wrapping one, do not commute: the kinds ``"add+"`` and ``"add-"``
stay apart from ``"add"``.

:func:`update_kind` recognises the region the front end lowers such a call
to (``distaff.analysis.frontend.lower_atomic``): ``atomic_begin``, ``r :=
load [p]``, at most one ``t := f(r)``, ``store [p] := t`` (or ``f(r)``),
``atomic_end``, with ``r`` and ``t`` dead after the region
(:mod:`distaff.analysis.liveness`).
"""

from __future__ import annotations

from distaff.analysis.ir import (
    Assign, Binary, Cast, Const, Function, Intrinsic, IntType, Kind, Load, Op, Reg, Store, mask, regs_of, to_signed,
)
from distaff.analysis.liveness import live_registers

# the operators whose updates commute with one another: + and - with each
# other (wrapping), each bitwise one with itself
_KINDS = {"+": "add", "-": "add", "&": "and", "|": "or", "^": "xor"}


def update_kind(func: Function, pc: int, live: tuple | None = None) -> str:
    """The kind of commutative update (``"add"``; ``"add+"``, ``"add-"``: a
    signed addition of a constant of that sign; ``"and"``, ``"or"``,
    ``"xor"``) of the atomic region that begins at ``func.body[pc]``, or
    ``""`` when it is not one. ``live``: ``live_registers(func)``, when the
    caller has it."""
    body = func.body
    i = body[pc] if pc < len(body) else None
    if not (isinstance(i, Intrinsic) and i.op is Op.ATOMIC_BEGIN) or pc + 4 > len(body):
        return ""
    load = body[pc + 1]
    if not (isinstance(load, Load) and load.kind is Kind.GLOBAL):
        return ""
    q = pc + 2
    temp: Assign | None = None
    if isinstance(body[q], Assign):
        temp = body[q]
        q += 1
    store = body[q] if q < len(body) else None
    end = body[q + 1] if q + 1 < len(body) else None
    if not (isinstance(store, Store) and store.kind is Kind.GLOBAL and store.addr == load.addr
            and store.type == load.type and isinstance(end, Intrinsic) and end.op is Op.ATOMIC_END):
        return ""
    old = load.dst.name
    value = store.value
    if temp is not None:
        if not (isinstance(value, Reg) and value.name == temp.dst.name) or old in regs_of(store.addr):
            return ""
        value = temp.expr
    kind = _kind(value, old)
    if not kind:
        return ""
    after = (live if live is not None else live_registers(func))[q + 2] if q + 2 < len(body) else frozenset()
    if old in after or (temp is not None and temp.dst.name in after):
        return ""
    return kind


def _kind(e, old: str) -> str:
    """The update kind of the value ``e`` stored back, computed from the old
    value (register ``old``) by one commuting operator with an operand that
    does not read it; casts between integer types of one width (which keep
    the bits) may wrap either."""
    e = _unwrap(e)
    if not isinstance(e, Binary) or e.op not in _KINDS or not isinstance(e.type, IntType):
        return ""
    kind = _KINDS[e.op]
    left, right = _unwrap(e.left), _unwrap(e.right)
    if kind == "add" and e.type.signed:  # may overflow (undefined, checked): constants of one sign only
        k = right if _is(left, old) else left if e.op == "+" and _is(right, old) else None
        if not isinstance(k, Const):
            return ""
        v = to_signed(k.value & mask(e.type.bits), e.type.bits) * (-1 if e.op == "-" else 1)
        return "add+" if v >= 0 else "add-"
    if _is(left, old) and old not in regs_of(e.right):
        return kind
    if e.op != "-" and _is(right, old) and old not in regs_of(e.left):
        return kind
    return ""


def _unwrap(e):
    while isinstance(e, Cast) and isinstance(e.type, IntType) and isinstance(e.arg, (Reg, Binary, Cast)) \
            and isinstance(e.arg.type, IntType) and e.arg.type.bits == e.type.bits and not e.type.is_bool:
        e = e.arg
    return e


def _is(e, name: str) -> bool:
    return isinstance(e, Reg) and e.name == name


__all__ = ["update_kind"]
