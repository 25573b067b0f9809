"""A thread-modular prover: assertions that hold whatever the number of threads.

Exploring runs proves nothing about a program that starts threads in a loop
without end: there is always one more thread. This prover reasons about each
thread's code once, against an *interference invariant* for every memory
object: an abstract value (:mod:`~distaff.analysis.modular.intervals`) that
contains the object's initial value and every value any thread's store may
put there. Whatever the interleaving and however many threads run a routine,
every value an object ever holds is in its invariant, so a thread's reads are
read from it (Owicki-Gries with a non-relational domain; Miné's
thread-modular abstract interpretation):

* Each function that runs as a thread (``main`` and every routine a
  ``pthread_create`` starts) is analysed flow-sensitively over its IR, its
  registers as intervals, from the join of the arguments all its creations
  pass. The invariants and the arguments grow until nothing changes (widened
  after a few rounds to the type's bounds).
* *Protection.* An object every access of which, in every thread, holds one
  mutex (a must-lockset along the code; mutexes named by object and
  constant offset) cannot change while a thread holds that mutex, so inside
  the critical section the thread's own stores are read back exactly (keyed
  by the address expression, while its registers keep their values) instead
  of the invariant. Inside an atomic region (``__VERIFIER_atomic_*``, the
  regions C11 atomics lower to) no other thread runs, so the same holds for
  every object. The locksets come from a first round with no protection at
  all, whose accesses include every real one.
* An assertion is proved when its condition excludes zero in every abstract
  state that reaches it.

A call is analysed in the caller's state, once per call site and state
(so a helper's result and stores are those of its arguments), a
``__VERIFIER_atomic_*`` function as an atomic region.

The prover never claims a violation, and it abstains (returns no proof) on
what it cannot follow soundly: calls through function pointers, recursion,
heap memory, ``memcpy``/``memset``, stores through a pointer it cannot
resolve, an object accessed with two sizes, floating point, try-locks,
read-write locks, barriers. Signed arithmetic that overflows ends its run (a run-time
error, as the engine reports it), so only the values in range go on.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from distaff.analysis import ir
from distaff.analysis.frontend.lower import loop_ranges
from distaff.analysis.memo import ProgramMemo
from distaff.analysis.modular import intervals as D
from distaff.analysis.modular.intervals import ANY, BOTTOM, Val

ANY_NUMBER_OF_THREADS = "for any number of threads"  # how a proof of the prover is said
ROUNDS_BEFORE_WIDENING = 3
MAX_CALL_DEPTH = 16
VISITS_BEFORE_WIDENING = 3
ATOMIC = "<atomic>"  # the pseudo-lock of an atomic region
# library functions that only read through the pointers they are given
READ_ONLY_EXTERNALS = frozenset({"atoi", "atol", "atoll", "strlen", "strcmp", "strncmp", "printf", "puts"})


class Unsupported(Exception):
    """What the prover cannot follow soundly; the message says what."""


@dataclass(frozen=True, slots=True)
class Bound:
    """The values ``lo <= v <= hi`` (None: no bound on that side) of integer type ``type``."""

    lo: int | None
    hi: int | None
    type: ir.IntType


@dataclass(frozen=True, slots=True)
class Proof:
    """The prover's answer for a program: the assertion sites (``func:pc``)
    it proved, the invariants of the shared objects it proved them from
    (object name, text), and, when it proved nothing, why (empty when it ran
    and no assertion held in its domain).

    What else holds in every run, whatever the number of threads, for a
    program context to assume: ``globals``, the bound of every element of
    an integer global (a scalar, or an array of one integer type accessed
    only as its elements); ``frames``, per ``(function, pc)`` the bounds of
    the integers a thread about to run that instruction holds in the
    function's registers (by name), in its private stack objects (objects
    no other thread can reach: ``("stack", name, offset)``) and in the
    globals it knows exactly there (under the mutex every access to them
    holds, or in an atomic region: ``("global", name, offset)``); objects
    accessed only as their integer elements. A pc no run reaches has none."""

    proved: frozenset[str]
    invariants: tuple[tuple[str, str], ...]
    abstained: str = ""
    globals: tuple[tuple[str, Bound], ...] = ()
    frames: Mapping[tuple[str, int], tuple[tuple[object, Bound], ...]] = field(default_factory=dict)

    def invariant_text(self) -> str:
        return invariants_text(self.invariants)


def invariants_text(invariants: tuple[tuple[str, str], ...]) -> str:
    """``issued in [0, 4]; seat_taken in [0, 1]``: invariants as a proof says them."""
    return "; ".join(f"{name} {text}" for name, text in invariants) or "no shared object is written"


_NO_EFFECT = frozenset({
    ir.Op.MUTEX_INIT, ir.Op.MUTEX_DESTROY, ir.Op.COND_INIT, ir.Op.COND_DESTROY, ir.Op.COND_SIGNAL,
    ir.Op.COND_BROADCAST, ir.Op.FENCE, ir.Op.SEM_INIT, ir.Op.SEM_DESTROY, ir.Op.SEM_WAIT, ir.Op.SEM_POST,
    ir.Op.SEM_TRYWAIT,
})
_UNSUPPORTED_OPS = {
    ir.Op.MUTEX_TRYLOCK: "a try-lock", ir.Op.MALLOC: "heap memory", ir.Op.CALLOC: "heap memory",
    ir.Op.ALLOCA: "alloca", ir.Op.FREE: "heap memory", ir.Op.MEMSET: "memset", ir.Op.MEMCPY: "memcpy",
    ir.Op.SEM_GETVALUE: "sem_getvalue", ir.Op.ONCE: "pthread_once", ir.Op.ONCE_DONE: "pthread_once",
    ir.Op.BARRIER_INIT: "a barrier", ir.Op.BARRIER_WAIT: "a barrier", ir.Op.BARRIER_DESTROY: "a barrier",
}
_UNSUPPORTED_OPS.update({op: "a read-write lock" for op in ir.RWLOCK_OPS})


class _Path:
    """The abstract state of one thread at a program point: registers,
    the mutexes it surely holds, its atomic depth, what it knows exactly of
    objects it may view (``exact``: (object, address text) -> (value,
    registers of the address)) and which registers hold such a value
    (``loaded``)."""

    __slots__ = ("env", "held", "atomic", "exact", "loaded")

    def __init__(self, env, held, atomic, exact, loaded) -> None:
        self.env: dict[str, Val] = env
        self.held: frozenset[str] = held
        self.atomic: int = atomic
        self.exact: dict[tuple[str, str], tuple[Val, frozenset[str]]] = exact
        self.loaded: dict[str, tuple[str, str]] = loaded

    def copy(self) -> "_Path":
        return _Path(dict(self.env), self.held, self.atomic, dict(self.exact), dict(self.loaded))

    def join(self, other: "_Path", widen_types: dict | None, ptr_bits: int, thresholds: tuple[int, ...]) -> bool:
        """Join ``other`` into this state (widened where ``widen_types`` maps
        register names to types); whether anything changed."""
        if self.atomic != other.atomic:
            raise Unsupported("an atomic region entered on one path and not on another")
        changed = False
        for name in list(self.env):
            b = other.env.get(name)
            a = self.env[name]
            if b is None:
                del self.env[name]
                changed = True
                continue
            j = D.widen(a, b, widen_types[name], ptr_bits, thresholds) \
                if widen_types is not None and name in widen_types else D.join(a, b)
            if j != a:
                self.env[name] = j
                changed = True
        held = self.held & other.held
        if held != self.held:
            self.held, changed = held, True
        for key in list(self.exact):
            b = other.exact.get(key)
            if b is None or b[1] != self.exact[key][1]:
                del self.exact[key]
                changed = True
            else:
                j = D.join(self.exact[key][0], b[0])
                if j != self.exact[key][0]:
                    self.exact[key] = (j, b[1])
                    changed = True
        for reg in list(self.loaded):
            if other.loaded.get(reg) != self.loaded[reg]:
                del self.loaded[reg]
                changed = True
        return changed


class _Round:
    """One analysis of every thread function under fixed protection
    (``protected``: object -> the mutexes every access holds; None: no
    object is protected)."""

    def __init__(self, prover: "_Prover", protected: dict[str, frozenset[str]] | None) -> None:
        self.p = prover
        self.protected = protected
        self.accesses: dict[str, frozenset[str]] = {}  # object -> intersection of the locksets
        self.sizes: dict[str, set[int]] = {}
        self.sites: dict[str, bool] = {}  # assertion id -> proved on every visit so far
        self.calling: list[str] = []  # the functions being analysed, the thread's first
        self.written: set[str] = set()  # the objects stored to within the call being analysed
        # (function, pc) -> its registers and (private stack object, offset)s, all states joined
        self.at: dict[tuple[str, int], dict] = {}

    # -------------------------------------------------------------- memory

    def viewable(self, st: _Path, cell: str) -> bool:
        if st.atomic or self.p.private(cell):
            return True
        guards = self.protected.get(cell) if self.protected is not None else None
        return bool(guards and guards & st.held)

    def access(self, st: _Path, cell: str, size: int) -> None:
        held = st.held | ({ATOMIC} if st.atomic else frozenset())
        seen = self.accesses.get(cell)
        self.accesses[cell] = held if seen is None else seen & held
        self.sizes.setdefault(cell, set()).add(size)

    def forget(self, st: _Path, keep) -> None:
        """Drop what ``st`` knows exactly of objects ``keep`` rejects."""
        for key in [k for k in st.exact if not keep(k[0])]:
            del st.exact[key]
        _prune_loaded(st)

    def load(self, st: _Path, dst: ir.Reg, addr: ir.Expr, t, func: str) -> None:
        a = self.eval(st, addr, func)
        size = ir.type_size(t)
        self.assign(st, dst.name)
        if not a.objs or "*" in a.objs:
            st.env[dst.name] = D.top(t, self.p.ptr_bits)  # anything, or an error that ends the run
            return
        key, regs = _key(addr, a)
        value = BOTTOM
        for cell in a.objs:
            if cell.startswith("fn:"):
                raise Unsupported("a read of a function's code")
            self.access(st, cell, size)
            known = st.exact.get((cell, key)) if self.viewable(st, cell) else None
            if known is not None:
                value = D.join(value, known[0])
            elif self.p.private(cell):  # (the thread's own object, not written here yet)
                value = D.join(value, D.top(t, self.p.ptr_bits))
            else:
                value = D.join(value, self.p.invariant(cell))
        value = self.typed(value, t)
        st.env[dst.name] = value
        if len(a.objs) == 1:
            cell = next(iter(a.objs))
            if self.viewable(st, cell):
                st.exact[(cell, key)] = (value, regs)
                st.loaded[dst.name] = (cell, key)

    def typed(self, v: Val, t) -> Val:
        if isinstance(t, ir.FloatType):
            raise Unsupported("floating point")
        if isinstance(t, ir.IntType):
            return D.top(t, self.p.ptr_bits) if v.objs else D.fit(v, t, self.p.ptr_bits, True)
        return v

    def store(self, st: _Path, addr: ir.Expr, value: Val, t, func: str, conditional: bool) -> None:
        a = self.eval(st, addr, func)
        if not a.objs or "*" in a.objs:
            raise Unsupported("a store through a pointer the prover cannot resolve")
        size = ir.type_size(t)
        key, regs = _key(addr, a)
        self.p.escape(value)
        for cell in a.objs:
            if cell.startswith("fn:"):
                raise Unsupported("a store to a function")
            self.access(st, cell, size)
            self.written.add(cell)
            self.p.write(cell, value, t)
            self.forget(st, lambda c, cell=cell: c != cell)
        if len(a.objs) == 1 and not conditional:
            cell = next(iter(a.objs))
            if self.viewable(st, cell):
                st.exact[(cell, key)] = (value, regs)

    def assign(self, st: _Path, name: str) -> None:
        st.loaded.pop(name, None)
        for key in [k for k, (_, regs) in st.exact.items() if name in regs]:
            del st.exact[key]
        _prune_loaded(st)

    def set_reg(self, st: _Path, name: str, v: Val) -> None:
        self.assign(st, name)
        st.env[name] = v

    # --------------------------------------------------------- expressions

    def eval(self, st: _Path, e, func: str) -> Val:
        ptr_bits = self.p.ptr_bits
        t = type(e)
        if t is ir.Const:
            if isinstance(e.type, ir.FloatType):
                raise Unsupported("floating point")
            if isinstance(e.type, ir.IntType) and e.type.signed:
                return D.const(ir.to_signed(e.value & ir.mask(e.type.bits), e.type.bits))
            return D.const(e.value)
        if t is ir.Reg:
            v = st.env.get(e.name)
            return v if v is not None else D.top(e.type, ptr_bits)
        if t is ir.Addr:
            return Val(0, 0, frozenset({_cell(e, func)}))
        if isinstance(getattr(e, "type", None), ir.FloatType):
            raise Unsupported("floating point")
        if t is ir.Cast:
            v = self.eval(st, e.arg, func)
            if isinstance(e.arg.type, ir.FloatType):
                raise Unsupported("floating point")
            if isinstance(e.type, ir.IntType) and e.type.is_bool:
                return D.const(1) if v.excludes_zero() else D.const(0) if v.is_zero() else Val(0, 1)
            if isinstance(e.type, ir.IntType):
                return D.top(e.type, ptr_bits) if v.objs else D.fit(v, e.type, ptr_bits, True)
            return v  # to a pointer: the same objects (an integer: none, so not dereferenced)
        if t is ir.PtrAdd:
            p = self.eval(st, e.ptr, func)
            off = self.eval(st, e.offset, func)
            s = D.arith("+", Val(p.lo, p.hi), Val(off.lo, off.hi)) or Val(None, None)
            return Val(s.lo, s.hi, p.objs)
        if t is ir.PtrDiff:
            return D.top(e.type, ptr_bits)
        if t is ir.Ite:
            c = self.eval(st, e.cond, func)
            if c.excludes_zero():
                return self.eval(st, e.then, func)
            if c.is_zero():
                return self.eval(st, e.other, func)
            yes, no = st.copy(), st.copy()  # each arm where the condition takes its side
            a = self.eval(yes, e.then, func) if self.refine(yes, e.cond, True, func) else BOTTOM
            b = self.eval(no, e.other, func) if self.refine(no, e.cond, False, func) else BOTTOM
            return D.join(a, b)
        if t is ir.Unary:
            a = self.eval(st, e.arg, func)
            if e.op == "!":
                return D.const(0) if a.excludes_zero() else D.const(1) if a.is_zero() else Val(0, 1)
            if e.op == "-" and not a.objs:
                r = D.arith("-", D.const(0), a)
                return self._fit(r, e.type)
            if e.op == "~" and not a.objs and a.lo is not None and a.lo == a.hi:
                return D.fit(D.const(~a.lo), e.type, ptr_bits, True)
            return D.top(e.type, ptr_bits)
        if t is ir.Binary:
            return self.binary(st, e, func)
        raise Unsupported(f"an expression the prover does not know ({t.__name__})")

    def _fit(self, r: Val | None, t) -> Val:
        if r is None or not isinstance(t, ir.IntType):
            return D.top(t, self.p.ptr_bits)
        return D.fit(r, t, self.p.ptr_bits, wraps=not t.signed)

    def binary(self, st: _Path, e: ir.Binary, func: str) -> Val:
        op = e.op
        a = self.eval(st, e.left, func)
        b = self.eval(st, e.right, func)
        if op in D.FLIP:
            return D.compare(op, a, b)
        if op in ("&&", "||"):
            ta, fa = a.excludes_zero(), a.is_zero()
            tb, fb = b.excludes_zero(), b.is_zero()
            if op == "&&":
                return D.const(1) if ta and tb else D.const(0) if fa or fb else Val(0, 1)
            return D.const(1) if ta or tb else D.const(0) if fa and fb else Val(0, 1)
        if a.objs or b.objs:
            return D.top(e.type, self.p.ptr_bits)
        if op == ">>" and a.lo is not None and a.lo >= 0 and b.lo is not None and b.lo == b.hi and 0 <= b.lo < 64:
            return Val(a.lo >> b.lo, None if a.hi is None else a.hi >> b.lo)
        if op in ("<<", ">>", "|", "^") and a.lo is not None and a.lo == a.hi and b.lo is not None and b.lo == b.hi:
            if op in ("<<", ">>") and not 0 <= b.lo < 64:
                return D.top(e.type, self.p.ptr_bits)
            x = {"<<": lambda: a.lo << b.lo, ">>": lambda: a.lo >> b.lo, "|": lambda: a.lo | b.lo,
                 "^": lambda: a.lo ^ b.lo}[op]()
            # (shifts and bitwise operations wrap: only + - * / % and negation overflow, as the engine checks)
            return D.fit(D.const(x), e.type, self.p.ptr_bits, wraps=True) \
                if isinstance(e.type, ir.IntType) else D.top(e.type, self.p.ptr_bits)
        return self._fit(D.arith(op, a, b), e.type)

    # ---------------------------------------------------------- conditions

    def refine(self, st: _Path, cond, truth: bool, func: str) -> bool:
        """Narrow ``st`` to where ``cond`` is ``truth``; False when no state
        is left (the branch cannot be taken)."""
        v = self.eval(st, cond, func)
        if (truth and v.is_zero()) or (not truth and v.excludes_zero()):
            return False
        t = type(cond)
        if t is ir.Unary and cond.op == "!":
            return self.refine(st, cond.arg, not truth, func)
        if t is ir.Binary and cond.op in ("&&", "||"):
            if (cond.op == "&&") == truth:  # both sides hold (or both fail)
                return self.refine(st, cond.left, truth, func) and self.refine(st, cond.right, truth, func)
            return True
        if t is ir.Binary and cond.op in D.FLIP:
            op = cond.op if truth else D.NEGATE[cond.op]
            a = self.eval(st, cond.left, func)
            b = self.eval(st, cond.right, func)
            return self._narrow(st, cond.left, D.narrow(op, a, b)) and \
                self._narrow(st, cond.right, D.narrow(D.FLIP[op], b, a))
        if t is ir.Reg or t is ir.Cast:
            return self._narrow(st, cond, D.narrow("!=" if truth else "==", v, D.const(0)))
        return True

    def _narrow(self, st: _Path, e, v: Val) -> bool:
        """Give the register ``e`` stands for (through value-preserving
        casts) the narrowed value ``v``."""
        if v.empty:
            return False
        while type(e) is ir.Cast and isinstance(e.type, ir.IntType) and isinstance(e.arg.type, ir.IntType) \
                and not e.type.is_bool:
            lo, hi = D.type_range(e.arg.type, self.p.ptr_bits)
            tlo, thi = D.type_range(e.type, self.p.ptr_bits)
            if not (tlo <= lo and hi <= thi):
                return True
            e = e.arg
        if type(e) is not ir.Reg:
            return True
        old = st.env.get(e.name, D.top(e.type, self.p.ptr_bits))
        new = D.meet(old, v.lo, v.hi) if not v.objs else old
        if new.empty:
            return False
        st.env[e.name] = new
        key = st.loaded.get(e.name)
        if key is not None and key in st.exact:
            known, regs = st.exact[key]
            narrowed = D.meet(known, new.lo, new.hi)
            if narrowed.empty:
                return False
            st.exact[key] = (narrowed, regs)
        return True

    # -------------------------------------------------------- instructions

    def function(self, fn: ir.Function, entry: dict[str, Val]) -> None:
        """Analyse ``fn`` as a thread from ``entry`` (parameter values)."""
        self.calling = [fn.name]
        self.body(fn, _Path(dict(entry), frozenset(), 0, {}, {}))

    def body(self, fn: ir.Function, start: _Path) -> tuple[_Path | None, Val]:
        """Analyse ``fn``'s body from ``start``: the join of the states at
        its returns (None: it never returns) and of the values returned."""
        body = fn.body
        heads = ir.loop_heads(fn)
        states: dict[int, _Path] = {0: start}
        visits: dict[int, int] = {}
        work = [0]
        types = _reg_types(fn)
        exit_state: _Path | None = None
        returned = BOTTOM
        while work:
            pc = min(work)
            work.remove(pc)
            st = states[pc].copy()
            if type(body[pc]) is ir.Return:
                if body[pc].value is not None:
                    returned = D.join(returned, self.eval(st, body[pc].value, fn.name))
                if exit_state is None:
                    exit_state = st
                else:
                    exit_state.join(st, None, self.p.ptr_bits, self.p.thresholds)
                continue
            for nxt, out in self.step(fn, pc, st):
                if nxt >= len(body):
                    continue
                have = states.get(nxt)
                if have is None:
                    states[nxt] = out
                    work.append(nxt)
                    continue
                visits[nxt] = visits.get(nxt, 0) + 1
                widen = types if nxt in heads and visits[nxt] > VISITS_BEFORE_WIDENING else None
                if have.join(out, widen, self.p.ptr_bits, self.p.thresholds) and nxt not in work:
                    work.append(nxt)
        for pc, st in states.items():
            self.reached(fn.name, pc, st)
        return exit_state, returned

    def reached(self, func: str, pc: int, st: _Path) -> None:
        """Join what a state reaching ``func``'s ``pc`` knows of its
        registers, of its function's own private stack objects and of the
        globals it knows exactly (under the mutex that protects them, or in
        an atomic region), by constant offset, into what the others know:
        one path's unknown is unknown."""
        mine = f"{func}:"
        known = dict(st.env)
        known.update({(cell, int(key[1:])): v for (cell, key), (v, _) in st.exact.items()
                      if key.startswith("+") and (cell in self.p.initial or cell.startswith(mine)
                                                  and self.p.private(cell))})
        have = self.at.get((func, pc))
        if have is None:
            self.at[(func, pc)] = known
            return
        for name in list(have):
            b = known.get(name)
            if b is None:
                del have[name]
            else:
                have[name] = D.join(have[name], b)

    def call(self, fn: ir.Function, i: ir.Call, st: _Path) -> _Path | None:
        """``st`` after the call ``i`` (None when the callee never returns):
        the callee is analysed in the caller's state, its parameters bound to
        the arguments; it sees what the caller knows of objects at constant
        addresses, and the caller keeps what it knew through its registers of
        objects the callee did not write. A ``__VERIFIER_atomic_*`` function
        runs as an atomic region."""
        if type(i.callee) is not ir.Addr or i.callee.kind is not ir.ObjKind.FUNCTION:
            raise Unsupported("a call through a function pointer")
        callee = self.p.program.function(i.callee.name)
        if callee is None:
            raise Unsupported(f"a call of {i.callee.name}, which has no body")
        if callee.name in self.calling or len(self.calling) > MAX_CALL_DEPTH:
            raise Unsupported(f"recursion through {callee.name}")
        args = [self.eval(st, a, fn.name) for a in i.args]
        env = {p.name: (args[k] if k < len(args) else D.top(p.type, self.p.ptr_bits))
               for k, p in enumerate(callee.params)}
        constant = {k: v for k, v in st.exact.items() if not v[1]}
        start = _Path(env, st.held, st.atomic + (1 if callee.atomic else 0), dict(constant), {})
        outer, self.written = self.written, set()
        self.calling.append(callee.name)
        try:
            end, returned = self.body(callee, start)
        finally:
            self.calling.pop()
            wrote, self.written = self.written, outer | self.written
        if end is None:
            return None
        if callee.atomic:
            end.atomic -= 1
        if end.atomic != st.atomic:
            raise Unsupported(f"{callee.name} returns inside an atomic region it opened")
        mine = f"{callee.name}:"
        exact = {k: v for k, v in st.exact.items() if v[1] and k[0] not in wrote}
        exact.update((k, v) for k, v in end.exact.items() if not v[1] and not k[0].startswith(mine))
        out = _Path(st.env, end.held, st.atomic, exact, {r: k for r, k in st.loaded.items() if k in exact})
        self.forget(out, lambda c: self.viewable(out, c))
        if i.dst is not None:
            self.set_reg(out, i.dst.name, self.typed(returned, i.dst.type) if not returned.empty
                         else D.top(i.dst.type, self.p.ptr_bits))
        return out

    def step(self, fn: ir.Function, pc: int, st: _Path):
        """The successors of ``pc`` with their states."""
        i = fn.body[pc]
        t = type(i)
        name = fn.name
        if t is ir.Assign:
            self.set_reg(st, i.dst.name, self.eval(st, i.expr, name))
            return [(pc + 1, st)]
        if t is ir.Load:
            if i.type is not None and isinstance(i.type, ir.FloatType):
                raise Unsupported("floating point")
            self.load(st, i.dst, i.addr, i.type, name)
            return [(pc + 1, st)]
        if t is ir.Store:
            v = self.eval(st, i.value, name)
            conditional = False
            if i.only_if is not None:
                c = self.eval(st, i.only_if, name)
                if c.is_zero():
                    return [(pc + 1, st)]
                conditional = not c.excludes_zero()
            self.store(st, i.addr, v, i.type, name, conditional)
            return [(pc + 1, st)]
        if t is ir.Jump:
            return [(i.target, st)]
        if t is ir.Branch:
            out = []
            yes = st.copy()
            if self.refine(yes, i.cond, True, name):
                out.append((i.then, yes))
            if self.refine(st, i.cond, False, name):
                out.append((i.other, st))
            return out
        if t is ir.Return:
            return []
        if t is ir.Call:
            out = self.call(fn, i, st)
            return [] if out is None else [(pc + 1, out)]
        if t is ir.Intrinsic:
            return self.intrinsic(fn, pc, i, st)
        raise Unsupported(f"an instruction the prover does not know ({t.__name__})")

    def intrinsic(self, fn: ir.Function, pc: int, i: ir.Intrinsic, st: _Path):
        op = i.op
        name = fn.name
        if op in _UNSUPPORTED_OPS:
            raise Unsupported(_UNSUPPORTED_OPS[op])
        if op is ir.Op.ASSERT:
            ok = self.eval(st, i.args[0], name).excludes_zero()
            site = f"{name}:{pc}"
            self.sites[site] = self.sites.get(site, True) and ok
        elif op is ir.Op.ASSUME:
            if not self.refine(st, i.args[0], True, name):
                return []
        elif op in (ir.Op.THREAD_EXIT, ir.Op.EXIT, ir.Op.ABORT):
            return []
        elif op is ir.Op.MUTEX_LOCK:
            if st.atomic:
                raise Unsupported("a lock inside an atomic region")
            if ir.has_deadline(i):
                raise Unsupported("a timed lock")
            st.held = st.held | {self.mutex(st, i.args[0], name)}
        elif op is ir.Op.MUTEX_UNLOCK:
            st.held = st.held - {self.mutex(st, i.args[0], name)}
            self.forget(st, lambda c: self.viewable(st, c))
        elif op is ir.Op.COND_WAIT:
            if st.atomic:
                raise Unsupported("a wait inside an atomic region")
            m = self.mutex(st, i.args[1], name)
            inside = st.held
            st.held = st.held - {m}
            self.forget(st, lambda c: self.viewable(st, c))
            st.held = inside
        elif op is ir.Op.ATOMIC_BEGIN:
            st.atomic += 1
        elif op is ir.Op.ATOMIC_END:
            st.atomic = max(0, st.atomic - 1)
            self.forget(st, lambda c: self.viewable(st, c))
        elif op is ir.Op.THREAD_CREATE:
            self.store(st, i.args[0], Val(None, None), ir.IntType(64, False), name, False)
            arg = self.eval(st, i.args[3], name) if len(i.args) > 3 else D.const(0)
            self.p.escape(arg)
            for routine in self.p.started.get((name, pc), ()):
                self.p.pass_argument(routine, arg)
        elif op is ir.Op.THREAD_JOIN:
            if len(i.args) > 1 and not self.eval(st, i.args[1], name).is_zero():
                self.store(st, i.args[1], Val(None, None, ANY), ir.PtrType(ir.VoidType()), name, False)
        elif op is ir.Op.MAKE_SYMBOLIC:
            raise Unsupported("klee_make_symbolic")
        elif op is ir.Op.EXTERNAL and i.name not in READ_ONLY_EXTERNALS:
            for a in i.args:
                v = self.eval(st, a, name)
                if v.objs and not all(c.startswith("str:") for c in v.objs):
                    raise Unsupported(f"a pointer passed to {i.name or 'a function without body'}")
        elif op not in _NO_EFFECT and op not in (ir.Op.NONDET, ir.Op.THREAD_SELF, ir.Op.EXTERNAL):
            raise Unsupported(f"{op.value}")
        if i.dst is not None:
            self.set_reg(st, i.dst.name, D.top(i.dst.type, self.p.ptr_bits))
        return [(pc + 1, st)]

    def mutex(self, st: _Path, addr, func: str) -> str:
        a = self.eval(st, addr, func)
        if len(a.objs) != 1 or "*" in a.objs or a.lo is None or a.lo != a.hi:
            raise Unsupported("a mutex the prover cannot name (not one object at one offset)")
        return f"{next(iter(a.objs))}+{a.lo}"


