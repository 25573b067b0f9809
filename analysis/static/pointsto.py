"""Andersen-style points-to analysis over the IR.

Flow- and context-insensitive, field-sensitive where it is cheap. The abstract
objects (:class:`MemObject`) are the globals, string literals, stack objects
(one per function and name: every activation of the function shares it), heap
blocks named by their allocation site (MALLOC/CALLOC at ``(func, pc)``),
ALLOCA sites, functions, and :data:`UNKNOWN`: memory no part of the program
names (pointers made from integers, returned by external functions, ``argv``).

A pointer value is a set of :class:`Loc`: an object and a byte offset in it, or
``None`` for "some offset". Registers and memory cells (object, offset) each
hold such a set. Offsets stay exact through constant :class:`~distaff.analysis.ir.PtrAdd`
(struct fields, constant array indices) while they stay inside the object; a
symbolic offset, an offset outside the object, and arithmetic on pointers cast
to integers give ``None``; so do offsets of an object beyond the first
:data:`OFFSET_LIMIT` distinct ones the analysis meets (a pointer stepping
through an array in a loop would otherwise make ever new offsets). A load at an
exact offset reads that cell and the object's any-offset cell; a load at any
offset, or narrower than a pointer, reads every cell of the object.

Sound for the C the front end lowers, with these modelling choices:

* a cast of an integer (other than the constant 0) to a pointer may yield
  UNKNOWN, besides any pointer the integer was made from;
* whatever is passed to an external function (or through an unresolvable
  function pointer) escapes into UNKNOWN's memory, and what such a call
  returns may be UNKNOWN or anything that escaped there; nondet pointers and
  pointer parameters of the entry function are UNKNOWN;
* a thread routine's first parameter receives the ``pthread_create`` argument;
  what thread routines return or pass to ``pthread_exit`` reaches the
  ``pthread_join`` result cells;
* a byte-wise copy (``memcpy``) keeps offsets when both are exact and the size
  is constant, and otherwise spreads the source's cells over the destination.

The solver is the usual worklist with difference propagation; the complex
constraints (loads, stores, indirect calls, thread creation, copies) fire on
the new locations of their address node.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Iterable, NamedTuple

from distaff.analysis import ir
from distaff.analysis.ir import (
    Addr, Assign, Binary, Call, Cast, Const, Expr, Intrinsic, Ite, Load, ObjKind, Op,
    PtrAdd, PtrDiff, PtrType, Reg, Return, Store, Unary,
)
from distaff.analysis.static import access
from distaff.analysis.static.budget import poll

# Distinct exact offsets tracked per object; further ones are "any offset".
OFFSET_LIMIT = 32
# Offsets into objects of unknown size beyond this are treated as "any".
_MAX_OFFSET = 1 << 20


class ObjectKind(enum.Enum):
    GLOBAL = "global"
    STRING = "string"
    STACK = "stack"
    HEAP = "heap"
    ALLOCA = "alloca"
    FUNCTION = "function"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class MemObject:
    """An abstract memory object. ``func`` is set for STACK, HEAP and ALLOCA
    objects; ``pc`` for HEAP and ALLOCA (the allocation site); ``name`` is the
    C name (for HEAP/ALLOCA: the allocating function's C name, e.g. malloc)."""

    kind: ObjectKind
    name: str
    func: str = ""
    pc: int = -1

    def __str__(self) -> str:
        if self.kind in (ObjectKind.HEAP, ObjectKind.ALLOCA):
            return f"{self.name}@{self.func}:{self.pc}"
        if self.kind is ObjectKind.STACK:
            return f"{self.func}.{self.name}"
        return self.name


UNKNOWN = MemObject(ObjectKind.UNKNOWN, "?")


class Loc(NamedTuple):
    """A byte ``offset`` in ``obj``; ``offset`` None is "some offset"."""

    obj: MemObject
    offset: int | None

    def __str__(self) -> str:
        return f"{self.obj}+{'?' if self.offset is None else self.offset}"


_EMPTY: frozenset = frozenset()
_NO_POINTER_BINOPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "&&", "||"})


