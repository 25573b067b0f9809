"""The threads of a program context: routines, call stacks, creation sites.

A context thread is given as a statement, ``(function, pc)``. This module
works out, from the call graph, what the rest of the analysis needs to know
about it:

* its *start routine*: the thread routine (or ``main``) from which the
  function is reached by calls;
* its *call stack*, when the function is reached by exactly one chain of
  call sites from its routine: the outer frames then exist in the initial
  state and the thread runs on after the function returns. Otherwise the
  stack is the one frame of the function, and the thread ends when it
  returns (arbitrary-context paper §2.2);
* the routines that may run in parallel and were not given, which start at
  their entry (not those whose every thread ``main`` has joined before its
  given statement: they have ended, and their writes count among those that
  may precede the context, :mod:`distaff.analysis.context.conflicts`);
* where each routine's threads are created, with which argument
  expression, and whether the creation may repeat (a ``pthread_create`` in a
  loop): :mod:`distaff.analysis.context.initial` turns this into the instances'
  parameters, different in each instance when the creation loop's induction
  variable says so (the paper's "unique id parameter" case).
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis import ir
from distaff.analysis.ir import Call, Intrinsic
from distaff.analysis.static.cfg import build as build_cfg
from distaff.analysis.static.facts import Facts
from distaff.analysis.static.fixpoint import components


@dataclass(frozen=True, slots=True)
class ThreadStart:
    """Where one context thread starts: ``frames`` from the outermost (the
    routine's, when the stack is known) to the innermost, each ``(function,
    pc)``; an outer frame's pc is its call site. ``routine`` is the start
    routine ('' when none reaches the function). ``given``: from a position;
    else a routine started at its entry."""

    routine: str
    frames: tuple[tuple[str, int], ...]
    given: bool = True

    @property
    def func(self) -> str:
        return self.frames[-1][0]

    @property
    def pc(self) -> int:
        return self.frames[-1][1]

    @property
    def full_stack(self) -> bool:
        """The outermost frame is the routine's: the thread ends when it returns."""
        return self.frames[0][0] == self.routine


@dataclass(frozen=True, slots=True)
class CreateSite:
    """A ``pthread_create`` that may start ``routine``: in ``func`` at ``pc``,
    passing ``arg`` (an IR expression of the creator); ``in_loop`` when it may
    run more than once."""

    func: str
    pc: int
    routine: str
    arg: ir.Expr | None
    in_loop: bool


def routines_reaching(program: ir.Program, facts: Facts, func: str) -> list[str]:
    """Thread routines (main included) from which ``func`` is reached by calls."""
    out = []
    for r in program.thread_routines():
        if func in facts.calls.reachable(r):
            out.append(r)
    return out


def call_chain(program: ir.Program, facts: Facts, func: str, routines: set[str]) -> tuple[tuple[str, int], ...]:
    """The unique chain of call sites from a routine down to ``func``
    (outermost first, ending before ``func``), or () when ``func`` is a
    routine itself or the chain is not unique."""
    chain: list[tuple[str, int]] = []
    seen = {func}
    f = func
    while f not in routines:
        sites = facts.calls.call_sites_of(f)
        if len(sites) != 1:
            return ()
        g, pc = sites[0]
        if g in seen:
            return ()
        seen.add(g)
        chain.append((g, pc))
        f = g
    return tuple(reversed(chain))


def thread_starts(program: ir.Program, facts: Facts, positions: list[tuple[str, int]]) -> list[ThreadStart]:
    """The given threads (one per ``(function, pc)``, in order) followed by
    the routines that start at their entry."""
    routines = set(program.thread_routines())
    given = []
    for func, pc in positions:
        reach = routines_reaching(program, facts, func)
        chain = call_chain(program, facts, func, routines)
        if func in routines:
            routine = func
        elif chain:
            routine = chain[0][0]
        else:
            routine = reach[0] if len(reach) == 1 else ""
        given.append(ThreadStart(routine, chain + ((func, pc),), True))
    others = [ThreadStart(r, ((r, 0),), False) for r in parallel_routines(program, facts, given)]
    return given + others


def parallel_routines(program: ir.Program, facts: Facts, given: list[ThreadStart]) -> list[str]:
    """Routines (not main) that start at their entry: those from which no
    given thread's function is reached, and, when ``main`` is given at a
    statement, only those created on some path before that statement and
    not joined on every path to it."""
    funcs = {f for t in given for f, _ in t.frames}
    main_at = [t.pc for t in given if t.frames[0][0] == program.entry]
    out = []
    for r in program.thread_routines():
        if r == program.entry or facts.calls.reachable(r) & funcs:
            continue
        if main_at and not any(_created_before(program, facts, r, pc) and not joined_before(program, facts, r, pc)
                               for pc in main_at):
            continue
        out.append(r)
    return out