class _Prover:
    """The interference invariants and thread arguments, grown to a fixpoint."""

    def __init__(self, program: ir.Program) -> None:
        self.program = program
        self.ptr_bits = program.data_model.pointer_bits
        self.inv: dict[str, Val] = {}
        self.args: dict[str, Val] = {}
        self.changed = False
        self.widening = False
        self.types: dict[str, object] = {}
        self.started = {(s.func, s.pc): s.routines for s in program.threads}
        self.thresholds = _constants(program)
        self.initial: dict[str, Val] = {}
        self.escaped: set[str] = set()  # stack objects whose address another thread may have
        for g in program.globals:
            if g.thread_local:
                raise Unsupported("thread-local storage")
            self.initial[g.name] = self._initial(g)

    def _initial(self, g: ir.GlobalVar) -> Val:
        v = BOTTOM
        covered = 0
        for init in g.init:
            if isinstance(init.type, ir.FloatType):
                raise Unsupported("floating point")
            e = init.value
            if type(e) is ir.Const:
                x = D.const(ir.to_signed(e.value & ir.mask(e.type.bits), e.type.bits)
                            if isinstance(e.type, ir.IntType) and e.type.signed else e.value)
            elif type(e) is ir.Addr:
                x = Val(0, 0, frozenset({_cell(e, "")}))
            else:
                x = Val(None, None, ANY)
            v = D.join(v, x)
            covered += ir.type_size(init.type)
        if covered < ir.type_size(g.type) or not g.init:
            v = D.join(v, D.const(0))  # static storage starts zeroed
        return v

    def private(self, cell: str) -> bool:
        """Is ``cell`` a stack object only its own thread can reach (its
        address never stored to memory nor passed to a thread)?"""
        return cell not in self.initial and ":" in cell and not cell.startswith(("str:", "fn:")) \
            and cell not in self.escaped

    def escape(self, v: Val) -> None:
        new = {c for c in v.objs if c not in self.initial and c != "*"} - self.escaped
        if new:
            self.escaped |= new
            self.changed = True

    def invariant(self, cell: str) -> Val:
        v = self.inv.get(cell)
        if v is not None:
            return v
        init = self.initial.get(cell)
        return init if init is not None else Val(None, None, ANY)  # a stack object: indeterminate

    def write(self, cell: str, value: Val, t) -> None:
        """Add a value stored with type ``t`` to the object's invariant
        (widened to ``t``'s bounds once the rounds go on)."""
        old = self.invariant(cell)
        new = D.join(old, value)
        if self.widening and new != old:
            new = D.widen(old, new, t, self.ptr_bits, self.thresholds)
        if new != old:
            self.inv[cell] = new
            self.changed = True

    def pass_argument(self, routine: str, arg: Val) -> None:
        old = self.args.get(routine, BOTTOM)
        new = D.join(old, arg)
        if self.widening and new != old and not old.empty:
            new = Val(new.lo if new.lo == old.lo else None, new.hi if new.hi == old.hi else None, new.objs)
        if new != old:
            self.args[routine] = new
            self.changed = True

    def threads(self) -> list[tuple[ir.Function, dict[str, Val]]]:
        out = []
        main = self.program.function(self.program.entry)
        if main is None:
            raise Unsupported("no main function")
        out.append((main, {p.name: D.top(p.type, self.ptr_bits) for p in main.params}))
        for name in sorted({r for s in self.program.threads for r in s.routines}):
            fn = self.program.function(name)
            if fn is None:
                raise Unsupported(f"a thread routine without body ({name})")
            entry = {p.name: D.top(p.type, self.ptr_bits) for p in fn.params}
            if fn.params:
                arg = self.args.get(name, BOTTOM)
                entry[fn.params[0].name] = arg if not arg.empty else D.const(0)
            out.append((fn, entry))
        return out

    def round(self, protected) -> _Round:
        self.inv, self.args, self.widening = {}, {}, False
        for n in range(1000):
            self.changed = False
            self.widening = n >= ROUNDS_BEFORE_WIDENING
            r = _Round(self, protected)
            for fn, entry in self.threads():
                r.function(fn, entry)
            if not self.changed:
                break
        else:
            raise Unsupported("the invariants did not settle")
        mixed = sorted(c for c, sizes in r.sizes.items() if len(sizes) > 1)
        if mixed:
            raise Unsupported(f"{_shown(mixed[0])} is accessed with different sizes")
        return r


