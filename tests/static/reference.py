"""Straightforward reference computations of the static facts, to compare the
fast ones with (tests/static/test_scaling.py).

They are the whole-program algorithms the analyses used before they were made
near-linear: fixpoints by sweeping every function until nothing changes,
call-graph reachability by a search from every function, a read's writers
looked up on every visit, one full data-dependence search per branch, every
slice computed from scratch. Slow on big programs, obviously right on small ones.
"""

from __future__ import annotations

from distaff.analysis import ir
from distaff.analysis.ir import Call, Intrinsic, Op, Return, successors
from distaff.analysis.static import access
from distaff.analysis.liveness import used
from distaff.analysis.static.defuse import ENTRY
from distaff.analysis.static.reach import INF, _dijkstra, _ends_thread, _step_costs
from distaff.analysis.static.slicing import _ALWAYS, _Slicer, find_assertion
from distaff.analysis.summaries.slicing import BRANCH, JOIN, LOOP, WRITE, _HARMLESS_SYNC, _WRITE_OPS


def returning(program, facts) -> dict:
    through = {f.name: INF for f in program.functions}
    for _ in range(len(program.functions) + 1):
        changed = False
        for f in program.functions:
            d = _dijkstra(f.body, _step_costs(f, facts, through), {0: 0}, forward=True)
            best = INF
            for pc, instr in enumerate(f.body):
                if isinstance(instr, Return) or (not successors(f.body, pc) and not _ends_thread(instr)):
                    best = min(best, d[pc] + 1)
            if best < through[f.name]:
                through[f.name] = best
                changed = True
        if not changed:
            break
    return {k: (None if v == INF else int(v)) for k, v in through.items()}


def reach(program, assertion_id, facts) -> tuple[dict, dict]:
    """``(dist table, via_return)`` as :class:`distaff.analysis.static.reach.Reach` holds them."""
    target_func, target_pc = find_assertion(program, assertion_id)
    calls = facts.calls
    through = {k: (INF if v is None else v) for k, v in returning(program, facts).items()}
    funcs = list(program.functions)  # every function: the irrelevant ones end up absent
    costs = {f.name: _step_costs(f, facts, through) for f in funcs}
    entry = {f.name: INF for f in funcs}
    dist = {}
    for _ in range(len(funcs) + 1):
        changed = False
        for f in funcs:
            sources = {target_pc: 0} if f.name == target_func else {}
            for pc, instr in enumerate(f.body):
                if isinstance(instr, Call):
                    names = calls.callees_at(f.name, pc)
                elif isinstance(instr, Intrinsic) and instr.op is Op.THREAD_CREATE:
                    names = calls.routines_at(f.name, pc)
                else:
                    continue
                best = min((entry.get(g, INF) for g in names), default=INF)
                if best < INF and 1 + best < sources.get(pc, INF):
                    sources[pc] = 1 + best
            d = _dijkstra(f.body, costs[f.name], sources, forward=False)
            dist[f.name] = d
            if f.body and d[0] < entry[f.name]:
                entry[f.name] = d[0]
                changed = True
        if not changed:
            break
    table = {n: tuple(None if x == INF else int(x) for x in d) for n, d in dist.items() if any(x < INF for x in d)}
    call_succ = facts.call_successors
    via = {f.name: INF for f in funcs}
    for _ in range(len(funcs) + 1):
        changed = False
        for f in funcs:
            best = INF
            for caller, pc in calls.call_sites_of(f.name):
                d = table.get(caller)
                if d is not None:
                    for s in call_succ.get((caller, pc), ()):
                        if d[s] is not None:
                            best = min(best, d[s])
                best = min(best, via[caller])
            if best < via[f.name]:
                via[f.name] = best
                changed = True
        if not changed:
            break
    return table, {k: int(v) for k, v in via.items() if v != INF}


class _PlainSlicer(_Slicer):
    """The slicer with a read's writers looked up again on every visit."""

    def _need_read(self, locs, size):
        for site in self.facts.writers.writers(locs, size):
            self.add(*site)
            self._need_written_value(*site)