def joined_before(program: ir.Program, facts: Facts, routine: str, pc: int) -> bool:
    """Has every thread of ``routine`` that ``main`` may have started before
    its ``pc`` been joined on every path to ``pc``? Only the plain shape is
    recognised: each creation in ``main`` itself, off its cycles, with no
    attributes, into a local handle whose address serves nothing but that
    creation and loads, each load feeding the join right after it."""
    main = program.function(program.entry)
    sites = facts.calls.create_sites_of(routine)
    if not sites or any(f != program.entry for f, _ in sites):
        return False
    cyclic = cyclic_pcs(main)
    for _, c in sites:
        handle = main.body[c].args[0]
        attr = main.body[c].args[1]
        if c in cyclic or type(handle) is not ir.Addr or handle.kind is not ir.ObjKind.STACK or \
                not (type(attr) is ir.Const and attr.value == 0):  # attributes may make it detached
            return False
        joins = _joins_of(program, main, c, handle)
        if joins is None:
            return False
        # the pcs a path from the creation reaches before any join of the handle
        seen, todo = set(), list(main.successors(c))
        while todo:
            x = todo.pop()
            if x not in seen and x < len(main.body):
                seen.add(x)
                if x not in joins:
                    todo.extend(main.successors(x))
        if pc in seen:
            return False
    return True


def _joins_of(program: ir.Program, main: ir.Function, create: int, handle: ir.Addr) -> set[int] | None:
    """The pcs of ``main`` that join the thread created at ``create`` through
    the local ``handle``; None when the handle serves anything else than
    that creation and joins (a store, a call, another creation, a detach)."""
    joins: set[int] = set()
    pred = build_cfg(main).pred
    for pc, i in enumerate(main.body):
        uses = [x for e in ir.expressions_of(i) for x in ir.nodes(e) if x == handle]
        if not uses:
            continue
        if len(uses) > 1:
            return None
        if pc == create:
            continue
        if not (isinstance(i, ir.Load) and i.addr == handle):
            return None
        nxt = main.body[pc + 1] if pc + 1 < len(main.body) else None
        if not (isinstance(nxt, Intrinsic) and nxt.op is ir.Op.THREAD_JOIN and nxt.args[0] == i.dst and
                list(pred[pc + 1]) == [pc]):
            return None  # the handle serves something else (a detach would make a join return at once)
        joins.add(pc + 1)
    return joins


def _created_before(program: ir.Program, facts: Facts, routine: str, pc: int) -> bool:
    """Whether some creation of ``routine`` may run in ``main`` before ``pc``
    (directly, or inside a call ``main`` makes before it)."""
    main = program.function(program.entry)
    sites = set()
    for site_func, site_pc in facts.calls.create_sites_of(routine):
        if site_func == program.entry:
            sites.add(site_pc)
        else:
            for k, i in enumerate(main.body):
                if isinstance(i, Call) and site_func in _callees_closure(facts, program.entry, k):
                    sites.add(k)
    if not sites:
        return False
    succ = build_cfg(main).succ
    seen, todo = set(), list(sites)
    while todo:
        x = todo.pop()
        for s in succ[x] if x < len(main.body) else ():
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return pc in seen


def _callees_closure(facts: Facts, func: str, pc: int) -> set[str]:
    out: set[str] = set()
    for g in facts.calls.callees_at(func, pc):
        out |= facts.calls.reachable(g)
    return out


def create_sites(program: ir.Program, facts: Facts, routine: str) -> list[CreateSite]:
    """Every ``pthread_create`` that may start ``routine``."""
    out = []
    loops = {}
    for func, pc in facts.calls.create_sites_of(routine):
        f = program.function(func)
        i = f.body[pc]
        if func not in loops:
            loops[func] = cyclic_pcs(f)
        arg = i.args[3] if isinstance(i, Intrinsic) and len(i.args) > 3 else None
        called_once = func == program.entry or len(facts.calls.call_sites_of(func)) == 1
        out.append(CreateSite(func, pc, routine, arg, pc in loops[func] or not called_once))
    return out


def cyclic_pcs(f: ir.Function) -> frozenset[int]:
    """The pcs of ``f`` that lie on a cycle of its control-flow graph."""
    succ = [tuple(f.successors(pc)) for pc in range(len(f.body))]
    out: set[int] = set()
    for comp in components(range(len(f.body)), lambda pc: succ[pc]):
        if len(comp) > 1 or comp[0] in succ[comp[0]]:
            out.update(comp)
    return frozenset(out)