def prove(program: ir.Program) -> Proof:
    """The assertions of ``program`` that hold for any number of threads of
    every routine it starts, under sequential consistency (the module
    docstring says how, and when the prover abstains)."""
    try:
        p = _Prover(program)
        first = p.round(None)
        protected = {c: held for c, held in first.accesses.items() if held}
        final = p.round(protected)
    except Unsupported as why:
        return Proof(frozenset(), (), str(why))
    proved = frozenset(s for s, ok in final.sites.items() if ok)
    shown = tuple((_shown(c), p.invariant(c).text()) for c in sorted(p.inv)
                  if not c.startswith(("str:", "fn:")) and c in p.initial)
    return Proof(proved, shown, globals=_global_bounds(p, final), frames=_frame_bounds(p, final))


_PROOFS = ProgramMemo(keep=4)


def proof_of(program: ir.Program) -> tuple[Proof, float]:
    """:func:`prove` of ``program`` and the seconds it took, computed once
    per program object (its sites are checked, and its contexts built, one
    after another)."""
    hit = _PROOFS.get(program)
    if hit is None:
        started = time.monotonic()
        proof = prove(program)
        hit = _PROOFS.put(program, (proof, time.monotonic() - started))
    return hit


def _bound(v: Val, t, ptr_bits: int) -> Bound | None:
    """``v`` as a bound of integer type ``t``; None when it says nothing more than ``t`` does."""
    if not isinstance(t, ir.IntType) or v.empty or v.objs:
        return None
    v = D.fit(v, t, ptr_bits, True)
    if (v.lo, v.hi) == D.type_range(t, ptr_bits) or (v.lo is None and v.hi is None):
        return None
    return Bound(v.lo, v.hi, t)


