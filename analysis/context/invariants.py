"""Synchronization invariants and symbolic wait-queue order (§4.2, §4.3).

The initial state does not say which thread holds which lock: a lock's
state is *settled* the first time a thread touches it
(:func:`settle_lock`), by a fork over what the lockset analysis allows.
With ``L+(T)`` the locks thread T may hold and ``L!(T)`` those it must
hold, a lock at address ``a`` is

* held by T when some ``e`` in ``L+(T)`` equals ``a`` and no other thread
  must hold it;
* free when no ``e`` in any ``L!(T)`` equals ``a``.

This is the paper's invariant ``taken = 0 <=> no held lock equals p``, with
"held" read as "must be held" on one side and "may be held" on the other,
so that the initial state stays an over-approximation when a lock is taken
on some paths to the context only. Without synchronization invariants
(naive contexts, ``--no-sync-invariants``) every lock may be free or held
by any thread of the context. Either way, settling happens where the
engine would first consult the lock: at a lock, trylock, unlock or
condition wait, and never at a scheduling point (where forking is not
allowed): there an unsettled lock is not known to block.

Barriers (§4.3): a barrier the context meets initialised is given its
expected count from ``Bcnts`` (one of the counts its inits may have set,
or a fresh symbol without invariants) and its arrival count from the
initial waiters on it (``L <= arrived <= H`` with ``L = H`` because queue
addresses are concrete here); the count is larger than the arrivals, or
the barrier would have opened.

Initial waiters (§4.2): threads of the context that start blocked in
``pthread_cond_wait`` are entries of the wait queue from the start. The
paper orders them by symbolic timestamps for its first-in-first-out
signal; distaff's signal may wake any waiter on the queue (POSIX leaves
the choice to the scheduler), so no order is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from distaff.analysis.ir import NO_SPAN
from distaff.analysis.symex.pivots import Leaf, LeafKind, LeafReached, Option
from distaff.analysis.symex.state import Symbol
from distaff.analysis.symex.trace import lvalue
from distaff.analysis.symex.unmodelled import CONTEXT


@dataclass(frozen=True, slots=True)
class LockFact:
    """Thread ``tid`` may hold (``must``: must hold) the lock at ``value``
    (an engine value; None: any lock)."""

    value: object
    tid: int
    must: bool


@dataclass(frozen=True, slots=True)
class Settled:
    """The outcome of settling the lock at ``address``: its owner or None (free)."""

    address: int
    owner: int | None


@dataclass(frozen=True, slots=True)
class RunContext:
    """What a context run keeps in its state (``State.ctx``): the primary
    objects made so far, the lock facts and the locks already settled, the
    expected counts of barriers not yet met."""

    primaries: tuple = ()
    resolved: tuple = ()  # ((object-id term, object id, is an object of the state), ...) on this path
    lock_facts: tuple = ()
    settled: frozenset = frozenset()
    barrier_counts: tuple = ()  # ((address, count value), ...)
    unknown_barriers: bool = False  # a barrier never seen initialised gets a fresh count
    # the path condition once the context's own assumptions are in it: what
    # a run depends on is what it adds after them (distaff.analysis.symex.unmodelled)
    premises: object = None


def choose(E, st, make_options, exhaustive: bool = False):
    """``E.fork`` over options that restrict the state rather than cover it:
    the chosen option's condition is checked and added to the path even when
    it was the only one left (the engine takes a lone option as implied)."""
    opt = E.fork(st, make_options, exhaustive=exhaustive)
    if opt.cond is not True:
        if not E.is_sat(st, opt.cond):
            raise LeafReached(Leaf(LeafKind.INFEASIBLE, span=E.span))
        E.constrain(st, opt.cond)
    return opt


def replay_skipped(st, match) -> None:
    """Consume the recorded choice of a fork this instruction made before it
    was re-executed, when the fork is skipped now because its outcome is in
    the state already. The engine re-runs an instruction that pivots from the
    state it had then, replaying its earlier choices by position; a hook that
    changed the state and skips its fork on the second run must take its
    choice off the list, or the next fork would get it. ``match(payload)``
    recognises that choice."""
    if st.forced and match(st.forced[0][1].payload):
        st.instr_taken.append(st.forced.pop(0))


def settle_lock(E, st, a: int) -> None:
    """Decide who holds the lock at concrete address ``a``, if nobody did yet
    (see the module docstring). Forks.

    An instruction that forks again after settling is re-executed from a
    state in which the lock is already settled; its recorded choices are
    replayed by position, so the settling choice is consumed here again."""
    ctx = st.ctx
    if ctx is None:
        return
    if a in ctx.settled:
        replay_skipped(st, lambda p: isinstance(p, Settled) and p.address == a)
        return
    if a in st.locks:
        st.ctx = replace(ctx, settled=ctx.settled | {a})
        return
    V, pb = E.values, E.ptr_bits
    may: dict[int, list] = {}
    must: dict[int, list] = {}
    for fact in ctx.lock_facts:
        if st.threads[fact.tid].status == "ended":
            continue
        eq = True if fact.value is None else V.eq(fact.value, a, pb)
        if eq is False:
            continue
        may.setdefault(fact.tid, []).append(eq)
        if fact.must:
            must.setdefault(fact.tid, []).append(eq)

    def options():
        opts = []
        held = {t: V.or_(*cs) for t, cs in may.items()}
        forced = {t: V.or_(*cs) for t, cs in must.items()}
        for t in sorted(held):
            others = [V.not_(c) for u, c in forced.items() if u != t]
            opts.append(Option(V.and_(held[t], *others), Settled(a, t)))
        opts.append(Option(V.and_(*[V.not_(c) for c in forced.values()]), Settled(a, None)))
        return opts

    owner = choose(E, st, options).payload.owner if may else None
    if owner is not None:
        st.locks[a] = owner
    st.ctx = replace(st.ctx, settled=st.ctx.settled | {a})


def settle_rwlock(st, a: int) -> None:
    """Decide who holds the rwlock at concrete address ``a`` for writing, if
    nobody did yet: the context thread that must hold it, which the initial
    state records among the mutex owners (it does not know which lock is an
    rwlock). Otherwise it starts free, an over-approximation: read locks are
    not in the locksets, and a lock held on some paths only, or at an
    address the analysis cannot fix, is left free. Never forks."""
    ctx = st.ctx
    if ctx is None or a in ctx.settled:
        return
    owner = st.locks.pop(a, None)
    if owner is not None and a not in st.rwlocks:
        st.rwlocks[a] = (owner, ())
    st.ctx = replace(ctx, settled=ctx.settled | {a})


def unsettled(st, a) -> bool:
    """Whether the lock at ``a`` may be held by someone the state does not
    record yet (then a thread trying it is not known to block)."""
    ctx = st.ctx
    return ctx is not None and bool(ctx.lock_facts) and isinstance(a, int) and a not in ctx.settled \
        and a not in st.locks


def barrier_entry(E, st, a: int):
    """The ``(count, arrived)`` of a barrier the run meets without having
    seen it initialised, or None (then it is an error, as without a context)."""
    ctx = st.ctx
    if ctx is None:
        return None
    for addr, count in ctx.barrier_counts:
        if addr == a:
            st.barriers[a] = (count, 0)
            return count, 0
    if ctx.unknown_barriers:
        name = f"count@{lvalue(st, E.layout, a)}"
        term = E.values.fresh(name, 32)
        st.add_symbol(Symbol(name, term, 32, False, NO_SPAN, True, CONTEXT + name))
        st.barriers[a] = (term, 0)
        return term, 0
    return None
