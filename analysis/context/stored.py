"""The values a shared global can hold: the one it had when threads started, or a constant a later store writes.

A context does not know the value of a global that another thread may write
before it (:mod:`.conflicts`). Often, though, every write that can run once
threads exist stores a constant (``flag = 1``, ``turn = 0``, ``g = l`` with
``l`` a local known to be 0). Then at every moment of every run the global
holds either the value it had when the first thread was created or one of
those constants, whatever the interleaving, and the context can say so (a
flow-insensitive invariant of the concurrent part, so no run is lost).

:func:`stores` finds the globals this can be said of by syntax alone, without
points-to: a scalar integer global qualifies when its address appears
nowhere but as the address of a load or of a store of its own size (so no
pointer, library call, ``memset`` or handle write can reach it); it gives
each store's value when that is a constant, given the registers its function
must hold there (:func:`must_constants`, intraprocedural: parameters, loads
and calls give unknown values). :func:`held_values` combines them with the
walk of ``main`` (:mod:`.reaching`): the value at the first creation is the
must-reaching term at every creation ``main``'s walk saw (when it saw every
creation ``main`` can reach), else the initial value or any constant a store
before concurrency writes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from distaff.analysis import ir
from distaff.analysis.context.terms import Sym, canonical_value, fold, leaves, substitute
from distaff.analysis.context.conflicts import preceding
from distaff.analysis.context.threads import create_sites, cyclic_pcs
from distaff.analysis.ir import Addr, Assign, Binary, Const, Intrinsic, IntType, Load, ObjKind, Op, Reg, Store, type_size
from distaff.analysis.liveness import defined

MAX_VALUES = 16  # more distinct values than this: the global stays unknown


@dataclass(frozen=True)
class Loaded:
    """A register's value: global ``name`` as some load read it, plus ``k``
    (C's signed arithmetic of the global's type)."""

    name: str
    k: int


@dataclass(frozen=True)
class Stores:
    """A qualifying global: its static initial value and, per store site
    ``(function, pc)``, what it writes: a constant, ``Loaded(name, k)`` (the
    global itself moved by ``k``), or None (anything else)."""

    init: int
    sites: dict


@dataclass(frozen=True)
class Held:
    """What a global holds at every moment after the first creation: one of
    ``terms`` (over ``main``'s symbols), when ``moved`` plus a sum ``d`` of
    moves with ``low <= d <= high`` (None: no such bound) and ``d`` a
    multiple of ``step`` (0: any)."""

    terms: tuple = ()
    moved: bool = False
    low: int | None = None
    high: int | None = None
    step: int = 0


def stores(program: ir.Program) -> dict[str, Stores]:
    """The globals whose every write is a direct store (see the module docstring)."""
    init: dict[str, int] = {}
    for g in program.globals:
        if isinstance(g.type, IntType) and not g.is_string and not g.thread_local:
            v = 0
            for iv in g.init:
                ok = iv.offset == 0 and type_size(iv.type) == type_size(g.type) and isinstance(iv.value, Const)
                v = canonical_value(iv.value.value, g.type) if ok and v is not None else None
            if v is not None:
                init[g.name] = v
    for g in program.globals:  # an address in a static initialiser escapes
        for iv in g.init:
            for x in ir.nodes(iv.value):
                if type(x) is Addr:
                    init.pop(x.name, None)
    sites: dict[str, dict] = {name: {} for name in init}
    for f in program.functions:
        known = None
        for pc, i in enumerate(f.body):
            direct = i.addr if isinstance(i, (Load, Store)) else None
            for e in ir.expressions_of(i):
                for x in ir.nodes(e):
                    if type(x) is Addr and x.kind is ObjKind.GLOBAL and x is not direct:
                        sites.pop(x.name, None)
            if not isinstance(i, Store) or type(i.addr) is not Addr or i.addr.name not in sites:
                continue
            g = program.global_var(i.addr.name)
            if type_size(i.type) != type_size(g.type):
                sites.pop(g.name)
                continue
            if known is None:
                known = must_values(f, program)
            v = _value(i.value, known[pc] or {})
            if isinstance(v, int):
                v = canonical_value(v, g.type)
            elif isinstance(v, Loaded) and (v.name != g.name or i.value.type != g.type or not g.type.signed):
                v = None
            sites[g.name][(f.name, pc)] = v
    return {name: Stores(init[name], at) for name, at in sites.items()}


def held_values(program: ir.Program, facts, walker, positions=()) -> dict[str, Held]:
    """Global name -> what it holds at every moment after the first thread
    creation (:class:`Held`), for the globals :func:`stores` accepts whose
    later stores all write constants (at most :data:`MAX_VALUES` values in
    all, with the value at the creations) or move the global by constants:
    moves of one sign bound how far it gets from those values on one side;
    when each move runs a known number of times (:func:`_runs`), the sum of
    the moves of each sign bounds it on both sides; moves sharing a factor
    keep its residue. A bound or step assumes
    no signed overflow of the global, which would need about 2^(bits-1)
    such stores and is an error of its own.

    ``positions``: ``(routine, pc)`` of the context's threads whose outermost
    frame is their routine's (``main`` included), the pc there. A store such a
    thread has not reached yet has not run in it: what is held is then what
    holds up to the context (every value a load before it read, too), with
    the stores no thread can have run left out (:func:`_runs_before`)."""
    late_funcs, late_main = walker.concurrent_funcs, walker.concurrent_main
    entry = program.entry

    def late(func: str, pc: int) -> bool:
        return func in late_funcs or (func == entry and pc in late_main)

    firsts = _first_creations(program, facts)
    created = walker.observed.creates
    envs = [created.get((entry, pc)) for pc in firsts] if firsts else None
    main = program.function(entry)
    once = settled_origins(program)
    out: dict[str, Held] = {}
    runs = _runs_before(program, facts, positions)
    for name, st in stores(program).items():
        g = program.global_var(name)
        st = Stores(st.init, {at: v for at, v in st.sites.items() if runs(*at) != 0})
        after = {at: v for at, v in st.sites.items() if late(*at)}
        terms = _at_creations(name, g.type, st.init, envs, once) if envs and None not in envs else None
        if terms is None:  # then every store counts, and the initial value unless main overwrites it first
            after = dict(st.sites)
            # a move before the creation keeps the initial value's trace in it
            mine = {pc for (func, pc), v in st.sites.items() if func == entry and isinstance(v, int)}
            terms = {Const(st.init, g.type)} if _reaches_creation(main, firsts, mine) else set()
        if None in after.values():
            continue
        terms |= {Const(v, g.type) for v in after.values() if isinstance(v, int)}
        if not terms or len(terms) > MAX_VALUES:
            continue
        terms = tuple(sorted(terms, key=repr))
        moves = [(v.k, runs(*at)) for at, v in after.items() if isinstance(v, Loaded)]
        if not moves:
            out[name] = Held(terms)
            continue
        # a move writes what some earlier moment held plus its constant, so
        # every value is a base value plus the constants of some of the moves'
        # runs, each at most once (a lost update drops some)
        known = all(n is not None for _, n in moves)
        low = sum(k * n for k, n in moves if k < 0) if known else None
        high = sum(k * n for k, n in moves if k > 0) if known else None
        if all(k >= 0 for k, _ in moves):
            low = 0
        if all(k <= 0 for k, _ in moves):
            high = 0
        limit = 1 << g.type.bits  # beyond it a bound says nothing a value of the type could break
        low = low if low is not None and low > -limit else None
        high = high if high is not None and high < limit else None
        step = math.gcd(*(k for k, _ in moves))
        step = step if 1 < step < limit else 0
        if low is not None or high is not None or step:
            out[name] = Held(terms, True, low, high, step)
    return out


def _runs_before(program: ir.Program, facts, positions):
    """``runs(func, pc)``: how many times the instruction can have run before
    the context (None: any number). :func:`_runs`, less one for each context
    thread of the routine whose position the instruction cannot precede;
    ``main`` at its position has run nothing that cannot precede it."""
    before: dict[tuple[str, int], bool] = {}

    def reached(routine: str, at: int, pc: int) -> bool:
        key = (routine, at)
        if key not in before:
            before[key] = preceding(program.function(routine), at)
        return pc in before[key]

    entry = program.entry
    called_main = bool(facts.calls.call_sites_of(entry))

    def runs(func: str, pc: int) -> int | None:
        if func == entry and not called_main and any(r == entry and not reached(r, at, pc) for r, at in positions):
            return 0
        n = _runs(program, facts, func, pc)
        if n is None:
            return None
        return max(0, n - sum(1 for r, at in positions if r == func and not reached(r, at, pc)))
    return runs


def _runs(program: ir.Program, facts, func: str, pc: int) -> int | None:
    """How many times the instruction at ``pc`` of ``func`` can run in one
    run of the program, when the shape makes that plain: off ``func``'s
    cycles, ``func`` being ``main`` or a thread routine no one calls whose
    every creation is one in ``main`` off its cycles (one run per creation);
    None otherwise."""
    f = program.function(func)
    if pc in cyclic_pcs(f) or facts.calls.call_sites_of(func):
        return None
    if func == program.entry:
        return 1
    if func not in program.thread_routines():
        return None
    sites = create_sites(program, facts, func)
    if not sites or any(c.in_loop or c.func != program.entry for c in sites):
        return None
    return len(sites)


def _at_creations(name: str, ctype, init: int, envs, once: frozenset) -> set | None:
    """The global's must-reaching term at each creation's fact, or None when
    some fact does not know it or its term is not :func:`settled`."""
    out = set()
    n = type_size(ctype)
    for env in envs:
        t = env.cells.get((("g", name), 0, n))
        if t is None and ("g", name) in env.clean and not any(k[0] == ("g", name) for k in env.cells):
            t = Const(init, ctype)
        if t is None or not settled(t, once):
            return None
        out.add(t)
    return out


def _first_creations(program: ir.Program, facts) -> set[int] | None:
    """The pcs of ``main``'s creations that some path reaches before any
    other creation (None when a function ``main`` calls creates threads)."""
    entry = program.entry
    main = program.function(entry)
    if main is None:
        return None
    for g in facts.calls.reachable(entry):
        f = program.function(g)
        if g != entry and f is not None and any(_creates(i) for i in f.body):
            return None
    return _stops(main, lambda pc: _creates(main.body[pc]))


def _reaches_creation(main: ir.Function | None, firsts: set[int] | None, avoiding: set[int]) -> bool:
    """Whether some path from ``main``'s entry reaches one of its first
    creations without passing a pc of ``avoiding`` (True when not known)."""
    if main is None or firsts is None:
        return True
    return bool(_stops(main, lambda pc: pc in firsts or pc in avoiding) & firsts)


def _stops(f: ir.Function, stop) -> set[int]:
    """The pcs ``stop`` holds at that a path from ``f``'s entry reaches
    without passing another such pc."""
    found, seen, todo = set(), {0}, [0]
    while todo:
        pc = todo.pop()
        if stop(pc):
            found.add(pc)
            continue
        for s in f.successors(pc):
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return found


def _creates(i) -> bool:
    return isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE


def settled_origins(program: ir.Program) -> frozenset:
    """Origins of the symbols ``main`` makes once: its own pcs off its cycles."""
    main = program.function(program.entry)
    if main is None:
        return frozenset()
    cyclic = cyclic_pcs(main)
    return frozenset((main.name, pc) for pc in range(len(main.body)) if pc not in cyclic)


def settled(t, once: frozenset) -> bool:
    """Whether term ``t`` means the same at every later moment: its leaves
    are constants and symbols made once (origins in ``once``), so no later
    visit of a join point can stand for a newer value."""
    return all(isinstance(x, Const) or (isinstance(x, Sym) and not x.per_thread and x.origin in once)
               for x in leaves(t))


def must_values(f: ir.Function, program: ir.Program) -> list[dict | None]:
    """For each pc of ``f``, the registers that hold the same constant, or the
    same :class:`Loaded` value, on every path from the entry to it (None: no
    path reaches the pc)."""
    n = len(f.body)
    at: list[dict | None] = [None] * n
    if not n:
        return at
    at[0] = {}
    todo = [0]
    while todo:
        pc = todo.pop()
        i = f.body[pc]
        out = dict(at[pc])
        d = defined(i)
        v = None
        if isinstance(i, Assign) and isinstance(i.dst.type, IntType):
            v = _value(i.expr, out)
            if isinstance(v, int):
                v = canonical_value(v, i.dst.type)
            elif isinstance(v, Loaded) and i.expr.type != i.dst.type:
                v = None
        elif isinstance(i, Load) and type(i.addr) is Addr and i.addr.kind is ObjKind.GLOBAL:
            g = program.global_var(i.addr.name)
            if g is not None and i.type == g.type == i.dst.type:
                v = Loaded(g.name, 0)
        if d is not None:
            out.pop(d, None)
            if v is not None:
                out[d] = v
        for s in f.successors(pc):
            have = at[s]
            if have is None:
                at[s] = dict(out)
                todo.append(s)
                continue
            meet = {k: v for k, v in have.items() if out.get(k) == v}
            if len(meet) != len(have):
                at[s] = meet
                todo.append(s)
    return at


def _value(e, known: dict):
    """``e``'s value given ``known``: a constant, a :class:`Loaded`, or None."""
    if type(e) is Reg:
        return known.get(e.name)
    if type(e) is Binary and e.op in ("+", "-") and isinstance(e.type, IntType) and e.type.signed:
        a, b = _value(e.left, known), _value(e.right, known)
        if isinstance(a, Loaded) and isinstance(b, int) and e.left.type == e.type == e.right.type:
            return Loaded(a.name, a.k + b if e.op == "+" else a.k - b)
        if e.op == "+" and isinstance(b, Loaded) and isinstance(a, int) and e.left.type == e.type == e.right.type:
            return Loaded(b.name, b.k + a)
    return _constant(e, known)


def _constant(e, known: dict) -> int | None:
    def sub(x):
        if type(x) is Reg:
            v = known.get(x.name)
            return Const(v, x.type) if isinstance(v, int) else None
        return None
    t = fold(substitute(e, sub))
    return t.value if isinstance(t, Const) and isinstance(t.type, IntType) else None