def _global_bounds(p: _Prover, final: _Round) -> tuple[tuple[str, Bound], ...]:
    out = []
    for g in p.program.globals:
        elem = g.type
        while isinstance(elem, ir.ArrayType):
            elem = elem.elem
        if g.is_string or final.sizes.get(g.name, {ir.type_size(elem)}) != {ir.type_size(elem)}:
            continue
        b = _bound(p.invariant(g.name), elem, p.ptr_bits)
        if b is not None:
            out.append((g.name, b))
    return tuple(out)


def _frame_bounds(p: _Prover, final: _Round) -> dict[tuple[str, int], tuple[tuple[object, Bound], ...]]:
    out = {}
    shared: dict = {}
    for g in p.program.globals:
        shared.update(_elements(g.name, g.type, final))
    for fn in p.program.functions:
        types: dict = {**_reg_types(fn), **shared}
        for var in fn.stack:
            types.update(_elements(f"{fn.name}:{var.name}", var.type, final))
        for pc in range(len(fn.body)):
            known = final.at.get((fn.name, pc), {})
            bounds = tuple((_frame_name(what), b) for what, v in sorted(known.items(), key=repr)
                           if (b := _bound(v, types.get(what), p.ptr_bits)) is not None)
            if bounds:
                out[(fn.name, pc)] = bounds
    return out


