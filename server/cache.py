"""Check results reused across edits, keyed by what each assertion depends on.

An assertion's verdict depends on the code that can run in a run of the
program, not on where that code sits in the file. So the key of an assertion
is a hash of the program with every source position left out, restricted to
what a run can execute: the functions reachable from the entry and from
every thread routine (through calls and through any function whose address
is taken in reachable code), the globals and their initialisers, and the
options that change verdicts. Comments, blank lines, dead functions, and
edits that shift code up or down leave keys unchanged; the cached result is
then moved to the new positions (:meth:`ResultCache.lookup`).

Moving works because equal keys mean equal position-free structure: the
spans of both programs, listed in the same canonical order
(:attr:`ProgramDigest.layout`), correspond one to one. A cached result
mentioning a span that is not in the old layout is not reused.

Only decided results (violated, holds, unreachable) are kept; a timeout or
cancellation is checked again. Findings of a whole run (deadlocks, errors)
are kept per program digest, from runs that completed.

This is deliberately coarser than the per-assertion slice of the
assertion-guided paper: every assertion of a program shares the reachable
code, so an edit to reachable code invalidates them all. A finer key only
needs :func:`program_digest` to hash a smaller set of functions per site.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, fields, replace

from distaff.analysis.check import Options
from distaff.analysis.ir import Addr, Function, ObjKind, Program, Span
from distaff.analysis.report import AssertionResult, Finding, Status, Trace
from distaff.analysis.static.callgraph import named_functions

DECIDED = (Status.VIOLATED, Status.HOLDS, Status.BOUNDED, Status.UNREACHABLE)

_NON_SPAN_FIELDS: dict[type, tuple[str, ...]] = {}


def _non_span(cls: type) -> tuple[str, ...]:
    names = _NON_SPAN_FIELDS.get(cls)
    if names is None:
        names = _NON_SPAN_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name != "span")
    return names


def _shape(node) -> str:
    """``repr`` of a dataclass node without its ``span`` field."""
    return type(node).__name__ + repr(tuple(getattr(node, n) for n in _non_span(type(node))))


def reachable_functions(program: Program) -> list[Function]:
    """Functions a run may execute, in the program's order: reached from the
    thread routines or from a function pointer in an initialiser."""
    roots = list(program.thread_routines())
    for g in program.globals:  # function pointers in initialisers
        for iv in g.init:
            if isinstance(iv.value, Addr) and iv.value.kind is ObjKind.FUNCTION:
                roots.append(iv.value.name)
    seen = named_functions(program, roots)
    return [f for f in program.functions if f.name in seen]


@dataclass(frozen=True, slots=True)
class ProgramDigest:
    """Position-free keys of a program: ``common`` covers everything a run may
    execute, ``sites`` maps each assertion id to its key, ``layout`` lists the
    program's spans in the canonical order the keys were computed in."""

    common: str
    sites: tuple[tuple[str, str], ...]
    layout: tuple[Span, ...]

    def site_key(self, assertion_id: str) -> str | None:
        return dict(self.sites).get(assertion_id)


def program_digest(program: Program) -> ProgramDigest:
    h = hashlib.sha256()
    layout: list[Span] = []
    h.update(repr((program.data_model, program.entry, program.externals)).encode())
    for g in program.globals:
        h.update(_shape(g).encode())
        layout.append(g.span)
    for t in program.threads:
        h.update(_shape(t).encode())
        layout.append(t.span)
    for f in reachable_functions(program):
        h.update(f"fn {f.name} {f.type!r} {f.params!r} {f.atomic}".encode())
        layout.append(f.span)
        for v in f.stack:
            h.update(_shape(v).encode())
            layout.append(v.span)
        for instr in f.body:
            h.update(_shape(instr).encode())
            layout.append(instr.span)
    common = h.hexdigest()
    sites = tuple(
        (s.id, hashlib.sha256(f"{common} {s.id} {s.kind.value}".encode()).hexdigest())
        for s in program.assertions()
    )
    return ProgramDigest(common, sites, tuple(layout))


def options_key(options: Options) -> str:
    """The options that can change a decided verdict or its statistics
    (not the timeout or the number of workers)."""
    return repr((options.mode, options.unwind, options.max_runs, options.data_model,
                 options.optimisations, options.report_races, options.spurious_wakeups, options.memory_model,
                 options.sym_args, options.sym_arg_len))


class _Remap:
    def __init__(self, old: tuple[Span, ...], new: tuple[Span, ...]):
        self.table = dict(zip(old, new)) if old != new else None

    def span(self, s: Span) -> Span:
        if self.table is None:
            return s
        return self.table[s]  # KeyError: not reusable

    def trace(self, t: Trace | None) -> Trace | None:
        if t is None or self.table is None:
            return t
        return replace(
            t,
            inputs=tuple(replace(i, span=self.span(i.span)) for i in t.inputs),
            steps=tuple(replace(s, span=self.span(s.span)) for s in t.steps),
        )

    def result(self, r: AssertionResult) -> AssertionResult:
        if self.table is None:
            return r
        return replace(
            r, span=self.span(r.span), trace=self.trace(r.trace),
            summaries=tuple(replace(s, span=self.span(s.span)) for s in r.summaries),
        )

    def finding(self, f: Finding) -> Finding:
        if self.table is None:
            return f
        return replace(f, span=self.span(f.span), trace=self.trace(f.trace))


class ResultCache:
    """Decided assertion results and complete runs' findings, least recently
    used first out. Counts hits and misses."""

    def __init__(self, capacity: int = 4096):
        self.capacity = capacity
        self._entries: OrderedDict[tuple, tuple[object, tuple[Span, ...]]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def _put(self, key, value, layout) -> None:
        self._entries[key] = (value, layout)
        self._entries.move_to_end(key)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def _get(self, key, layout):
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        value, old_layout = entry
        return value, _Remap(old_layout, layout)

    def put_result(self, digest: ProgramDigest, options: Options, result: AssertionResult) -> None:
        key = digest.site_key(result.id)
        if key is not None and result.status in DECIDED and not result.context:
            self._put(("site", key, options_key(options)), result, digest.layout)

    def put_findings(self, digest: ProgramDigest, options: Options, findings) -> None:
        self._put(("run", digest.common, options_key(options)), tuple(findings), digest.layout)

    def lookup(self, digest: ProgramDigest, options: Options):
        """``(results by assertion id, findings or None)`` reusable for a
        program with this digest; findings are None unless a complete run's
        are known."""
        okey = options_key(options)
        results: dict[str, AssertionResult] = {}
        for site_id, key in digest.sites:
            got = self._get(("site", key, okey), digest.layout)
            if got is None:
                self.misses += 1
                continue
            try:
                results[site_id] = got[1].result(got[0])
                self.hits += 1
            except KeyError:
                self.misses += 1
        findings = None
        got = self._get(("run", digest.common, okey), digest.layout)
        if got is not None:
            try:
                findings = [got[1].finding(f) for f in got[0]]
            except KeyError:
                findings = None
        return results, findings
