"""Conflict-free and shared memory at a program context (§4.4).

A location is *conflict-free* when no instruction that can run after the
first ``pthread_create`` writes it: all its writes happen while ``main``
runs alone (the common idiom of initialising data before starting the
threads and keeping it read-only after), so its value at any context is the
one ``main`` left at its first creation. Every other location another
thread may touch is *shared*, and the context knows nothing of its value.

:func:`concurrent_code` says which code may run after a creation: every
function reachable from a thread routine, the pcs of ``main`` reachable
from a creation (or from a call of a function that creates threads), and
the functions called from those pcs.
"""

from __future__ import annotations

from analysis import ir
from analysis.ir import Call, Intrinsic, Op
from analysis.static import access
from analysis.static.facts import Facts
from analysis.static.pointsto import ObjectKind


def concurrent_code(program: ir.Program, facts: Facts) -> tuple[set[str], set[int]]:
    """Functions that may run after the first ``pthread_create`` (all of a
    routine's, and those ``main`` calls after a creation), and the pcs of
    ``main`` that may."""
    from analysis.context.threads import reachable

    funcs: set[str] = set()
    for r in program.thread_routines():
        if r != program.entry:
            funcs |= reachable(facts, r)
    main = program.function(program.entry)
    late: set[int] = set()
    if main is None:
        return funcs, late
    creators = {f for f in (fn.name for fn in program.functions)
                if any(isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE for i in program.function(f).body)}
    def creates(pc: int) -> bool:
        i = main.body[pc]
        if isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE:
            return True
        if isinstance(i, Call):
            return any(reachable(facts, g) & creators for g in facts.calls.callees_at(main.name, pc))
        return False

    todo = [pc for pc in range(len(main.body)) if creates(pc)]
    seen = set(todo)
    while todo:
        for s in main.successors(todo.pop()):
            if s not in seen:
                seen.add(s)
                todo.append(s)
    late = seen
    for pc in late:
        if isinstance(main.body[pc], Call):
            for g in facts.calls.callees_at(main.name, pc):
                funcs |= reachable(facts, g)
    if main.name in funcs:  # main reached again (recursion into main): all of it is late
        late = set(range(len(main.body)))
    return funcs, late


def conflict_free(program: ir.Program, facts: Facts, funcs: set[str], late_main: set[int]) -> frozenset[int]:
    """Objects no instruction that may run concurrently writes (§4.4). A write
    into UNKNOWN memory (made from an integer, or an external's) writes no
    object the program names; a write whose address denotes nothing known
    writes anything."""
    pts = facts.points_to
    ptr_bytes = program.data_model.pointer_bits // 8
    written: set[int] = set()
    for f in program.functions:
        if f.name not in funcs and f.name != program.entry:
            continue
        for pc, instr in enumerate(f.body):
            if f.name == program.entry and f.name not in funcs and pc not in late_main:
                continue
            ops = access.operands(instr, ptr_bytes)
            for op, locs in zip(ops, pts.operand_ids(f.name, pc)):
                if op.role is not access.Role.WRITE:
                    continue
                if not locs:
                    return frozenset()
                written.update(o for o, _ in locs)
    return frozenset(o for o, obj in enumerate(pts.objects)
                     if obj.kind is not ObjectKind.FUNCTION and o not in written)
