"""Linking translation units into one program, as a C linker does.

:func:`link` takes the :class:`~distaff.analysis.frontend.TranslationUnit` s of
several C files (each lowered on its own, with its own flags) and makes one
ordinary :class:`~distaff.analysis.ir.Program` of them, so the static analyses and
the engine need nothing new:

* Names with external linkage are one symbol across the units: a call of a
  function another unit defines (an EXTERNAL intrinsic in the caller's unit)
  becomes a :class:`~distaff.analysis.ir.Call`; an object is the one definition,
  an initialised one if a unit has it, else the tentative definitions merged
  (``int n;`` in two files is one ``n``); ``extern`` declarations refer to it.
* Names with internal linkage (``static`` functions and objects, static locals,
  string literals) stay each unit's own: when two units, or a unit and an
  external symbol, use the same name, each unit's internal one is renamed to
  ``name@file.c`` (:data:`QUALIFIER`). :meth:`Linked.shown` gives results back
  their C names; spans name the right file anyway.
* A name two units define (two initialised objects, two function bodies, a
  function here and an object there) is a :class:`LinkError` naming both
  places, as is a program of units none of which defines ``entry`` when
  ``require_entry`` asks for one.
* A name used and defined nowhere stays what the front end made of it: a
  function's calls return any value (a violation that relies on one says so),
  an object is zero and an UNSUPPORTED finding where each function reads it
  says its value is not known, so nothing that depends on it is claimed to
  hold. :attr:`Linked.undefined` names each, with its users.

Thread sites whose routine another unit defines are resolved after linking,
from the points-to analysis of the linked program, which then classifies its
memory accesses (:func:`~distaff.analysis.frontend.with_escape`'s work).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable, Sequence

from distaff.analysis import ir
from distaff.analysis.frontend import TranslationUnit
from distaff.analysis.frontend.linkage import Linkage
from distaff.analysis.ir import (
    Addr, Call, EXPR_NODES, Finding, FindingKind, Function, GlobalVar, InitValue, Intrinsic, ObjKind, Op,
    Program, PtrType, Span, ThreadSite,
)
from distaff.analysis.memo import ProgramMemo
from distaff.analysis.report import AssertionResult, Finding as ReportFinding, Reason, Status
from distaff.analysis.static.escape import classify
from distaff.analysis.static.facts import remember
from distaff.analysis.static.pointsto import points_to

QUALIFIER = "@"  # internal name of a renamed static: ``name@file.c`` (never a C identifier)
_IDENT = re.compile(r"[A-Za-z_]\w*\Z")


class LinkError(ValueError):
    """Units that do not link: one line naming the places."""


@dataclass(frozen=True, slots=True)
class Undefined:
    """A name the units use and none defines: ``kind`` is ``function`` or
    ``object``; ``users`` where it is used (the first use in each function)."""

    name: str
    kind: str
    users: tuple[Span, ...]

    def describe(self, relative_to: str | None = None) -> str:
        where = ", ".join(place(s, relative_to) for s in self.users)
        return f"`{self.name}` is defined in no linked file (used at {where})"


@dataclass(frozen=True, slots=True, eq=False)
class Linked:
    """The linked ``program`` of the units at ``files`` (in link order).
    ``renamed`` lists ``(file, C name, internal name)`` for each internal
    name linking renamed."""

    program: Program
    files: tuple[str, ...]
    renamed: tuple[tuple[str, str, str], ...] = ()
    undefined: tuple[Undefined, ...] = ()

    def internal_name(self, path: str, name: str) -> str:
        """The linked program's name for file ``path``'s file-scope ``name``."""
        for file, c, internal in self.renamed:
            if file == path and c == name:
                return internal
        return name

    def shown(self, item):
        """``item`` (an :class:`AssertionResult` or a report ``Finding``) with
        every renamed name in its words back to its C name."""
        if not self.renamed:
            return item
        return _Shown({internal: c for _, c, internal in self.renamed}).item(item)

    def shown_trace(self, trace):
        """A trace of the linked program in C names (as :meth:`shown`)."""
        if not self.renamed:
            return trace
        return _Shown({internal: c for _, c, internal in self.renamed}).trace(trace)


def place(span: Span, relative_to: str | None = None) -> str:
    """``file:line:col`` of a span, the file relative to ``relative_to``
    when it lies below it."""
    path = span.file
    if relative_to and os.path.isabs(path):
        rel = os.path.relpath(path, relative_to)
        if not rel.startswith(os.pardir):
            path = rel
    return f"{path}:{span.line}:{span.col}"


# --------------------------------------------------------------------------
# what each unit defines and uses


@dataclass(frozen=True, slots=True)
class Symbols:
    """A unit's file-scope names: ``functions`` it defines a body for,
    ``objects`` it has a global for, each with the span of its definition or
    declaration; ``internal`` of those its own; ``uses`` the names it refers
    to without defining them (calls of body-less functions, function
    addresses, ``extern`` objects), each with where: its first use in each
    function, and each initialiser naming it."""

    functions: dict
    objects: dict
    internal: frozenset[str]
    uses: dict
    linkage: Linkage

    def defines(self) -> set[str]:
        """External names it defines: functions with a body, objects
        initialised or tentatively defined."""
        out = {n for n in self.functions if n not in self.internal}
        out |= {n for n in self.objects if n not in self.internal and self.object_kind(n) != "declared"}
        return out

    def defined_at(self, name: str) -> Span:
        """Where the object ``name`` is defined (else declared)."""
        return self.linkage.definition(name) or self.objects[name].span

    def object_kind(self, name: str) -> str:
        """``initialized``, ``tentative`` or ``declared`` (``extern`` only)."""
        lk = self.linkage
        if name in lk.initialized:
            return "initialized"
        if name in lk.tentative:
            return "tentative"
        if name in lk.declared:
            return "declared"
        g = self.objects[name]
        return "initialized" if g.init else "tentative"  # a unit without linkage facts: its own definition


_SYMBOLS = ProgramMemo(keep=1024)


def symbols(unit: TranslationUnit) -> Symbols:
    """The :class:`Symbols` of ``unit`` (computed once per unit)."""
    got = _SYMBOLS.get(unit.program)
    if got is not None:
        return got
    p = unit.program
    functions = {f.name: f for f in p.functions}
    objects = {g.name: g for g in p.globals if _IDENT.match(g.name) and not g.is_string}
    internal = frozenset(n for n in unit.linkage.internal if n in functions or n in objects)
    declared = {n for n in objects if n not in internal and n in unit.linkage.declared}
    uses: dict[str, tuple[Span, ...]] = {}

    def use(name: str, span: Span) -> None:
        uses[name] = uses.get(name, ()) + (span,)

    for g in p.globals:
        for iv in g.init:
            for x in ir.nodes(iv.value):
                if type(x) is Addr and (x.name in declared or (x.kind is ObjKind.FUNCTION and x.name not in functions)):
                    use(x.name, g.span)
    for f in p.functions:
        here: set[str] = set()  # the first use in each function
        for i in f.body:
            if type(i) is Intrinsic and i.op is Op.EXTERNAL and i.name not in functions and i.name not in here:
                here.add(i.name)
                use(i.name, i.span)
            for e in ir.expressions_of(i):
                for x in ir.nodes(e):
                    if type(x) is not Addr or x.name in here:
                        continue
                    if (x.kind is ObjKind.FUNCTION and x.name not in functions) or \
                            (x.kind is ObjKind.GLOBAL and x.name in declared):
                        here.add(x.name)
                        use(x.name, i.span)
    return _SYMBOLS.put(p, Symbols(functions, objects, internal, uses, unit.linkage))


# --------------------------------------------------------------------------
# linking


def link(units: Sequence[TranslationUnit], *, entry: str = "main", require_entry: bool = False) -> Linked:
    """Link ``units`` into one program (see the module docstring); the
    program's ``path`` is the file of the unit defining ``entry`` (else the
    first). Raises :class:`LinkError` for a name defined twice, and with
    ``require_entry`` for units none of which defines ``entry``."""
    if not units:
        raise LinkError("no files to link")
    syms = [symbols(u) for u in units]
    _check_duplicates(units, syms)
    definer: dict[str, int] = {}  # external name -> the unit whose definition counts
    for k, s in enumerate(syms):
        for name in s.functions:
            if name not in s.internal:
                definer.setdefault(name, k)
    for kind in ("initialized", "tentative"):
        for k, s in enumerate(syms):
            for name in s.objects:
                if name not in s.internal and name not in definer and s.object_kind(name) == kind:
                    definer[name] = k
    entry_unit = definer.get(entry)
    if entry_unit is not None and entry in syms[entry_unit].objects:
        entry_unit = None
    if entry_unit is None and require_entry:
        raise LinkError(f"no linked file defines `{entry}` ({', '.join(u.path for u in units)})")
    renames = _renames(units, syms)
    pointer_bits = units[0].program.data_model.pointer_bits
    functions: list[Function] = []
    globals_: OrderedDict[str, GlobalVar] = OrderedDict()
    threads: list[ThreadSite] = []
    findings: list[Finding] = []
    externals: dict[str, None] = {}
    user_externals: dict[str, None] = {}
    for k, (unit, s) in enumerate(zip(units, syms)):
        rw = _Rewrite(renames[k], {n: syms[d].functions[n] for n, d in definer.items()
                                   if d != k and n in syms[d].functions}, pointer_bits)
        p = unit.program
        for f in p.functions:
            if f.name not in s.internal and definer.get(f.name) != k:
                continue  # an inline definition another unit's body stands for
            functions.append(rw.function(f))
        for g in p.globals:
            name = rw.gname(g.name)
            if g.name in s.objects and g.name not in s.internal:
                if definer.get(g.name) != k:
                    continue  # declared or tentatively defined here, defined there
                g = _merged(g, [syms[j].objects[g.name] for j in range(len(units)) if g.name in syms[j].objects])
            globals_[name] = rw.global_var(g)
        threads += [rw.site(t) for t in p.threads]
        findings += p.findings + tuple(rw.findings)
        for n in p.externals:
            if n not in definer:
                externals[n] = None
        for n in p.user_externals:
            if n not in definer:
                user_externals[n] = None
    undefined = _undefined(units, syms, definer)
    for u in undefined:
        if u.kind == "object":  # where each function uses it: runs through another function stay decided
            findings += [Finding(FindingKind.UNSUPPORTED, f"`{u.name}` is declared extern but no linked file "
                                 "defines it: its value is not known", span) for span in u.users]
    path = units[entry_unit].path if entry_unit is not None else units[0].path
    program = Program(path, units[0].program.data_model, tuple(globals_.values()), tuple(functions),
                      tuple(threads), tuple(findings), tuple(externals), entry, tuple(user_externals))
    renamed = tuple((units[k].path, old, new) for k, table in enumerate(renames) for old, new in table.items())
    return Linked(_resolve_threads(program), tuple(u.path for u in units), renamed, tuple(undefined))


def _check_duplicates(units, syms) -> None:
    functions: dict[str, int] = {}
    initialized: dict[str, int] = {}
    objects: dict[str, int] = {}
    for k, s in enumerate(syms):
        for name, f in s.functions.items():
            if name in s.internal:
                continue
            if name in functions:
                j = functions[name]
                raise LinkError(f"duplicate definition of `{name}`: {place(syms[j].functions[name].span)} "
                                f"and {place(f.span)}")
            functions[name] = k
        for name, g in s.objects.items():
            if name in s.internal:
                continue
            objects.setdefault(name, k)
            if s.object_kind(name) == "initialized":
                if name in initialized:
                    j = initialized[name]
                    raise LinkError(f"duplicate definition of `{name}`: {place(syms[j].defined_at(name))} "
                                    f"and {place(s.defined_at(name))}")
                initialized[name] = k
    for name, k in functions.items():
        if name in objects:
            j = objects[name]
            raise LinkError(f"`{name}` is a function at {place(syms[k].functions[name].span)} "
                            f"and an object at {place(syms[j].defined_at(name))}")


def _renames(units, syms) -> list[dict[str, str]]:
    """Per unit, its internal names that must be renamed: those another unit
    also has (internal or external)."""
    owners: dict[str, set] = {}
    for k, s in enumerate(syms):
        for name in _all_names(units[k].program):
            internal = name in s.internal or not _IDENT.match(name)
            owners.setdefault(name, set()).add(k if internal else "external")
    bases = [os.path.basename(u.path) for u in units]
    tags = [b if bases.count(b) == 1 else f"{b}~{k + 1}" for k, b in enumerate(bases)]
    out: list[dict[str, str]] = [{} for _ in units]
    for name, who in owners.items():
        if len(who) > 1:
            for k in who:
                if k != "external":
                    out[k][name] = f"{name}{QUALIFIER}{tags[k]}"
    return out


def _all_names(p: Program) -> Iterable[str]:
    for f in p.functions:
        yield f.name
    for g in p.globals:
        yield g.name


def _merged(chosen: GlobalVar, all_of_name: list[GlobalVar]) -> GlobalVar:
    """The definition of an external object: ``chosen``, with an array type
    completed by another unit's declaration (``int a[];`` here, ``int a[4];``
    there)."""
    t = chosen.type
    if isinstance(t, ir.ArrayType) and t.length is None:
        for g in all_of_name:
            if isinstance(g.type, ir.ArrayType) and g.type.length is not None:
                return dataclasses.replace(chosen, type=g.type)
    return chosen


def _undefined(units, syms, definer) -> list[Undefined]:
    users: OrderedDict[str, list[Span]] = OrderedDict()
    kinds: dict[str, str] = {}
    for s in syms:
        for name, spans in s.uses.items():
            if name in definer:
                continue
            kinds[name] = "object" if name in s.objects else kinds.get(name, "function")
            users.setdefault(name, []).extend(spans)
    user_declared = {n for u in units for n in u.program.user_externals}
    return [Undefined(n, kinds[n], tuple(spans)) for n, spans in users.items()
            if kinds[n] == "object" or n in user_declared]


class _Rewrite:
    """One unit's program with its renamed internal names and its calls of
    functions other units define."""

    def __init__(self, renames: dict[str, str], elsewhere: dict[str, Function], pointer_bits: int):
        self.renames = renames
        self.elsewhere = elsewhere
        self.pointer_bits = pointer_bits
        self.findings: list[Finding] = []
        self._memo: dict = {}

    def gname(self, name: str) -> str:
        return self.renames.get(name, name)

    def expr(self, e):
        if not self.renames or type(e) not in EXPR_NODES:
            return e
        t = type(e)
        if t is Addr:
            new = self.renames.get(e.name)
            return Addr(new, e.kind, e.type) if new is not None and e.kind is not ObjKind.STACK else e
        if t is ir.Const or t is ir.Reg:
            return e
        key = id(e)
        hit = self._memo.get(key)
        if hit is not None and hit[0] is e:
            return hit[1]
        parts = ir.children(e)
        new_parts = tuple(self.expr(x) for x in parts)
        out = e if all(a is b for a, b in zip(parts, new_parts)) else _rebuild(e, new_parts)
        self._memo[key] = (e, out)
        return out

    def instr(self, i):
        t = type(i)
        if t is Intrinsic and i.op is Op.EXTERNAL:
            f = self.elsewhere.get(i.name)
            if f is not None and len(i.args) == len(f.params):
                callee = Addr(f.name, ObjKind.FUNCTION, PtrType(f.type, self.pointer_bits))
                return Call(i.dst, callee, tuple(self.expr(a) for a in i.args), i.span)
            if f is not None:
                self.findings.append(Finding(
                    FindingKind.UNSUPPORTED, f"call of `{i.name}` with {len(i.args)} arguments, defined with "
                    f"{len(f.params)} at {place(f.span)}: its result is any value", i.span))
        if not self.renames:
            return i
        changes = {}
        for f in dataclasses.fields(i):
            v = getattr(i, f.name)
            if type(v) in EXPR_NODES:
                nv = self.expr(v)
                if nv is not v:
                    changes[f.name] = nv
            elif type(v) is tuple and v and type(v[0]) in EXPR_NODES:
                nv = tuple(self.expr(x) for x in v)
                if any(a is not b for a, b in zip(v, nv)):
                    changes[f.name] = nv
        return dataclasses.replace(i, **changes) if changes else i

    def function(self, f: Function) -> Function:
        body = tuple(self.instr(i) for i in f.body)
        name = self.renames.get(f.name, f.name)
        if name == f.name and all(a is b for a, b in zip(body, f.body)):
            return f
        return Function(name, f.type, f.params, f.stack, body, f.span, f.atomic)

    def global_var(self, g: GlobalVar) -> GlobalVar:
        name = self.renames.get(g.name, g.name)
        init = tuple(InitValue(iv.offset, iv.type, self.expr(iv.value)) for iv in g.init) if self.renames else g.init
        if name == g.name and init == g.init:
            return g
        return GlobalVar(name, g.type, init, g.span, g.is_string, g.thread_local)

    def site(self, t: ThreadSite) -> ThreadSite:
        if not self.renames:
            return t
        return ThreadSite(self.renames.get(t.func, t.func), t.pc,
                          tuple(self.renames.get(r, r) for r in t.routines), t.in_loop, t.span)


def _rebuild(e, parts):
    t = type(e)
    if t is ir.Unary:
        return ir.Unary(e.op, parts[0], e.type)
    if t is ir.Cast:
        return ir.Cast(parts[0], e.type)
    if t is ir.Binary:
        return ir.Binary(e.op, parts[0], parts[1], e.type)
    if t is ir.PtrDiff:
        return ir.PtrDiff(parts[0], parts[1], e.type)
    if t is ir.PtrAdd:
        return ir.PtrAdd(parts[0], parts[1], e.type)
    if t is ir.Ite:
        return ir.Ite(parts[0], parts[1], parts[2], e.type)
    raise TypeError(f"not an expression node: {t.__name__}")


def _resolve_threads(program: Program) -> Program:
    """Thread sites with the routines the points-to analysis of the linked
    program finds (a routine another unit defines was unknown to its
    creator's unit), then the escape analysis over the whole program."""
    try:
        pts = points_to(program)
        threads = []
        for t in program.threads:
            found = pts.routines.get((t.func, t.pc), ())
            extra = tuple(r for r in sorted(found) if r not in t.routines)
            threads.append(ThreadSite(t.func, t.pc, t.routines + extra, t.in_loop, t.span) if extra else t)
        program = dataclasses.replace(program, threads=tuple(threads), _index={})
        classified = classify(program, pts)
        remember(classified, pts)
        return classified
    except Exception as e:  # noqa: BLE001 - unclassified (all GLOBAL) is still sound
        finding = Finding(FindingKind.UNSUPPORTED, f"internal (escape analysis): {e}",
                          Span(program.path, 1, 1, 1, 1))
        return dataclasses.replace(program, findings=program.findings + (finding,), _index={})


# --------------------------------------------------------------------------
# a program nothing enters


def not_entered(program: Program, options, why: str):
    """What a check of ``program`` says when no ``main`` runs it: the front
    end's findings, then every assertion undecided (reason NO_ENTRY) with
    ``why``. Nothing is explored: no run executes the code, which shows
    nothing about it (as "unreachable" would claim)."""
    for f in program.findings:
        yield ReportFinding(f.kind, f.span, f.message)
    message = f"not reached by the linked program: {why}"
    for site in program.assertions():
        yield AssertionResult(site.id, site.span, site.text, Status.UNKNOWN, reason=Reason.NO_ENTRY,
                              message=message, unwind=options.unwind, mode=options.mode)


# --------------------------------------------------------------------------
# results in C names


class _Shown:
    def __init__(self, table: dict[str, str]):
        alternatives = "|".join(re.escape(n) for n in sorted(table, key=len, reverse=True))
        pattern = re.compile(rf"(?<![\w.{QUALIFIER}])(?:{alternatives})(?![\w{QUALIFIER}~])")
        self.text = lambda s: pattern.sub(lambda m: table[m.group(0)], s) if s else s

    def trace(self, t):
        if t is None:
            return None
        steps = tuple(dataclasses.replace(s, thread=self.text(s.thread), action=self.text(s.action)) for s in t.steps)
        inputs = tuple(dataclasses.replace(i, name=self.text(i.name)) for i in t.inputs)
        return dataclasses.replace(t, steps=steps, inputs=inputs)

    def item(self, item):
        if isinstance(item, AssertionResult):
            summaries = tuple(dataclasses.replace(s, expr=self.text(s.expr), raw=self.text(s.raw))
                              for s in item.summaries)
            return dataclasses.replace(item, message=self.text(item.message), trace=self.trace(item.trace),
                                       summaries=summaries, depends_on=tuple(map(self.text, item.depends_on)),
                                       invariants=tuple((self.text(n), text) for n, text in item.invariants))
        if isinstance(item, ReportFinding):
            return dataclasses.replace(item, message=self.text(item.message), trace=self.trace(item.trace),
                                       depends_on=tuple(map(self.text, item.depends_on)))
        return item


__all__ = [
    "QUALIFIER", "LinkError", "Linked", "Symbols", "Undefined", "link", "not_entered", "place", "symbols",
]