@dataclass(frozen=True, slots=True, eq=False)
class PointsTo:
    """The solved points-to relation of one program.

    Inside, an object is its index in ``objects`` and a location the pair
    ``(index, offset | None)`` (an *id location*): cheap to hash, compare and
    pickle. The ``*_ids`` methods answer in id locations for the analyses built
    on this one; the other methods answer in :class:`Loc`.

    Each instruction's memory operands (:func:`distaff.analysis.static.access.operands`)
    have a target set, in operand order. An empty set means the address denotes
    no object the analysis knows of (a null pointer, code that is never called):
    clients must treat it as unknown. ``callees[(func, pc)]`` are the functions
    with a body a Call may invoke; ``unknown_calls`` the Call sites that may
    also invoke an external or unknown function. ``routines[(func, pc)]`` are
    the start routines (with a body) a THREAD_CREATE may run.
    """

    objects: tuple[MemObject, ...]
    registers: dict  # (func, reg name) -> frozenset of id locations
    cells: dict  # object index -> {offset | None: frozenset of id locations}
    targets: dict  # (func, pc) -> tuple of frozensets of id locations, one per operand
    callees: dict
    unknown_calls: frozenset
    routines: dict
    thread_args: frozenset  # id locations
    thread_results: frozenset  # id locations
    counters: tuple[tuple[str, int], ...] = ()

    def loc(self, idloc: tuple) -> Loc:
        return Loc(self.objects[idloc[0]], idloc[1])

    def locs(self, idlocs) -> frozenset[Loc]:
        return frozenset(Loc(self.objects[o], k) for o, k in idlocs)

    def reg(self, func: str, name: str) -> frozenset[Loc]:
        return self.locs(self.registers.get((func, name), _EMPTY))

    def cell(self, obj: MemObject, offset: int | None) -> frozenset[Loc]:
        """What the cell at ``offset`` of ``obj`` may hold (for ``None``: what
        was stored at unknown offsets only)."""
        return self.locs(self.cells.get(self.objects.index(obj), {}).get(offset, _EMPTY))

    def contents_ids(self, obj: int) -> set[tuple]:
        """Every id location stored anywhere in object ``obj`` (an index)."""
        out: set = set()
        for s in self.cells.get(obj, {}).values():
            out |= s
        return out

    def contents(self, obj: MemObject) -> frozenset[Loc]:
        return self.locs(self.contents_ids(self.objects.index(obj)))

    def operand_ids(self, func: str, pc: int) -> tuple[frozenset, ...]:
        return self.targets.get((func, pc), ())

    def operand_targets(self, func: str, pc: int) -> tuple[frozenset[Loc], ...]:
        return tuple(self.locs(t) for t in self.targets.get((func, pc), ()))

    def deref(self, func: str, pc: int) -> frozenset[Loc]:
        """Every location any memory operand of the instruction may denote."""
        out: set = set()
        for t in self.targets.get((func, pc), ()):
            out |= t
        return self.locs(out)

    def objects_at(self, func: str, pc: int) -> frozenset[MemObject]:
        return frozenset(loc.obj for loc in self.deref(func, pc))


def points_to(program: ir.Program) -> PointsTo:
    """Solve the points-to relation of ``program``."""
    return _Solver(program).solve()


