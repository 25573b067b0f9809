"""Escape analysis: which memory may be touched by more than one thread.

An object is *shared* when it is a global or a string literal, is UNKNOWN
memory, or is reachable through the points-to relation (any cell, any offset)
from a shared object, from the argument of a ``pthread_create``, or from what a
thread routine returns (or hands to ``pthread_exit``). Everything else (stack
objects, heap and alloca blocks that never leave their thread) is thread-local.

:func:`classify` is the last step of lowering: it sets the :class:`~distaff.analysis.ir.Kind`
of every instruction that touches memory through an address (Load, Store,
MEMSET, MEMCPY, MAKE_SYMBOLIC, FREE). Such an instruction is ``LOCAL`` only when
every address operand denotes at least one known object and none of them is
shared; otherwise it is ``GLOBAL``: a missed GLOBAL would hide interleavings
from the engine, so doubt always resolves to GLOBAL. Nothing else of the
program changes.
"""

from __future__ import annotations

import dataclasses

from distaff.analysis import ir
from distaff.analysis.ir import Intrinsic, Kind, Load, Op, Store
from distaff.analysis.static.pointsto import MemObject, ObjectKind, PointsTo, points_to

_ROOT_KINDS = frozenset({ObjectKind.GLOBAL, ObjectKind.STRING, ObjectKind.UNKNOWN})
MEMORY_INTRINSICS = frozenset({Op.MEMSET, Op.MEMCPY, Op.MAKE_SYMBOLIC, Op.FREE})


def shared_ids(pts: PointsTo) -> frozenset[int]:
    """Indices (in ``pts.objects``) of the objects more than one thread may
    access; functions are not memory and never listed."""
    objects = pts.objects
    work = [i for i, o in enumerate(objects) if o.kind in _ROOT_KINDS]
    work.extend(o for o, _ in pts.thread_args)
    work.extend(o for o, _ in pts.thread_results)
    shared: set[int] = set()
    while work:
        o = work.pop()
        if o in shared or objects[o].kind is ObjectKind.FUNCTION:
            continue
        shared.add(o)
        work.extend(x for x, _ in pts.contents_ids(o) if x not in shared)
    return frozenset(shared)


def shared_objects(pts: PointsTo) -> frozenset[MemObject]:
    """The objects more than one thread may access."""
    return frozenset(pts.objects[i] for i in shared_ids(pts))


def touches_memory(instr: ir.Instr) -> bool:
    """Whether the escape analysis decides the kind of ``instr``."""
    return isinstance(instr, (Load, Store)) or (
        isinstance(instr, Intrinsic) and instr.op in MEMORY_INTRINSICS
    )


def access_kind(targets: tuple[frozenset, ...], shared: frozenset[int]) -> Kind:
    """LOCAL when every operand denotes known objects, none shared
    (``targets`` and ``shared`` in id locations and object indices)."""
    if not targets:
        return Kind.GLOBAL
    for locs in targets:
        if not locs or any(o in shared for o, _ in locs):
            return Kind.GLOBAL
    return Kind.LOCAL


def classify(program: ir.Program, pts: PointsTo | None = None) -> ir.Program:
    """``program`` with the kind of each memory-touching instruction decided
    by the escape analysis (the same object when no kind changes). The kinds
    do not change points-to: a caller may keep ``pts`` for the result
    (:func:`distaff.analysis.static.facts.remember`)."""
    pts = pts if pts is not None else points_to(program)
    shared = shared_ids(pts)
    functions = []
    changed = False
    for f in program.functions:
        body = list(f.body)
        rewritten = False
        for pc, instr in enumerate(body):
            if touches_memory(instr):
                kind = access_kind(pts.operand_ids(f.name, pc), shared)
                if kind is not instr.kind:
                    body[pc] = dataclasses.replace(instr, kind=kind)
                    rewritten = True
        functions.append(dataclasses.replace(f, body=tuple(body)) if rewritten else f)
        changed = changed or rewritten
    if changed:
        program = dataclasses.replace(program, functions=tuple(functions), _index={})
    return program
