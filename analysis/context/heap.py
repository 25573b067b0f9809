"""The symbolic heap of a context run (arbitrary-context paper §3.2).

Values the initial state leaves unknown may be pointers whose object is a
symbol: the engine cannot say which object they designate. When such a
pointer is dereferenced, :meth:`SymbolicHeap.resolve_object` decides it,
restricted by the points-to analysis of the instruction's address operand:

* it may designate an object the initial state has -- a global, a stack
  object of a frame, a materialised heap block -- each one a fork whose
  condition also fixes the offset to one where an object of the accessed
  type lies inside it (field-sensitive, from the object's declared type);
* or, when points-to allows objects the state does not have (heap blocks
  allocated before the context more than once, stack objects of frames not
  in the state), an object the initial state never named: its *primary
  object*, created lazily on first access. The pointer's object id is then
  at least :data:`PRIMARY_BASE` (above any object the run creates), so it
  can never equal a pointer to an object of the state.

Primary objects alias each other conditionally instead of forking (§3.2):
two pointers whose object ids are the terms ``x`` and ``y`` designate the
same object exactly when ``x == y``. A primary's initial contents are
``ite(x == y1, contents(y1), ite(x == y2, ..., fresh))`` over the existing
primaries ``yi`` that points-to lets it alias (Equation 1); a store
through ``x`` writes its primary and, conditionally on ``x == yi``, every
such ``yi`` (:meth:`after_store`). Loads read the primary only. A pointer
read from a primary is a term like any other: dereferencing it makes one
more primary, aliased conditionally with the others, which plays the role
of the paper's guarded expressions.

Function pointers with a symbolic object are resolved by points-to first
(the candidate functions), then the solver (a fork per feasible one).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import z3

from distaff.analysis import ir
from distaff.analysis.context.invariants import choose, replay_skipped
from distaff.analysis.ir import ArrayType, Intrinsic, IntType, Load, PtrType, Store, StructType, type_size
from distaff.analysis.static.pointsto import ObjectKind
from distaff.analysis.symex.memory import ensure_array
from distaff.analysis.symex.pivots import Option

OFFSET_BOUND = 1 << 20  # a primary object's offsets stay below this (no spurious out-of-bounds)
MAX_OFFSETS = 16


@dataclass(frozen=True, slots=True, eq=False)
class Resolution:
    """One way a symbolic pointer resolves: to ``oid`` (``kind`` "object") or
    to the primary object of ``term`` ("primary"), at ``offset`` (None: the
    pointer's own offset)."""

    term: object
    kind: str
    oid: int | None
    offset: int | None


@dataclass(frozen=True, slots=True)
class Primary:
    """A primary object: its object-id term, the object's id in memory, and
    the points-to objects (indices) it may stand for."""

    term: object
    oid: int
    objects: frozenset


def primary_base(L) -> int:
    return 1 << (L.id_bits - 1)


class SymbolicHeap:
    """Resolution of symbolic pointers for one context run (see the module
    docstring). ``objects``: points-to object index -> the ids of the
    state's objects standing for it (globals, frames' stack objects,
    materialised blocks); ``complete``: indices of objects all of whose
    instances the state has (no primary needed for them)."""

    def __init__(self, program: ir.Program, facts, objects: dict, complete: frozenset):
        self.program = program
        self.pts = facts.points_to
        self.objects = objects
        self.complete = complete
        self._site_of_span = {}
        for f in program.functions:
            for pc, i in enumerate(f.body):
                if isinstance(i, Intrinsic) and i.op in (ir.Op.MALLOC, ir.Op.CALLOC, ir.Op.ALLOCA):
                    self._site_of_span[i.span] = (f.name, pc)
        self._index = {}
        for k, o in enumerate(self.pts.objects):
            if o.kind in (ObjectKind.HEAP, ObjectKind.ALLOCA):
                self._index[("h", o.func, o.pc)] = k
            elif o.kind is ObjectKind.STACK:
                self._index[("s", o.func, o.name)] = k

    # ------------------------------------------------------------------

    def _instruction(self, st):
        t = st.threads[st.current] if st.current is not None else None
        if t is None or not t.frames:
            return None, None
        f = t.frames[-1]
        if f.pc >= len(f.func.body):
            return f.func.name, None
        return f.func.name, f.pc

    def _targets(self, func, pc) -> frozenset | None:
        """Points-to objects the current instruction's address operands may
        denote; None when unknown (no information, or UNKNOWN memory)."""
        if func is None or pc is None:
            return None
        out = set()
        for locs in self.pts.operand_ids(func, pc):
            if not locs:
                return None
            for o, _ in locs:
                if self.pts.objects[o].kind is ObjectKind.UNKNOWN:
                    return None
                out.add(o)
        return frozenset(out) if out else None

    def _exact_offsets(self, func, pc) -> dict:
        """Points-to object index -> the exact offsets the instruction's address
        operands may denote in it (field-sensitive points-to), or None when
        some offset is unknown."""
        out: dict = {}
        if func is None or pc is None:
            return out
        for locs in self.pts.operand_ids(func, pc):
            for o, k in locs:
                if k is None or out.get(o, ()) is None:
                    out[o] = None
                else:
                    out.setdefault(o, set()).add(k)
        return out

    def _access_type(self, func, pc):
        if func is None or pc is None:
            return None
        i = self.program.function(func).body[pc]
        if isinstance(i, (Load, Store)):
            return i.type
        if isinstance(i, Intrinsic) and i.args:
            t = i.args[0].type
            if isinstance(t, PtrType) and not isinstance(t.pointee, ir.VoidType):
                return t.pointee
        return None

    def _run_objects(self, st, index: int) -> list[int]:
        """Objects the run created that stand for points-to object ``index``
        (stack objects of frames pushed since the context, heap blocks)."""
        o = self.pts.objects[index]
        out = []
        if o.kind is ObjectKind.STACK:
            for t in st.threads:
                for fr in t.frames:
                    if fr.func.name == o.func and o.name in fr.stack_objs:
                        out.append(fr.stack_objs[o.name])
        elif o.kind in (ObjectKind.HEAP, ObjectKind.ALLOCA):
            for oid, mo in st.memory.objs.items():
                if mo.kind in ("heap", "alloca") and self._site_of_span.get(mo.span) == (o.func, o.pc):
                    out.append(oid)
        return out

    # ------------------------------------------------------------------

    def resolve_object(self, E, st, ptr, oid_term):
        """``(object id, offset or None)`` of a pointer whose object id is the
        symbolic ``oid_term``, forking over the candidates (see the module
        docstring). The offset is concrete when the object's type leaves few
        places for the accessed type; None leaves it to the engine."""
        V, L = E.values, E.layout
        off = V.simplified(L.off(ptr, V))
        known = _resolved(st, oid_term)
        if known is not None and isinstance(off, int):
            replay_skipped(st, lambda p: isinstance(p, Resolution) and p.term.eq(oid_term))
            return known[0], None
        func, pc = self._instruction(st)
        targets = self._targets(func, pc)
        ctype = self._access_type(func, pc)
        exact = self._exact_offsets(func, pc)
        cands: list[int] = []
        cand_offsets: dict[int, list | None] = {}
        primary_ok = targets is None
        primary_offsets: set | None = set()
        if targets is None:
            cands = [oid for oid in E.global_oids.values() if not st.memory.objs[oid].readonly]
        else:
            for k in sorted(targets):
                offs = exact.get(k)
                for oid in list(self.objects.get(k, ())) + self._run_objects(st, k):
                    cands.append(oid)
                    cand_offsets[oid] = sorted(offs) if offs is not None else None
                if k not in self.complete and self.pts.objects[k].kind in (
                        ObjectKind.HEAP, ObjectKind.ALLOCA, ObjectKind.STACK):
                    primary_ok = True
                    if offs is None or primary_offsets is None:
                        primary_offsets = None
                    else:
                        primary_offsets |= offs
        if known is not None:
            cands, primary_ok = ([known[0]], False) if known[1] is not None else ([], True)
        seen = set()
        cands = [c for c in cands if not (c in seen or seen.add(c)) and c in st.memory.objs]
        existing = [p for p in _primaries(st) if targets is None or p.objects is None or p.objects & targets]

        def options():
            opts = []
            for oid in cands:
                mo = st.memory.objs[oid]
                cond = V.eq(oid_term, oid, L.id_bits)
                if cond is False:
                    continue
                offs = None
                if not isinstance(off, int):
                    offs = cand_offsets.get(oid)
                    if offs is None:
                        offs = field_offsets(mo.ctype, ctype)
                if offs is not None and len(offs) <= MAX_OFFSETS:
                    for k in offs:
                        opts.append(Option(V.and_(cond, V.eq(off, k, L.bits)), Resolution(oid_term, "object", oid, k)))
                else:
                    opts.append(Option(cond, Resolution(oid_term, "object", oid, None)))
            if primary_ok:
                base = primary_base(L)
                is_primary = V.le(base, oid_term, L.id_bits, False)
                if primary_offsets and not isinstance(off, int) and len(primary_offsets) <= MAX_OFFSETS:
                    for k in sorted(primary_offsets):
                        opts.append(Option(V.and_(is_primary, V.eq(off, k, L.bits)),
                                           Resolution(oid_term, "primary", None, k)))
                else:
                    cond = V.and_(is_primary, V.lt(off, OFFSET_BOUND, L.bits, False))
                    opts.append(Option(cond, Resolution(oid_term, "primary", None, None)))
            return opts

        opt = choose(E, st, options)
        res = opt.payload
        kind, oid, k = res.kind, res.oid, res.offset
        if kind == "primary":
            oid = self.primary(E, st, oid_term, targets, existing)
        ctx = st.ctx
        if _resolved(st, oid_term) is None:
            st.ctx = replace(ctx, resolved=ctx.resolved + ((oid_term, oid, kind == "object"),))
        return oid, k

    def primary(self, E, st, term, targets, aliases) -> int:
        """The primary object of ``term``, created on first use."""
        for p in _primaries(st):
            if p.term.eq(term):
                return p.oid
        V, L = E.values, E.layout
        oid = E.allocate(st, f"*{_short(term)}", "primary", (1 << L.off_bits) - 1, None, E.span, zeroed=False)
        obj = st.memory.writable(oid)
        contents = V.fresh_array(f"primary{oid}[]", L.bits)
        for p in reversed(aliases):  # Equation 1: conditionally the alias's current contents
            other = st.memory.objs[p.oid]
            arr = other.array if other.array is not None else _as_array(st, p.oid, E)
            same = V.lift_cond(V.eq(term, p.term, L.id_bits))
            contents = z3.If(same, arr, contents)
        obj.array = contents
        obj.cells = {}
        ctx = st.ctx
        st.ctx = replace(ctx, primaries=ctx.primaries + (Primary(term, oid, targets),))
        return oid

    def after_store(self, E, st, oid: int, off, n: int, value) -> None:
        """A store of ``n`` bytes at ``off`` of object ``oid`` is done: when
        ``oid`` is a primary, write its aliases conditionally."""
        mine = None
        for p in _primaries(st):
            if p.oid == oid:
                mine = p
                break
        if mine is None:
            return
        V, L = E.values, E.layout
        for p in _primaries(st):
            if p is mine or (mine.objects is not None and p.objects is not None and not (mine.objects & p.objects)):
                continue
            same = V.eq(mine.term, p.term, L.id_bits)
            if same is False:
                continue
            old = st.memory.load(p.oid, off, n, V, L, E.fresh_mem(st, st.current or 0))
            st.memory.store(p.oid, off, n, V.ite(same, value, old, 8 * n), V, L)

    def sync_address(self, E, st, oid: int, off, what: str) -> int:
        """The concrete address naming a synchronization object at offset
        ``off`` of object ``oid`` (resolved from a symbolic pointer). A
        primary object's lock is named by the first primary it aliases:
        a fork over which earlier primary (if any) it is, so that one lock
        has one name in ``State.locks`` and the wait queue."""
        V, L = E.values, E.layout
        if not isinstance(off, int):
            off = E.concretize(st, off, L.bits, what)
        prims = _primaries(st)
        mine = next((p for p in prims if p.oid == oid), None)
        if mine is None:
            return L.make(oid, off)
        earlier = [p for p in prims if p.oid < oid and (
            mine.objects is None or p.objects is None or p.objects & mine.objects)]

        def options():
            opts, before = [], True
            for p in earlier:
                same = V.eq(mine.term, p.term, L.id_bits)
                opts.append(Option(V.and_(before, same), p.oid))
                before = V.and_(before, V.not_(same))
            opts.append(Option(before, oid))
            return opts

        name = choose(E, st, options, exhaustive=True).payload if earlier else oid
        return L.make(name, off)

    def resolve_function(self, E, st, fp, oid_term) -> int:
        """The object id of the function a symbolic function pointer calls:
        the callees points-to allows, then the solver (a fork per feasible one)."""
        V, L = E.values, E.layout
        func, pc = self._instruction(st)
        names = ()
        if func is not None and pc is not None:
            i = self.program.function(func).body[pc]
            if isinstance(i, ir.Call):
                names = self.pts.callees.get((func, pc), ())
            elif isinstance(i, Intrinsic) and i.op is ir.Op.THREAD_CREATE:
                names = self.pts.routines.get((func, pc), ())
        oids = [E.func_oids[n] for n in names if n in E.func_oids]
        if not oids:
            return E.concretize(st, oid_term, L.id_bits, "a function pointer")
        opts = [Option(V.eq(oid_term, o, L.id_bits), o) for o in oids]
        return choose(E, st, lambda: opts).payload


def _resolved(st, term):
    """``(object id, is an object of the state)`` a term was resolved to on this path."""
    ctx = getattr(st, "ctx", None)
    if ctx is None:
        return None
    for t, oid, real in ctx.resolved:
        if t.eq(term):
            return oid, (True if real else None)
    return None


def _primaries(st) -> tuple:
    ctx = getattr(st, "ctx", None)
    return ctx.primaries if ctx is not None else ()


def _as_array(st, oid: int, E):
    obj = st.memory.writable(oid)
    return ensure_array(obj, E.values, E.layout)


def _short(term) -> str:
    s = str(term)
    return s if len(s) <= 24 else s[:21] + "..."


def field_offsets(container, want) -> list[int] | None:
    """Offsets in an object of type ``container`` where an object of type
    ``want`` lies (its fields, array elements, and itself), or None when the
    types do not say (unknown container or accessed type, byte access)."""
    if container is None or want is None:
        return None
    if isinstance(want, IntType) and want.bits == 8:
        return None
    out: list[int] = []

    def walk(t, base: int) -> None:
        if len(out) > MAX_OFFSETS:
            return
        if _same(t, want):
            out.append(base)
        if isinstance(t, ArrayType) and t.length:
            es = type_size(t.elem)
            for k in range(t.length):
                walk(t.elem, base + k * es)
        elif isinstance(t, StructType):
            for f in t.fields:
                walk(f.type, base + f.offset)

    walk(container, 0)
    if len(out) > MAX_OFFSETS:
        return None
    return sorted(set(out))


def _same(a, b) -> bool:
    if a == b:
        return True
    if isinstance(a, PtrType) and isinstance(b, PtrType):
        return True
    if isinstance(a, IntType) and isinstance(b, IntType):
        return a.bits == b.bits
    if isinstance(a, StructType) and isinstance(b, StructType):
        return a.name == b.name and a.size == b.size
    return False