def slice_pcs(program, assertion_id, facts, other_assertions=True) -> dict:
    """The slice from scratch (no shared base), as ``{func: set of pcs}``."""
    slicer = _PlainSlicer(program, facts)
    for f in program.functions:
        for i, instr in enumerate(f.body):
            if isinstance(instr, Call) or (
                isinstance(instr, Intrinsic) and (instr.op in _ALWAYS or (other_assertions and instr.op is Op.ASSERT))
            ):
                slicer.add(f.name, i)
    slicer.add(*find_assertion(program, assertion_id))
    slicer.run()
    return {f: p for f, p in slicer.pcs.items() if p}


def recursive_calls(program, calls) -> set:
    reached = {}
    for f in program.functions:
        seen, todo = set(), [f.name]
        while todo:
            for c in calls.called_from(todo.pop()):
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
        reached[f.name] = seen
    return {(f.name, pc) for f in program.functions for pc, i in enumerate(f.body) if isinstance(i, Call)
            for c in calls.callees_at(f.name, pc) if c == f.name or f.name in reached.get(c, ())}


def blockers(guide) -> dict:
    """What :meth:`SliceGuide._blockers` computes, by sweeping every function."""
    P, calls = guide.program, guide.calls
    recursive = recursive_calls(P, calls)
    local = {}
    for f in P.functions:
        row = []
        for pc, i in enumerate(f.body):
            k = 0
            if any(s <= pc for s in ir.successors(f.body, pc)) or (f.name, pc) in recursive:
                k |= LOOP
            if isinstance(i, ir.Branch):
                k |= BRANCH
            if isinstance(i, Intrinsic):
                if i.op is Op.THREAD_JOIN:
                    k |= JOIN
                elif i.op in ir.SYNC_OPS and i.op not in _HARMLESS_SYNC:
                    k |= WRITE
                elif i.op in _WRITE_OPS and guide.own.contains(f.name, pc):
                    k |= WRITE
            elif isinstance(i, ir.Store) and guide.own.contains(f.name, pc):
                k |= WRITE
            row.append(k)
        local[f.name] = row
    entry = {f.name: 0 for f in P.functions}
    table = {}
    for _ in range(len(P.functions) + 2):
        changed = False
        for f in P.functions:
            row = list(local[f.name])
            for pc, i in enumerate(f.body):
                if isinstance(i, Call):
                    for c in calls.callees_at(f.name, pc):
                        row[pc] |= entry[c]
                elif isinstance(i, Intrinsic) and i.op is Op.THREAD_CREATE:
                    for r in calls.routines_at(f.name, pc):
                        row[pc] |= entry[r]
            for _ in range(len(f.body) + 1):
                moved = False
                for pc in range(len(f.body) - 1, -1, -1):
                    v = row[pc]
                    for s in ir.successors(f.body, pc):
                        v |= row[s]
                    if v != row[pc]:
                        row[pc], moved = v, True
                if not moved:
                    break
            table[f.name] = row
            if (row[0] if row else 0) != entry[f.name]:
                entry[f.name] = row[0] if row else 0
                changed = True
        if not changed:
            break
    return table


def type_b(guide, func, pc) -> bool:
    """One full data-dependence search per branch."""
    facts, P, calls = guide.facts, guide.program, guide.calls
    pb = P.data_model.pointer_bits // 8
    seen, work = set(), [(func, pc)]
    while work:
        site = work.pop()
        if site in seen:
            continue
        seen.add(site)
        f, p = site
        fn = P.function(f)
        instr = fn.body[p]
        for r in used(instr):
            for d in facts.reaching_definitions(f).reaching(p, r):
                if d != ENTRY:
                    work.append((f, d))
                    if isinstance(fn.body[d], Call):
                        for callee in calls.callees_at(f, d):
                            work.extend((callee, q) for q, i in enumerate(P.function(callee).body)
                                        if isinstance(i, Return))
                elif any(prm.name == r for prm in fn.params):
                    work.extend(calls.call_sites_of(f) + calls.create_sites_of(f))
        for operand, locs in zip(access.operands(instr, pb), facts.points_to.operand_ids(f, p)):
            if operand.role is access.Role.READ:
                work.extend(facts.writers.writers(locs, operand.size))
    return not any(guide.full.contains(f, p) for f, p in seen)
