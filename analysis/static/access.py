"""Which operands of an instruction are memory addresses, and what is done there.

Every static analysis that asks "what memory does this instruction touch" goes
through :func:`operands`: points-to reports a target set per operand, the
escape analysis classifies by them, slicing matches writers to readers by them.

An :class:`Operand` is an address expression with its :class:`Role` and the
number of bytes accessed from that address (``None``: unknown, e.g. a
``memset`` of a run-time size; treat it as "up to the end of the object").
Synchronization objects (mutexes, condition variables, barriers, semaphores,
rwlocks) are SYNC
operands: the operation reads and writes their state, but no Load or Store of
the program does.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from distaff.analysis.ir import Const, Expr, Instr, Intrinsic, Load, Op, Store, type_size


class Role(enum.Enum):
    READ = "read"
    WRITE = "write"
    SYNC = "sync"
    FREE = "free"


@dataclass(frozen=True, slots=True)
class Operand:
    role: Role
    addr: Expr
    size: int | None


def const_value(e: Expr) -> int | None:
    """The value of a constant integer expression, or None when not constant."""
    return e.value if isinstance(e, Const) else None


def _sync(*addrs: Expr) -> tuple[Operand, ...]:
    return tuple(Operand(Role.SYNC, a, None) for a in addrs)


def operands(instr: Instr, ptr_bytes: int = 8) -> tuple[Operand, ...]:
    """The memory operands of ``instr``, in argument order (empty for
    instructions that touch no memory). ``ptr_bytes`` is the data model's
    pointer size, the size of a ``pthread_t`` and of a joined thread's result."""
    if isinstance(instr, Load):
        return (Operand(Role.READ, instr.addr, type_size(instr.type) or None),)
    if isinstance(instr, Store):
        return (Operand(Role.WRITE, instr.addr, type_size(instr.type) or None),)
    if not isinstance(instr, Intrinsic):
        return ()
    op, a = instr.op, instr.args
    if op is Op.MEMSET and len(a) >= 3:
        return (Operand(Role.WRITE, a[0], const_value(a[2])),)
    if op is Op.MEMCPY and len(a) >= 3:
        n = const_value(a[2])
        return (Operand(Role.WRITE, a[0], n), Operand(Role.READ, a[1], n))
    if op is Op.MAKE_SYMBOLIC and len(a) >= 2:
        return (Operand(Role.WRITE, a[0], const_value(a[1])),)
    if op is Op.FREE and a:
        return (Operand(Role.FREE, a[0], None),)
    if op is Op.THREAD_CREATE and a:
        return (Operand(Role.WRITE, a[0], ptr_bytes),)
    if op is Op.THREAD_JOIN and len(a) >= 2:
        if const_value(a[1]) == 0:
            return ()
        return (Operand(Role.WRITE, a[1], ptr_bytes),)
    if op is Op.COND_WAIT and len(a) >= 2:
        return _sync(a[0], a[1])
    if op is Op.SEM_GETVALUE and len(a) >= 2:
        return _sync(a[0]) + (Operand(Role.WRITE, a[1], 4),)
    if op in _SYNC_ON_FIRST and a:
        return _sync(a[0])
    return ()


_SYNC_ON_FIRST = frozenset(
    {
        Op.MUTEX_INIT, Op.MUTEX_DESTROY, Op.MUTEX_LOCK, Op.MUTEX_TRYLOCK, Op.MUTEX_UNLOCK,
        Op.COND_INIT, Op.COND_DESTROY, Op.COND_SIGNAL, Op.COND_BROADCAST,
        Op.BARRIER_INIT, Op.BARRIER_DESTROY, Op.BARRIER_WAIT,
        Op.SEM_INIT, Op.SEM_DESTROY, Op.SEM_WAIT, Op.SEM_TRYWAIT, Op.SEM_POST,
        Op.RWLOCK_INIT, Op.RWLOCK_DESTROY, Op.RWLOCK_RDLOCK, Op.RWLOCK_WRLOCK,
        Op.RWLOCK_TRYRDLOCK, Op.RWLOCK_TRYWRLOCK, Op.RWLOCK_UNLOCK, Op.ONCE, Op.ONCE_DONE,
    }
)
