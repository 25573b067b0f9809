"""Which threads read and write a global, for hover.

A syntactic scan of the IR: a thread routine (``main`` and every routine
passed to ``pthread_create``) *reads* a global when it, or a function it calls
directly, has a :class:`~distaff.analysis.ir.Load` whose address expression mentions
the global's :class:`~distaff.analysis.ir.Addr`; it *writes* it through a
:class:`~distaff.analysis.ir.Store`; it *synchronizes on* it through a pthreads
intrinsic (lock, wait, ...) whose arguments mention it. Accesses through
pointers held in variables are not attributed (that needs points-to), which
the hover says.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis.ir import (
    SYNC_OPS, Addr, Binary, Call, Cast, Expr, Function, Intrinsic, Ite, Load, ObjKind,
    Program, PtrAdd, PtrDiff, Store, Unary,
)


def mentions(e: Expr, name: str) -> bool:
    """True when expression ``e`` takes the address of global ``name``."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, Addr):
            if x.kind is ObjKind.GLOBAL and x.name == name:
                return True
        elif isinstance(x, (Unary, Cast)):
            stack.append(x.arg)
        elif isinstance(x, (Binary, PtrDiff)):
            stack.extend((x.left, x.right))
        elif isinstance(x, PtrAdd):
            stack.extend((x.ptr, x.offset))
        elif isinstance(x, Ite):
            stack.extend((x.cond, x.then, x.other))
    return False


def callees(program: Program, root: str) -> list[Function]:
    """``root`` and the functions it calls directly, transitively."""
    seen: dict[str, Function] = {}
    todo = [root]
    while todo:
        f = program.function(todo.pop())
        if f is None or f.name in seen:
            continue
        seen[f.name] = f
        for i in f.body:
            if isinstance(i, Call) and isinstance(i.callee, Addr) and i.callee.kind is ObjKind.FUNCTION:
                todo.append(i.callee.name)
    return list(seen.values())


@dataclass(frozen=True, slots=True)
class Sharing:
    """Thread routines that read, write and synchronize on one global."""

    name: str
    readers: tuple[str, ...]
    writers: tuple[str, ...]
    synchronizers: tuple[str, ...]

    @property
    def shared(self) -> bool:
        return len(set(self.readers) | set(self.writers) | set(self.synchronizers)) > 1


def sharing_of(program: Program, name: str) -> Sharing:
    readers, writers, syncs = [], [], []
    for routine in program.thread_routines():
        r = w = s = False
        for f in callees(program, routine):
            for i in f.body:
                if isinstance(i, Load) and mentions(i.addr, name):
                    r = True
                elif isinstance(i, Store) and mentions(i.addr, name):
                    w = True
                elif isinstance(i, Intrinsic) and i.op in SYNC_OPS and any(mentions(a, name) for a in i.args):
                    s = True
        if r:
            readers.append(routine)
        if w:
            writers.append(routine)
        if s:
            syncs.append(routine)
    return Sharing(name, tuple(readers), tuple(writers), tuple(syncs))


def thread_functions(program: Program) -> set[str]:
    """Functions that run in some thread (main's included)."""
    out: set[str] = set()
    for routine in program.thread_routines():
        out.update(f.name for f in callees(program, routine))
    return out