def _elements(cell: str, t, final: _Round) -> dict:
    """(cell, offset) -> integer type of the elements of an object of type
    ``t``, when every access to it is of one element."""
    elem = t
    while isinstance(elem, ir.ArrayType):
        elem = elem.elem
    size = ir.type_size(elem)
    if not isinstance(elem, ir.IntType) or final.sizes.get(cell, {size}) != {size}:
        return {}
    return {(cell, off): elem for off in range(0, ir.type_size(t) or 0, size)}


def _frame_name(what):
    """A register's name, or ``("stack" | "global", object name, offset)``."""
    if isinstance(what, str):
        return what
    cell, off = what
    return ("stack", _shown(cell), off) if ":" in cell else ("global", cell, off)


def starts_without_bound(program: ir.Program) -> bool:
    """Does ``program`` start threads in a loop that is not counted from
    constants (``for (i = 0; i < N; i++)``: :func:`ir.counted_registers`, its
    counters set only to constants before the loop), or inside such a loop?
    Those are the programs exploring cannot finish; a counted loop's threads it
    explores in full. (It decides only how long exploring may try first: a
    proof of the prover holds either way.)"""
    for site in program.threads:
        fn = program.function(site.func)
        if site.in_loop and fn is not None and not all(
                _counted_from_constants(fn, lo, hi) for lo, hi in loop_ranges(fn.body) if lo <= site.pc <= hi):
            return True
    return False


