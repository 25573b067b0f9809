"""Interchangeable threads: the thread-creation sites whose threads may be
explored up to their permutation (symmetry reduction).

Two threads one parent started on the same routine with equal arguments run
the same code from the same local state; whatever one does the other could
have done. The engine lets the later of two such *twins* take its first step
only after the earlier one has taken its own (:mod:`distaff.analysis.symex.sync`):
a run in which the later twin starts first is the earlier one's run with the
two names swapped, and only names tell the two runs apart.

Names are visible in C through thread handles, and that is what this module
rules out. A create site qualifies when

* no function of the program asks for the running thread's id
  (``pthread_self``, ``thrd_current``);
* its handle is stored into an object (a stack variable, or a global of a
  ``main`` nobody calls) that the program touches only to store handles by
  ``pthread_create`` and to load them, in the same function;
* every value loaded from that object goes to ``pthread_join`` as the thread
  to join and nowhere else, and that join asks for no result.

What stays for run time (:class:`distaff.analysis.symex.sync`): the twins'
arguments are equal; only the parent joins them; once the parent joins one
twin it does nothing visible but join the others until all are joined (which
twin it waits for first is a name). A run that breaks one of these raises
:class:`distaff.analysis.symex.twins.SymmetryBroken` and the exploration starts again without twins.
"""

from __future__ import annotations

from distaff.analysis import ir
from distaff.analysis.memo import ProgramMemo
from distaff.analysis.ir import Addr, Cast, Const, Intrinsic, Load, ObjKind, Op, PtrAdd, Reg, nodes

Site = tuple[str, int]  # (function, pc) of a THREAD_CREATE
_MEMO = ProgramMemo(4)


def _base(e) -> Addr | None:
    """The object an address expression points into, when it is one named
    object plus offsets."""
    while True:
        if isinstance(e, Cast):
            e = e.arg
        elif isinstance(e, PtrAdd):
            e = e.ptr
        elif isinstance(e, Addr) and e.kind in (ObjKind.STACK, ObjKind.GLOBAL):
            return e
        else:
            return None


def _strip(e):
    while isinstance(e, Cast):
        e = e.arg
    return e


def _null(e) -> bool:
    e = _strip(e)
    return isinstance(e, Const) and e.value == 0


def interchangeable_sites(program: ir.Program) -> frozenset[Site]:
    """The create sites whose threads may be twins (module docstring).
    Memoised on the program."""
    hit = _MEMO.get(program)
    return hit if hit is not None else _MEMO.put(program, _sites(program))


def _sites(program: ir.Program) -> frozenset[Site]:
    creates: dict[tuple, list[Site]] = {}  # handle object -> its create sites
    for f in program.functions:
        for pc, i in enumerate(f.body):
            if isinstance(i, Intrinsic) and i.op is Op.THREAD_SELF:
                return frozenset()
            if isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE:
                b = _base(i.args[0])
                if b is not None:
                    creates.setdefault(_key(f.name, b), []).append((f.name, pc))
    if not creates:
        return frozenset()
    called = {_strip(i.callee).name for f in program.functions for i in f.body
              if isinstance(i, ir.Call) and isinstance(_strip(i.callee), Addr)}
    ok: set[Site] = set()
    for key, sites in creates.items():
        if _handles_only_joined(program, key, {s[0] for s in sites}, called):
            ok.update(sites)
    return frozenset(ok)


def _key(func: str, a: Addr) -> tuple:
    return (func, a.name) if a.kind is ObjKind.STACK else ("", a.name)


def _handles_only_joined(program: ir.Program, key: tuple, creators: set[str], called: set[str]) -> bool:
    owner, name = key
    if owner == "":  # a global: one function, main, uncalled, touches it
        if creators != {program.entry} or program.entry in called:
            return False
    for f in program.functions:
        touched = False
        loaded: set[str] = set()
        for pc, i in enumerate(f.body):
            exprs = _reads(i)
            mine = [e for e in exprs if any(isinstance(x, Addr) and _key(f.name, x) == key for x in nodes(e))]
            if not mine:
                continue
            touched = True
            if isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE and _only(mine, i.args[0], f.name, key):
                continue
            if isinstance(i, Load) and _only(mine, i.addr, f.name, key):
                loaded.add(i.dst.name)
                continue
            return False
        if touched and (f.name not in creators):
            return False
        if loaded and not _only_joined(f, loaded):
            return False
    return True


def _only(mine: list, e, func: str, key: tuple) -> bool:
    """``e`` is the one expression of ``mine`` and an address into ``key``'s object."""
    b = _base(e)
    return len(mine) == 1 and mine[0] is e and b is not None and _key(func, b) == key


def _reads(i) -> list:
    """The expressions ``i`` reads (not the register it defines)."""
    dst = getattr(i, "dst", None)
    return [e for e in ir.expressions_of(i) if e is not dst]


def _only_joined(f: ir.Function, regs: set[str]) -> bool:
    """Every read of ``regs`` in ``f`` is a join's thread, of a join that
    stores no result."""
    for i in f.body:
        exprs = _reads(i)
        uses = [e for e in exprs if any(isinstance(x, Reg) and x.name in regs for x in nodes(e))]
        if not uses:
            continue
        if isinstance(i, Intrinsic) and i.op is Op.THREAD_JOIN and len(uses) == 1 \
                and isinstance(_strip(i.args[0]), Reg) and uses[0] is i.args[0] \
                and (len(i.args) < 2 or _null(i.args[1])):
            continue
        return False
    return True


__all__ = ["Site", "interchangeable_sites"]
