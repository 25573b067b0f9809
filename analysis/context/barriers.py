"""Barriers at a context: expected counts, and matching of barrier loops.

*Expected counts* (``Bcnts``, arbitrary-context paper §4.4): every
``pthread_barrier_init(b, attr, n)`` the walk of ``main`` met, grouped by
the barrier's address term; at the context, a barrier's expected count is
one of the counts of the inits that may have initialised it.

*Barrier matching* (§4.4, after Zhang and Duesterwald, extended with
symbolic trip counts): threads that wait on the same barrier in lock-step
loops start from the same dynamic iteration, so their induction variables
are equal. We claim it for two context threads only when all of this holds:

* each is inside a loop (one entry, no nested cycle) of its innermost
  frame whose body waits on barrier ``b`` (its address a constant term),
  every path through the body waits the same number of times, and the
  thread's pc has the same number of waits behind it in the iteration;
* before the loop, each passed ``b`` the same number of times: the waits on
  straight paths plus, for each earlier loop that waits, its per-iteration
  count times its *symbolic trip count* ``bound - init`` -- kept only when
  it mentions no per-thread symbol (the paper discards trip counts that
  depend on shared memory; ours come from must-reaching definitions, so a
  per-thread symbol is what would differ);
* ``b``'s expected count is a single constant equal to the number of
  context threads that may wait on ``b`` (each episode then needs all of
  them), and no other frame of either thread waits on ``b``;
* the loops have induction variables with the same start and step.

Then every episode of ``b`` was passed by both the same number of times, so
their iteration numbers, hence induction variables, are equal.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis import ir
from distaff.analysis.context.reaching import Activation, Walker, base_key, scc_ids
from distaff.analysis.context.terms import Sym, address_parts, fold, is_constant, leaves, show
from distaff.analysis.context.threads import ThreadStart
from distaff.analysis.ir import Binary, Branch, Const, Intrinsic, Op


@dataclass(frozen=True, slots=True)
class LoopPosition:
    """Where a thread stands in a barrier loop: barrier ``barrier`` (address
    term), the loop head, waits per iteration and before the pc, the
    induction variable's term at the head with its start and step, and the
    waits before the loop (a sorted tuple of (count, trip-term text))."""

    barrier: object
    head: int
    per_iteration: int
    position: int
    induction: Sym
    init: object
    step: int
    prefix: tuple


def expected_counts(inits: list[tuple[object, object]]) -> dict:
    """Barrier address term -> the count terms of its inits (in order, no repeats)."""
    out: dict = {}
    for addr, count in inits:
        lst = out.setdefault(addr, [])
        if count not in lst:
            lst.append(count)
    return out


def _waits(f: ir.Function, pcs) -> list[int]:
    return [pc for pc in pcs if isinstance(f.body[pc], Intrinsic) and f.body[pc].op is Op.BARRIER_WAIT]


def loop_position(walker: Walker, start: ThreadStart, act: Activation) -> LoopPosition | None:
    """The thread's position in a barrier loop of its innermost frame, or None."""
    f = act.func
    pc = start.pc
    ids = scc_ids(f)
    comp = ids.get(pc)
    if comp is None:
        return None
    body = {p for p, c in ids.items() if c == comp}
    heads = [p for p in body if any(q not in body for q in _preds(f, p)) or p == 0]
    if len(heads) != 1:
        return None
    head = heads[0]
    back = [q for q in _preds(f, head) if q in body]
    # a nested cycle: some body node other than the head is entered from a later pc
    if any(s <= p and s != head for p in body for s in f.successors(p) if s in body):
        return None
    waits = _waits(f, sorted(body))
    if not waits or any(isinstance(f.body[p], ir.Call) for p in body):
        return None
    barrier = _barrier_term(walker, act, waits[0])
    if barrier is None or any(_barrier_term(walker, act, w) != barrier for w in waits):
        return None
    counts = _counts_from(f, head, body, set(waits))
    per_iter = {counts[q] + (1 if q in waits else 0) for q in back if counts.get(q) is not None}
    if len(per_iter) != 1 or counts.get(pc) is None:
        return None
    iv = _induction(walker, act, head, body)
    if iv is None:
        return None
    sym, init, step = iv
    prefix = _prefix(walker, act, head, body, barrier)
    if prefix is None:
        return None
    return LoopPosition(barrier, head, per_iter.pop(), counts[pc], sym, init, step, prefix)


def _preds(f: ir.Function, pc: int) -> list[int]:
    return [p for p in range(len(f.body)) if pc in f.successors(p)]