class _Solver:
    """Nodes are ints: registers, return values, cells, temporaries. Inside the
    solver a location is ``(object index, offset)`` with offset :data:`_ANY`
    for "some offset" (an int, so that sets iterate in the same order on every
    run); a shift on an edge is an int, or None for "to some offset"."""

    def __init__(self, program: ir.Program) -> None:
        self.program = program
        self.ptr_bytes = program.data_model.pointer_bits // 8
        self.objs: list[MemObject] = []
        self.obj_ids: dict[MemObject, int] = {}
        self.sizes: list[int | None] = []
        self.offsets: list[set[int]] = []
        self.pts: list[set] = []
        self.delta: list[set] = []
        self.succ: list[list] = []
        self.edges: set = set()
        self.worklist: list[int] = []
        self.loads: dict[int, list] = {}
        self.stores: dict[int, list[int]] = {}
        self.hooks: dict[int, list[Callable]] = {}
        self.cell_nodes: dict = {}
        self.obj_cells: dict[int, list] = {}
        self.readers: dict[int, list[int]] = {}
        self.reader_set: set = set()
        self.waiting: dict = {}
        self.copiers: dict[int, list] = {}
        self.copy_pairs: set = set()
        self.reg_nodes: dict = {}
        self.ret_nodes: dict = {}
        self.operand_nodes: dict = {}
        self.named: dict = {}
        self.bound: set = set()
        self.callees: dict = {}
        self.unknown_calls: set = set()
        self.routines: dict = {}
        self.funcs = {f.name: f for f in program.functions}
        self.global_vars = {g.name: g for g in program.globals}
        self.stack_types = {
            (f.name, v.name): v.type for f in program.functions for v in f.stack
        }
        self.unknown = self._obj(UNKNOWN, None)
        self.unknown_loc = (self.unknown, _ANY)
        self.unknown_cell = self._cell(self.unknown, _ANY)
        self._add(self.unknown_cell, (self.unknown_loc,))
        self.thread_args = self._new_node()
        self.thread_results = self._new_node()
        self.steps = 0

    # ------------------------------------------------------------ objects

    def _obj(self, obj: MemObject, size: int | None) -> int:
        i = self.obj_ids.get(obj)
        if i is None:
            i = len(self.objs)
            self.objs.append(obj)
            self.obj_ids[obj] = i
            self.sizes.append(size if size else None)
            self.offsets.append(set())
        return i

    def _at(self, o: int, k: int) -> tuple:
        """The location at offset ``k`` of object ``o``: exact while ``k`` lies
        inside the object and the object has few distinct exact offsets."""
        size = self.sizes[o]
        if k < 0 or k >= (size if size is not None else _MAX_OFFSET):
            return (o, _ANY)
        seen = self.offsets[o]
        if k not in seen:
            if len(seen) >= OFFSET_LIMIT:
                return (o, _ANY)
            seen.add(k)
        return (o, k)

    def _named(self, func: str, addr: Addr) -> tuple:
        """The location an :class:`~distaff.analysis.ir.Addr` denotes."""
        key = (func if addr.kind is ObjKind.STACK else "", addr.name, addr.kind)
        loc = self.named.get(key)
        if loc is None:
            loc = self.named[key] = self._locate(func, addr)
        return loc

    def _locate(self, func: str, addr: Addr) -> tuple:
        k = addr.kind
        if k is ObjKind.FUNCTION:
            return (self._obj(MemObject(ObjectKind.FUNCTION, addr.name), None), _ANY)
        if k is ObjKind.STACK:
            t = self.stack_types.get((func, addr.name))
            size = ir.type_size(t) if t is not None else None
            return self._at(self._obj(MemObject(ObjectKind.STACK, addr.name, func), size), 0)
        g = self.global_vars.get(addr.name)
        size = ir.type_size(g.type) if g is not None else None
        string = k is ObjKind.STRING or (g is not None and g.is_string)
        kind = ObjectKind.STRING if string else ObjectKind.GLOBAL
        return self._at(self._obj(MemObject(kind, addr.name), size), 0)

    def _shift(self, loc: tuple, shift: int | None) -> tuple:
        o, k = loc
        if shift == 0 or k == _ANY:
            return loc
        if shift is None:
            return (o, _ANY)
        return self._at(o, k + shift)

    # ------------------------------------------------------------ nodes, edges

    def _new_node(self) -> int:
        self.pts.append(set())
        self.delta.append(set())
        self.succ.append([])
        return len(self.pts) - 1

    def _reg(self, func: str, name: str) -> int:
        key = (func, name)
        n = self.reg_nodes.get(key)
        if n is None:
            n = self.reg_nodes[key] = self._new_node()
        return n

    def _ret(self, func: str) -> int:
        n = self.ret_nodes.get(func)
        if n is None:
            n = self.ret_nodes[func] = self._new_node()
        return n

    def _cell(self, o: int, k: int) -> int:
        key = (o, k)
        n = self.cell_nodes.get(key)
        if n is not None:
            return n
        n = self.cell_nodes[key] = self._new_node()
        self.obj_cells.setdefault(o, []).append((k, n))
        for dst in self.readers.get(o, ()):
            self._edge(n, dst, 0)
        for dst in self.waiting.pop(key, ()):
            self._edge(n, dst, 0)
        for copier in self.copiers.get(o, ()):
            self._copy_cell(copier, k, n)
        return n

    def _add(self, n: int, locs: Iterable[tuple]) -> None:
        fresh = (locs if isinstance(locs, (set, frozenset)) else set(locs)) - self.pts[n]
        if fresh:
            self.pts[n] |= fresh
            d = self.delta[n]
            if not d:
                self.worklist.append(n)
            d |= fresh

    def _edge(self, src: int, dst: int, shift: int | None) -> None:
        key = (src, dst, shift)
        if key in self.edges:
            return
        self.edges.add(key)
        self.succ[src].append((dst, shift))
        if self.pts[src]:
            self._add(dst, self._moved(self.pts[src], shift))

    def _moved(self, locs: Iterable[tuple], shift: int | None) -> Iterable[tuple]:
        if shift == 0:
            return locs
        return {self._shift(loc, shift) for loc in locs}

    def _hook(self, n: int, fn: Callable) -> None:
        self.hooks.setdefault(n, []).append(fn)
        for loc in list(self.pts[n]):
            fn(loc)

    # ------------------------------------------------------------ expressions

    def _terms(self, func: str, e: Expr, shift: int | None, out: list) -> None:
        """Append ``(node, shift)`` or ``(None, location)`` for each source of
        the pointer values ``e`` (displaced by ``shift``) may evaluate to."""
        if isinstance(e, Reg):
            out.append((self._reg(func, e.name), shift))
        elif isinstance(e, Addr):
            out.append((None, self._shift(self._named(func, e), shift)))
        elif isinstance(e, Const):
            if isinstance(e.type, PtrType) and e.value != 0:
                out.append((None, self.unknown_loc))
        elif isinstance(e, Cast):
            if isinstance(e.type, PtrType) and not isinstance(e.arg.type, PtrType):
                if not (isinstance(e.arg, Const) and e.arg.value == 0):
                    out.append((None, self.unknown_loc))
            self._terms(func, e.arg, shift, out)
        elif isinstance(e, PtrAdd):
            off = e.offset
            if isinstance(off, Const):
                self._terms(func, e.ptr, None if shift is None else shift + _signed(off), out)
            else:
                self._terms(func, e.ptr, None, out)
                self._terms(func, off, None, out)
        elif isinstance(e, Ite):
            self._terms(func, e.then, shift, out)
            self._terms(func, e.other, shift, out)
        elif isinstance(e, Binary):
            if e.op not in _NO_POINTER_BINOPS:
                self._terms(func, e.left, None, out)
                self._terms(func, e.right, None, out)
        elif isinstance(e, PtrDiff):
            self._terms(func, e.left, None, out)
            self._terms(func, e.right, None, out)
        elif isinstance(e, Unary):
            if e.op != "!":
                self._terms(func, e.arg, None, out)

    def _flow(self, func: str, e: Expr, dst: int) -> None:
        """``dst`` may hold every value ``e`` may evaluate to."""
        terms: list = []
        self._terms(func, e, 0, terms)
        for src, x in terms:
            if src is None:
                self._add(dst, (x,))
            else:
                self._edge(src, dst, x)

    def _node(self, func: str, e: Expr) -> int:
        """A node holding the values of ``e`` (the register's own for a register)."""
        if isinstance(e, Reg):
            return self._reg(func, e.name)
        n = self._new_node()
        self._flow(func, e, n)
        return n

    def _value(self, func: str, e: Expr) -> set:
        """The values of ``e`` under the current solution."""
        terms: list = []
        self._terms(func, e, 0, terms)
        if len(terms) == 1 and terms[0][0] is not None and terms[0][1] == 0:
            return self.pts[terms[0][0]]
        out: set = set()
        for src, x in terms:
            if src is None:
                out.add(x)
            else:
                out |= self._moved(self.pts[src], x)
        return out

    # ------------------------------------------------------------ memory

    def _load(self, loc: tuple, dst: int) -> None:
        o, k = loc
        if k == _ANY:
            if (o, dst) in self.reader_set:
                return
            self.reader_set.add((o, dst))
            self.readers.setdefault(o, []).append(dst)
            for _, n in list(self.obj_cells.get(o, ())):
                self._edge(n, dst, 0)
        else:
            self._read_cell(loc, dst)
            self._read_cell((o, _ANY), dst)

    def _read_cell(self, key: tuple, dst: int) -> None:
        # Cells are made by stores; a load of a cell no store made yet waits for it.
        n = self.cell_nodes.get(key)
        if n is not None:
            self._edge(n, dst, 0)
        else:
            self.waiting.setdefault(key, []).append(dst)

    def _store(self, loc: tuple, src: int) -> None:
        self._edge(src, self._cell(*loc), 0)

    def _copy(self, dst_loc: tuple, src_loc: tuple, size: int | None) -> None:
        key = (dst_loc, src_loc, size)
        if key in self.copy_pairs:
            return
        self.copy_pairs.add(key)
        (od, kd), (os, ks) = dst_loc, src_loc
        copier = (ks, size, od, kd)
        self.copiers.setdefault(os, []).append(copier)
        for k, n in list(self.obj_cells.get(os, ())):
            self._copy_cell(copier, k, n)

    def _copy_cell(self, copier: tuple, k: int, n: int) -> None:
        ks, size, od, kd = copier
        if _ANY in (ks, kd, k):
            self._edge(n, self._cell(od, _ANY), 0)
        elif k >= ks and (size is None or k < ks + size):
            self._edge(n, self._cell(*self._at(od, kd + k - ks)), 0)

    # ------------------------------------------------------------ calls, threads

    def _bind_call(self, func: str, pc: int, call: Call, target: int) -> None:
        obj = self.objs[target]
        if obj.kind is ObjectKind.UNKNOWN:
            self._bind_external(func, pc, call.args, call.dst)
            return
        if obj.kind is not ObjectKind.FUNCTION:
            return
        if ("call", func, pc, target) in self.bound:
            return
        self.bound.add(("call", func, pc, target))
        callee = self.funcs.get(obj.name)
        if callee is None:
            self._bind_external(func, pc, call.args, call.dst)
            return
        self.callees.setdefault((func, pc), set()).add(callee.name)
        for i, a in enumerate(call.args):
            if i < len(callee.params):
                self._flow(func, a, self._reg(callee.name, callee.params[i].name))
            else:
                self._flow(func, a, self.unknown_cell)
        if call.dst is not None:
            self._edge(self._ret(callee.name), self._reg(func, call.dst.name), 0)

    def _bind_external(self, func: str, pc: int, args, dst: Reg | None) -> None:
        if ("ext", func, pc) in self.bound:
            return
        self.bound.add(("ext", func, pc))
        self.unknown_calls.add((func, pc))
        for a in args:
            self._flow(func, a, self.unknown_cell)
        if dst is not None:
            self._edge(self.unknown_cell, self._reg(func, dst.name), 0)

    def _bind_routine(self, func: str, pc: int, target: int, arg: int) -> None:
        obj = self.objs[target]
        if obj.kind not in (ObjectKind.FUNCTION, ObjectKind.UNKNOWN):
            return
        if ("thread", func, pc, target) in self.bound:
            return
        self.bound.add(("thread", func, pc, target))
        routine = self.funcs.get(obj.name) if obj.kind is ObjectKind.FUNCTION else None
        if routine is None:
            self._edge(arg, self.unknown_cell, 0)
            return
        self.routines.setdefault((func, pc), set()).add(routine.name)
        if routine.params:
            self._edge(arg, self._reg(routine.name, routine.params[0].name), 0)
        self._edge(self._ret(routine.name), self.thread_results, 0)

    # ------------------------------------------------------------ constraints

    def _instr(self, func: str, pc: int, i: ir.Instr) -> None:
        ops = access.operands(i, self.ptr_bytes)
        addrs = tuple(self._node(func, x.addr) for x in ops)
        if addrs:
            self.operand_nodes[(func, pc)] = addrs
        if isinstance(i, Assign):
            self._flow(func, i.expr, self._reg(func, i.dst.name))
        elif isinstance(i, Load):
            # A load narrower than a pointer cannot carry one whole; it reads its
            # objects coarsely, which keeps byte-wise copies of pointers sound.
            narrow = 0 < ir.type_size(i.type) < self.ptr_bytes
            self.loads.setdefault(addrs[0], []).append((self._reg(func, i.dst.name), narrow))
        elif isinstance(i, Store):
            terms: list = []
            self._terms(func, i.value, 0, terms)
            if terms:
                self.stores.setdefault(addrs[0], []).append(self._node(func, i.value))
        elif isinstance(i, Return):
            if i.value is not None:
                self._flow(func, i.value, self._ret(func))
        elif isinstance(i, Call):
            self._call(func, pc, i)
        elif isinstance(i, Intrinsic):
            self._intrinsic(func, pc, i, addrs)

    def _call(self, func: str, pc: int, call: Call) -> None:
        if isinstance(call.callee, Addr) and call.callee.kind is ObjKind.FUNCTION:
            self._bind_call(func, pc, call, self._named(func, call.callee)[0])
            return
        callee = self._node(func, call.callee)
        self._hook(callee, lambda loc: self._bind_call(func, pc, call, loc[0]))

    def _intrinsic(self, func: str, pc: int, i: Intrinsic, addrs: tuple[int, ...]) -> None:
        """``addrs``: the nodes of the memory operands (:func:`access.operands`)."""
        op, a = i.op, i.args
        if op in (Op.MALLOC, Op.CALLOC, Op.ALLOCA) and i.dst is not None:
            kind = ObjectKind.ALLOCA if op is Op.ALLOCA else ObjectKind.HEAP
            o = self._obj(MemObject(kind, i.name or op.value, func, pc), _alloc_size(op, a))
            self._add(self._reg(func, i.dst.name), (self._at(o, 0),))
        elif op is Op.NONDET and i.dst is not None:
            if isinstance(i.dst.type, PtrType):
                self._add(self._reg(func, i.dst.name), (self.unknown_loc,))
        elif op is Op.EXTERNAL:
            self._bind_external(func, pc, a, i.dst)
        elif op is Op.MAKE_SYMBOLIC and addrs:
            unknown = self._new_node()
            self._add(unknown, (self.unknown_loc,))
            self.stores.setdefault(addrs[0], []).append(unknown)
        elif op is Op.MEMCPY and len(addrs) == 2:
            self._memcpy(addrs[0], addrs[1], access.const_value(a[2]))
        elif op is Op.THREAD_CREATE and len(a) >= 4:
            self._thread_create(func, pc, a[2], a[3])
        elif op is Op.THREAD_JOIN and addrs:
            self.stores.setdefault(addrs[0], []).append(self.thread_results)
        elif op is Op.THREAD_EXIT and a:
            self._flow(func, a[0], self.thread_results)

    def _memcpy(self, dst: int, src: int, size: int | None) -> None:
        self._hook(dst, lambda d: [self._copy(d, s, size) for s in list(self.pts[src])])
        self._hook(src, lambda s: [self._copy(d, s, size) for d in list(self.pts[dst])])

    def _thread_create(self, func: str, pc: int, routine_e: Expr, arg_e: Expr) -> None:
        arg = self._node(func, arg_e)
        self._edge(arg, self.thread_args, 0)
        routine = self._node(func, routine_e)
        self._hook(routine, lambda loc: self._bind_routine(func, pc, loc[0], arg))
        for site in self.program.threads:
            if site.func == func and site.pc == pc:
                for name in site.routines:
                    o = self._obj(MemObject(ObjectKind.FUNCTION, name), None)
                    self._bind_routine(func, pc, o, arg)

    # ------------------------------------------------------------ solving

    def solve(self) -> PointsTo:
        p = self.program
        for g in p.globals:
            kind = ObjKind.STRING if g.is_string else ObjKind.GLOBAL
            base = self._named("", Addr(g.name, kind, PtrType(g.type)))
            for iv in g.init:
                locs = self._value("", iv.value)
                if locs:
                    self._add(self._cell(*self._shift(base, iv.offset)), locs)
        entry = self.funcs.get(p.entry)
        if entry is not None:
            for r in entry.params:
                if isinstance(r.type, PtrType):
                    self._add(self._reg(entry.name, r.name), (self.unknown_loc,))
        for f in p.functions:
            for pc, i in enumerate(f.body):
                self._instr(f.name, pc, i)
            poll()
        self._propagate()
        return self._result()

    def _propagate(self) -> None:
        wl = self.worklist
        # FIFO: a node waiting in the queue gathers its predecessors' deltas
        # into one batch, which LIFO order would hand on one at a time.
        head = 0
        while head < len(wl):
            n = wl[head]
            head += 1
            d = self.delta[n]
            if not d:
                continue
            self.delta[n] = set()
            self.steps += 1
            if not self.steps & 1023:
                poll()
            for dst, shift in list(self.succ[n]):
                self._add(dst, self._moved(d, shift))
            for dst, narrow in self.loads.get(n, ()):
                if narrow:
                    for o in {o for o, _ in d}:
                        self._load((o, _ANY), dst)
                else:
                    for loc in d:
                        self._load(loc, dst)
            for src in self.stores.get(n, ()):
                for loc in d:
                    self._store(loc, src)
            for fn in self.hooks.get(n, ()):
                for loc in d:
                    fn(loc)
        wl.clear()

    def _public(self, locs: set) -> frozenset:
        """Solver locations as id locations: "some offset" is None, and exact
        offsets an any-offset location of the same object covers are dropped
        (the solver may hold both; which exact ones depends on the order of
        propagation, this form does not)."""
        if not locs:
            return _EMPTY
        anys = locs & self.any_locs
        if not anys:
            return frozenset(locs)
        covered = {o for o, _ in anys}
        return frozenset(
            (o, None) if k == _ANY else (o, k) for o, k in locs if k == _ANY or o not in covered
        )

    def _result(self) -> PointsTo:
        self.any_locs = {(o, _ANY) for o in range(len(self.objs))}
        pts = self.pts
        pub = self._public
        registers = {key: pub(pts[n]) for key, n in self.reg_nodes.items() if pts[n]}
        cells: dict = {}
        for (o, k), n in self.cell_nodes.items():
            if pts[n]:
                cells.setdefault(o, {})[None if k == _ANY else k] = pub(pts[n])
        targets = {
            site: tuple(pub(pts[n]) for n in nodes) for site, nodes in self.operand_nodes.items()
        }
        return PointsTo(
            objects=tuple(self.objs),
            registers=registers,
            cells=cells,
            targets=targets,
            callees={k: tuple(sorted(v)) for k, v in self.callees.items()},
            unknown_calls=frozenset(self.unknown_calls),
            routines={k: tuple(sorted(v)) for k, v in self.routines.items()},
            thread_args=pub(pts[self.thread_args]),
            thread_results=pub(pts[self.thread_results]),
            counters=(
                ("pointsto_nodes", len(pts)),
                ("pointsto_edges", len(self.edges)),
                ("pointsto_steps", self.steps),
            ),
        )


_ANY = -1


def _signed(c: Const) -> int:
    bits = getattr(c.type, "bits", 64)
    v = c.value & ((1 << bits) - 1)
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def _alloc_size(op: Op, args: tuple[Expr, ...]) -> int | None:
    vals = [access.const_value(a) for a in args]
    if op is Op.CALLOC and len(vals) >= 2 and None not in vals[:2]:
        return vals[0] * vals[1]
    if op in (Op.MALLOC, Op.ALLOCA) and vals and vals[0] is not None:
        return vals[0]
    return None
