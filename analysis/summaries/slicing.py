"""Pivot points outside an assertion's static slice (assertion-guided paper,
§6.1): Type A and Type B.

* **Type A** (an interleaving point): no thread can reach the assertion any
  more (CFG reachability over every thread's call stack, thread creation
  included), so the rest of the run cannot violate it: the run stops there
  (a *pruned run*, as the README's "Runs and statistics" counts slicing stops). Stopping must not hide
  anything partial order reduction or the other findings need, so it also
  requires that no thread can still reach a write that may affect the
  assertion (a store or memory-writing operation in its own slice, any
  synchronization but joins), a loop or a recursive call (a bound cut there
  would change the verdict's ``bounded``), or a lock, condition wait or
  barrier (a deadlock); and at most one thread can still join (joins alone
  cannot deadlock). Then no later event races with an earlier one in a way
  that matters to the assertion, and the remaining runs can only end. A run
  with one thread left and no branch ahead is not stopped: the rest is a
  single path, and stopping would only relabel a full run as pruned.
* **Type B** (a branch point): the branch instruction is outside the slice
  (with the other assertions in it: their failing ends a run), so which way
  it goes cannot affect the assertion: one side is explored. In symbolic
  execution taking a side also constrains the inputs its condition reads, so
  the condition must not be computed from anything in the slice either (the
  inputs it narrows then cannot reach the assertion). Static slices
  do not see run-time errors, so when a run below that side ends early (an
  error, a cut, a deadlock, another assertion failing, an infeasible assume)
  the other side is explored too (``SliceGuide`` leaves that to the caller).
"""

from __future__ import annotations

from distaff.analysis import ir
from distaff.analysis.ir import Intrinsic, Op
from distaff.analysis.static import access
from distaff.analysis.static.budget import poll
from distaff.analysis.liveness import used
from distaff.analysis.static.defuse import ENTRY
from distaff.analysis.static.facts import analyze
from distaff.analysis.static.fixpoint import components, solve
from distaff.analysis.symex.state import ENDED, State

_WRITE_OPS = frozenset({Op.MEMSET, Op.MEMCPY, Op.MAKE_SYMBOLIC, Op.FREE, Op.MALLOC, Op.CALLOC, Op.ALLOCA})
_HARMLESS_SYNC = frozenset({Op.THREAD_JOIN, Op.ATOMIC_BEGIN, Op.ATOMIC_END, Op.THREAD_EXIT})
LOOP, WRITE, JOIN, BRANCH = 1, 2, 4, 8