def _barrier_term(walker: Walker, act: Activation, pc: int):
    env = act.env_in[pc]
    if env is None:
        return None
    t = walker.term(env, act.func.name, act.func.body[pc].args[0], act.frame)
    parts = address_parts(t)
    return t if parts is not None and is_constant(t) else None


def _counts_from(f: ir.Function, head: int, body: set[int], waits: set[int]) -> dict:
    """Waits executed from the head to each body pc within one iteration
    (None where paths disagree)."""
    counts: dict = {head: 0}
    order = sorted(body)
    changed = True
    while changed:
        changed = False
        for p in order:
            if p not in counts:
                continue
            c = counts[p]
            out = None if c is None else c + (1 if p in waits else 0)
            for s in f.successors(p):
                if s not in body or s == head:
                    continue
                if s not in counts:
                    counts[s] = out
                    changed = True
                elif counts[s] != out and counts[s] is not None:
                    counts[s] = None
                    changed = True
    return counts


def _induction(walker: Walker, act: Activation, head: int, body: set[int]):
    """``(symbol at the head, start term, step)`` of a register that every
    iteration moves by the same constant, or None (the first such register)."""
    found = inductions(walker, act, head, body)
    return found[0] if found else None


def inductions(walker: Walker, act: Activation, head: int, body: set[int]) -> list:
    """Every induction variable of the loop at ``head``: ``(symbol at the
    head, start term, step)``, its start mentioning no per-thread symbol."""
    f = act.func
    env = act.env_in[head]
    if env is None or head == 0:
        return []
    outside = [q for q in _preds(f, head) if q not in body]
    inside = [q for q in _preds(f, head) if q in body]
    out = []
    for name, v in sorted(env.regs.items()):
        if not (isinstance(v, Sym) and v.origin == (act.frame, head)):
            continue
        steps = set()
        for q in inside:
            w = _after(walker, act, q).regs.get(name) if act.env_in[q] is not None else None
            if isinstance(w, Binary) and w.op in ("+", "-") and w.left == v and isinstance(w.right, Const):
                steps.add(w.right.value if w.op == "+" else -w.right.value)
            else:
                steps.add(None)
        if len(steps) != 1 or None in steps:
            continue
        inits = {_after(walker, act, q).regs.get(name) for q in outside if act.env_in[q] is not None}
        if len(inits) != 1 or None in inits:
            continue
        init = inits.pop()
        if any(isinstance(x, Sym) and x.per_thread for x in leaves(init)):
            continue
        out.append((v, init, steps.pop()))
    return out


def _after(walker: Walker, act: Activation, pc: int):
    env = act.env_in[pc]
    i = act.func.body[pc]
    if isinstance(i, (ir.Jump, Branch)):
        return env
    out = walker._transfer(act, pc, env, False, 0, (act.func.name,), [], False)
    return out if out is not None else env


def _prefix(walker: Walker, act: Activation, head: int, body: set[int], barrier) -> tuple | None:
    """Waits on ``barrier`` on every path from the frame's entry to the loop
    head: a sorted tuple of ``(count, trip text)`` items (constant items have
    trip text ''), or None when paths disagree or a trip count is unknown."""
    f = act.func
    ids = scc_ids(f)
    before: dict[int, tuple | None] = {0: ()}
    order = range(len(f.body))
    loops_done: dict = {}
    changed = True
    while changed:
        changed = False
        for p in order:
            if p not in before or p in body:
                continue
            cur = before[p]
            comp = ids.get(p)
            if comp is not None and comp not in loops_done:
                loops_done[comp] = _loop_item(walker, act, comp, ids, barrier)
            if comp is not None:
                item = loops_done[comp]
                nxt = None if cur is None or item is None else tuple(sorted(cur + ((item,) if item[0] else ())))
                exits = [s for q, c in ids.items() if c == comp for s in f.successors(q) if ids.get(s) != comp]
                targets = exits
            else:
                w = isinstance(f.body[p], Intrinsic) and f.body[p].op is Op.BARRIER_WAIT
                if w and _barrier_term(walker, act, p) != barrier:
                    return None
                nxt = None if cur is None else tuple(sorted(cur + (((1, ""),) if w else ())))
                targets = list(f.successors(p))
            for s in targets:
                if ids.get(s) is not None and ids.get(s) == comp:
                    continue
                if s not in before:
                    before[s] = nxt
                    changed = True
                elif before[s] != nxt and before[s] is not None:
                    before[s] = None
                    changed = True
    out = before.get(head)
    if out is None:
        return None
    total = 0
    items = []
    for k, trip in out:
        if trip == "":
            total += k
        else:
            items.append((k, trip))
    return tuple(sorted(items)) + (((total, ""),) if total else ())


