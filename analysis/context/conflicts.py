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

from dataclasses import dataclass, field

from distaff.analysis import ir
from distaff.analysis.context.threads import ThreadStart, create_sites
from distaff.analysis.ir import Call, Intrinsic, Op
from distaff.analysis.static import access
from distaff.analysis.static.cfg import build as build_cfg
from distaff.analysis.static.facts import Facts
from distaff.analysis.static.pointsto import ObjectKind

OTHERS = "others"  # the threads a context does not place, and main after its first creation


def concurrent_code(program: ir.Program, facts: Facts) -> tuple[set[str], set[int]]:
    """Functions that may run after the first ``pthread_create`` (all of a
    routine's, and those ``main`` calls after a creation), and the pcs of
    ``main`` that may."""
    funcs: set[str] = set()
    for r in program.thread_routines():
        if r != program.entry:
            funcs |= facts.calls.reachable(r)
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
            return any(facts.calls.reachable(g) & creators for g in facts.calls.callees_at(main.name, pc))
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
                funcs |= facts.calls.reachable(g)
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


@dataclass(frozen=True)
class Quiet:
    """What no other thread can have changed before a context: ``objects``
    no write that may precede it writes; ``owned`` maps an object to the
    context thread (its index among the given threads) whose own code before
    its position is the only one that may have written it."""

    objects: frozenset = frozenset()
    owned: dict = field(default_factory=dict)


def quiet_objects(program: ir.Program, facts: Facts, starts: list[ThreadStart],
                  late_main: set[int]) -> Quiet:
    """The quiet and owned objects of a context (see the module docstring
    and :class:`Quiet`); none when that cannot be told (a context thread with
    an unknown routine or call chain, a write to an unknown address)."""
    ptr_bytes = program.data_model.pointer_bits // 8
    # per source (a given thread's index, or OTHERS): function -> pcs that may
    # precede the context (None: all of them)
    code: dict = {}

    def whole(src, root: str) -> None:
        for g in facts.calls.reachable(root):
            code.setdefault(src, {})[g] = None

    def some(src, func: str, pcs: set[int]) -> None:
        mine = code.setdefault(src, {})
        have = mine.get(func, set())
        if have is not None:
            mine[func] = have | pcs
        for pc in pcs:
            if isinstance(program.function(func).body[pc], Call):
                for g in facts.calls.callees_at(func, pc):
                    whole(src, g)

    given: dict[str, int] = {}
    for k, s in enumerate(x for x in starts if x.given):
        if not s.routine or not s.full_stack:
            return Quiet()
        given[s.routine] = given.get(s.routine, 0) + 1
        for func, pc in s.frames:
            before = preceding(program.function(func), pc)
            if func == program.entry:
                before &= late_main  # what main did before its first creation is in the creator's fact
            some(k, func, before)
    for s in starts:
        if not s.given:
            whole(OTHERS, s.routine)  # it may have run any of its code before
    for r in program.thread_routines():
        if r == program.entry:
            if r not in given:
                some(OTHERS, r, set(late_main))
            continue
        sites = create_sites(program, facts, r)
        if any(c.in_loop for c in sites) or len(sites) > given.get(r, 0):
            whole(OTHERS, r)  # an instance the context does not place may have run
    pts = facts.points_to
    writers: dict[int, set] = {}
    for src, funcs in code.items():
        for func, pcs in funcs.items():
            f = program.function(func)
            if f is None:
                continue
            for pc in (range(len(f.body)) if pcs is None else pcs):
                ops = access.operands(f.body[pc], ptr_bytes)
                for op, locs in zip(ops, pts.operand_ids(func, pc)):
                    if op.role is not access.Role.WRITE:
                        continue
                    if not locs:
                        return Quiet()
                    for o, _ in locs:
                        writers.setdefault(o, set()).add(src)
    objects = frozenset(o for o, obj in enumerate(pts.objects)
                        if obj.kind is not ObjectKind.FUNCTION and o not in writers)
    owned = {o: next(iter(w)) for o, w in writers.items() if len(w) == 1 and OTHERS not in w}
    return Quiet(objects, owned)


def preceding(f: ir.Function, pc: int) -> set[int]:
    """The pcs of ``f`` that may run before ``pc`` is reached (a path from
    them to ``pc`` of at least one step)."""
    pred = build_cfg(f).pred
    seen: set[int] = set()
    todo = list(pred[pc])
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(pred[p])
    return seen
