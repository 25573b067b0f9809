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
    SYNC_OPS, Addr, Expr, Function, Intrinsic, Load, ObjKind, Program, Store, nodes,
)
from distaff.analysis.static.callgraph import named_functions


def mentions(e: Expr, name: str) -> bool:
    """True when expression ``e`` takes the address of global ``name``."""
    return any(type(x) is Addr and x.kind is ObjKind.GLOBAL and x.name == name for x in nodes(e))


def callees(program: Program, root: str) -> list[Function]:
    """``root`` and the functions it calls by name, transitively."""
    names = named_functions(program, [root], addresses=False)
    return [f for f in program.functions if f.name in names]


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