def _loop_item(walker: Walker, act: Activation, comp: int, ids: dict, barrier):
    """``(waits per iteration, trip count text)`` of an earlier loop; (0, '')
    when it does not wait; None when its waits cannot be counted."""
    f = act.func
    body = {p for p, c in ids.items() if c == comp}
    waits = _waits(f, sorted(body))
    if not waits:
        return (0, "")
    if any(_barrier_term(walker, act, w) != barrier for w in waits):
        return None
    heads = [p for p in body if any(q not in body for q in _preds(f, p))]
    if len(heads) != 1:
        return None
    head = heads[0]
    counts = _counts_from(f, head, body, set(waits))
    back = [q for q in _preds(f, head) if q in body]
    per_iter = {counts.get(q) + (1 if q in waits else 0) for q in back if counts.get(q) is not None}
    if len(per_iter) != 1:
        return None
    trip = _trip_count(walker, act, head, body)
    if trip is None:
        return None
    return (per_iter.pop(), show(trip))


def _trip_count(walker: Walker, act: Activation, head: int, body: set[int]):
    """``bound - start`` of a loop ``for (i = start; i < bound; i++)`` whose
    start and bound mention no per-thread symbol, else None."""
    iv = _induction(walker, act, head, body)
    if iv is None or iv[2] != 1:
        return None
    sym, init, _ = iv
    f = act.func
    for p in sorted(body):
        i = f.body[p]
        if isinstance(i, Branch) and ((i.then in body) != (i.other in body)):
            cond = walker.term(act.env_in[p], f.name, i.cond, act.frame)
            stay_true = i.then in body
            if isinstance(cond, Binary) and cond.left == sym and (cond.op == "<" if stay_true else cond.op == ">="):
                bound = cond.right
                if any(isinstance(x, Sym) and x.per_thread for x in leaves(bound)):
                    return None
                return fold(Binary("-", bound, init, sym.type))
            return None
    return None


def participants(program: ir.Program, walker: Walker, starts: list[ThreadStart], barrier) -> int:
    """How many context threads may wait on the barrier at ``barrier``."""
    facts = walker.facts
    base = address_parts(barrier)
    if base is None:
        return -1
    obj = _pts_object(walker, base[0])
    n = 0
    for t in starts:
        hit = False
        for fname in facts.calls.reachable(t.routine or t.func):
            f = program.function(fname)
            if f is None:
                continue
            for pc, i in enumerate(f.body):
                if isinstance(i, Intrinsic) and i.op is Op.BARRIER_WAIT:
                    targets = facts.points_to.operand_ids(fname, pc)
                    if not targets or not targets[0] or any(o == obj for o, _ in targets[0]):
                        hit = True
        n += hit
    return n


def _pts_object(walker: Walker, leaf) -> int | None:
    b = base_key(leaf)
    return walker._object_of(b) if b is not None else None


def other_waits(program: ir.Program, walker: Walker, start: ThreadStart) -> bool:
    """Whether the thread's routine may wait on a barrier outside its
    innermost function (outer frames and other callees: not counted)."""
    inner = start.func
    for fname in walker.facts.calls.reachable(start.routine or inner):
        if fname == inner:
            continue
        f = program.function(fname)
        if f is not None and _waits(f, range(len(f.body))):
            return True
    return False


def matches(program: ir.Program, walker: Walker, starts: list[ThreadStart], positions: list,
            counts: dict) -> list[tuple[int, Sym, int, Sym]]:
    """Pairs of given threads (indices into ``starts``) whose induction
    variables are equal by barrier matching (see the module docstring)."""
    out = []
    by_barrier: dict = {}
    for k, pos in enumerate(positions):
        if pos is None or other_waits(program, walker, starts[k]):
            continue
        by_barrier.setdefault(pos.barrier, []).append(k)
    for barrier, ks in by_barrier.items():
        cs = counts.get(barrier, [])
        if len(cs) != 1 or not isinstance(cs[0], Const):
            continue
        if participants(program, walker, starts, barrier) != cs[0].value:
            continue
        first = positions[ks[0]]
        for k in ks[1:]:
            p = positions[k]
            if (p.per_iteration, p.position, p.init, p.step, p.prefix) == \
                    (first.per_iteration, first.position, first.init, first.step, first.prefix):
                out.append((ks[0], first.induction, k, p.induction))
    return out