def _counted_from_constants(fn: ir.Function, lo: int, hi: int) -> bool:
    counters = ir.counted_registers(fn, lo)
    return counters is not None and all(
        type(i) is ir.Assign and type(i.expr) is ir.Const
        for i in fn.body[:lo] if getattr(getattr(i, "dst", None), "name", None) in counters)


def _prune_loaded(st: _Path) -> None:
    """Forget which registers hold a value known exactly that is no longer."""
    for reg in [r for r, k in st.loaded.items() if k not in st.exact]:
        del st.loaded[reg]


def _cell(e: ir.Addr, func: str) -> str:
    if e.kind is ir.ObjKind.STACK:
        return f"{func}:{e.name}"
    if e.kind is ir.ObjKind.FUNCTION:
        return f"fn:{e.name}"
    if e.kind is ir.ObjKind.STRING:
        return f"str:{e.name}"
    return e.name


def _shown(cell: str) -> str:
    return cell.split(":", 1)[1] if ":" in cell else cell


def _key(addr, a: Val) -> tuple[str, frozenset[str]]:
    """How an access's exact knowledge is keyed: by its constant offset into
    its one object, however the address was computed; else by the address
    expression, valid while the registers it reads keep their values."""
    if len(a.objs) == 1 and a.lo is not None and a.lo == a.hi:
        return f"+{a.lo}", frozenset()
    return repr(addr), ir.regs_of(addr)


def _constants(program: ir.Program) -> tuple[int, ...]:
    """The integer constants of the program's code and each one's
    neighbours: the bounds its checks draw (widening's thresholds)."""
    seen: set[int] = {0, 1, -1}
    for fn in program.functions:
        for i in fn.body:
            for e in ir.expressions_of(i):
                for x in ir.nodes(e):
                    if type(x) is ir.Const and isinstance(x.type, ir.IntType):
                        v = ir.to_signed(x.value & ir.mask(x.type.bits), x.type.bits) if x.type.signed else x.value
                        seen.update((v - 1, v, v + 1))
    return tuple(sorted(seen))


def _reg_types(fn: ir.Function) -> dict[str, object]:
    types: dict[str, object] = {p.name: p.type for p in fn.params}
    for i in fn.body:
        dst = getattr(i, "dst", None)
        if type(dst) is ir.Reg:
            types[dst.name] = dst.type
    return types