class SliceGuide:
    """Slicing facts of one assertion of ``program`` (``site``)."""

    def __init__(self, program: ir.Program, site: ir.AssertionSite):
        facts = analyze(program)
        self.facts = facts
        self._type_b: dict = {}
        self._clean: set = set()
        self._tainted: set = set()
        self.program = program
        self.full = facts.slice(site.id)
        self.own = facts.slice(site.id, other_assertions=False)
        self.reach = facts.reach(site.id)
        self.calls = facts.calls
        self._kinds = self._blockers()

    # ------------------------------------------------------------------ Type B

    def type_b(self, func: str, pc: int) -> bool:
        """May the branch at ``pc`` of ``func`` go one way only? It must be
        outside the slice, and nothing its condition is computed from may be
        in the slice either: taking one side constrains the inputs the
        condition reads, which must not be inputs the assertion depends on."""
        key = (func, pc)
        hit = self._type_b.get(key)
        if hit is None:
            hit = not self.full.contains(func, pc) and not self._flows_from_slice(func, pc)
            self._type_b[key] = hit
        return hit

    def _flows_from_slice(self, func: str, pc: int) -> bool:
        """Whether some instruction whose value flows into the one at ``pc``
        (data dependence only: registers, parameters, returns, memory) is in
        the slice. Searches share what they learn: every instruction a search
        without a find met is *clean* (nothing in the slice flows into it), the
        path to a find is *tainted*, and later searches stop at either."""
        full, clean, tainted = self.full, self._clean, self._tainted
        parent: dict = {(func, pc): None}
        work = [(func, pc)]
        steps = 0
        while work:
            site = work.pop()
            for dep in self._data_deps(*site):
                if dep in parent or dep in clean:
                    continue
                parent[dep] = site
                if dep in tainted or full.contains(*dep):
                    while dep is not None:
                        tainted.add(dep)
                        dep = parent[dep]
                    return True
                work.append(dep)
            steps += 1
            if not steps & 255:
                poll()
        clean.update(parent)
        return False

    def _data_deps(self, func: str, pc: int) -> list:
        """The instructions the one at ``pc`` of ``func`` takes values from
        directly (for a call result: the callees' returns)."""

        facts, P = self.facts, self.program
        pb = P.data_model.pointer_bits // 8
        out: list = []
        fn = P.function(func)
        instr = fn.body[pc]
        for r in used(instr):
            for d in facts.reaching_definitions(func).reaching(pc, r):
                if d != ENTRY:
                    out.append((func, d))
                    if isinstance(fn.body[d], ir.Call):
                        for callee in self.calls.callees_at(func, d):
                            out.extend(self._returns_of(callee))
                elif any(prm.name == r for prm in fn.params):
                    out.extend(self.calls.call_sites_of(func) + self.calls.create_sites_of(func))
        for operand, locs in zip(access.operands(instr, pb), facts.points_to.operand_ids(func, pc)):
            if operand.role is access.Role.READ:
                out.extend(sorted(facts.writers.writers(locs, operand.size)))
        return out

    def _returns_of(self, func: str) -> list:
        f = self.program.function(func)
        if f is None:
            return []
        return [(func, q) for q, i in enumerate(f.body) if isinstance(i, ir.Return)]

    # ------------------------------------------------------------------ Type A

    def type_a(self, st: State) -> bool:
        joiners = live = branches = 0
        for t in st.threads:
            if t.status == ENDED or not t.frames:
                continue
            frames = [(f.func.name, f.pc - 1) for f in t.frames[:-1]] + [(t.frames[-1].func.name, t.frames[-1].pc)]
            if self.reach.from_stack(frames) is not None:
                return False
            kinds = 0
            for f in t.frames:
                kinds |= self._at(f.func.name, f.pc)
            if kinds & (LOOP | WRITE):
                return False
            if kinds & JOIN:
                joiners += 1
            live += 1
            branches |= kinds & BRANCH
        # with one thread left and no branch ahead the rest of the run is one
        # path: stopping would not save exploring anything
        return joiners <= 1 and (live > 1 or branches != 0)

    def _at(self, func: str, pc: int) -> int:
        table = self._kinds.get(func)
        if table is None or pc >= len(table):
            return 0
        return table[pc]

    def _blockers(self) -> dict[str, list[int]]:
        """Per function and pc, what may still be reached from there (within
        the function, its callees and the threads it starts)."""
        P = self.program
        calls = self.calls
        recursive = self._recursive_calls()
        local: dict[str, list[int]] = {}
        for f in P.functions:
            row = []
            for pc, i in enumerate(f.body):
                k = 0
                succ = ir.successors(f.body, pc)
                if any(s <= pc for s in succ) or (f.name, pc) in recursive:
                    k |= LOOP
                if isinstance(i, ir.Branch):
                    k |= BRANCH
                if isinstance(i, Intrinsic):
                    if i.op is Op.THREAD_JOIN:
                        k |= JOIN
                    elif i.op in ir.SYNC_OPS and i.op not in _HARMLESS_SYNC:
                        k |= WRITE
                    elif i.op in _WRITE_OPS and self.own.contains(f.name, pc):
                        k |= WRITE
                elif isinstance(i, ir.Store) and self.own.contains(f.name, pc):
                    k |= WRITE
                row.append(k)
            local[f.name] = row
        entry = {f.name: 0 for f in P.functions}
        starts: dict[str, set[str]] = {}  # function -> what its calls and creates may run
        for (func, _), names in list(calls.calls.items()) + list(calls.creates.items()):
            starts.setdefault(func, set()).update(names)
        table: dict[str, list[int]] = {}

        def update(name: str) -> bool:
            f = P.function(name)
            row = list(local[name])
            for pc, i in enumerate(f.body):
                if isinstance(i, ir.Call):
                    for c in calls.callees_at(name, pc):
                        row[pc] |= entry.get(c, 0)
                elif isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE:
                    for r in calls.routines_at(name, pc):
                        row[pc] |= entry.get(r, 0)
            for _ in range(len(f.body) + 1):
                moved = False
                for pc in range(len(f.body) - 1, -1, -1):
                    v = row[pc]
                    for s in ir.successors(f.body, pc):
                        v |= row[s]
                    if v != row[pc]:
                        row[pc] = v
                        moved = True
                if not moved:
                    break
            table[name] = row
            e = row[0] if row else 0
            if e != entry[name]:
                entry[name] = e
                return True
            return False

        # a function's row needs the final entries of what it calls or starts
        solve([f.name for f in P.functions], lambda name: sorted(starts.get(name, ())), update)
        return {f.name: table[f.name] for f in P.functions}

    def _recursive_calls(self) -> set:
        """Call sites whose callee may call back into the caller: the callee
        is the caller, or in its strongly connected component of the call
        graph."""
        P = self.program
        calls = self.calls
        component: dict[str, int] = {}
        for k, comp in enumerate(components([f.name for f in P.functions], calls.called_from)):
            for name in comp:
                component[name] = k
        out = set()
        for f in P.functions:
            for pc, i in enumerate(f.body):
                if isinstance(i, ir.Call):
                    for c in calls.callees_at(f.name, pc):
                        if c == f.name or component.get(c) == component[f.name]:
                            out.add((f.name, pc))
        return out
