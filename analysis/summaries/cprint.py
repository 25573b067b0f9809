"""Predicate summaries printed as C expressions over program variable names.

Registers print as their C names (with ``@thread`` when two threads' locals
share a name in one summary), bytes of memory read together as the global
(and offset) they belong to, unknown values as ``nondet``; bit-vector
operations as the C operators that made them, widenings and truncations
silently (the summary is about the values a C programmer sees), other
operations by name. Long summaries are cut short with ``...``. Conjuncts
about nothing but stack addresses, thread handles and lowering temporaries
(what keeps the runs a summary covers alike) are left out of the text.

Terms are read by raw pointer (:class:`distaff.analysis.symex.values.Terms`): a
summary has thousands of nodes and z3's Python wrappers cost tens of
microseconds each. Memos are keyed by the pointer itself (z3 hash-conses
terms, and the printed roots are kept alive, so a pointer names one term).
"""

from __future__ import annotations

import ctypes

import z3
from z3 import z3core

from distaff.analysis import floats
from distaff.analysis.ir import type_size
from distaff.analysis.summaries.table import size
from distaff.analysis.summaries.variables import MEMORY, FreeVar, RegVar, StackVar, parse

_BIN = {
    z3.Z3_OP_BADD: "+", z3.Z3_OP_BSUB: "-", z3.Z3_OP_BMUL: "*", z3.Z3_OP_BSDIV: "/", z3.Z3_OP_BUDIV: "/",
    z3.Z3_OP_BSREM: "%", z3.Z3_OP_BUREM: "%", z3.Z3_OP_BAND: "&", z3.Z3_OP_BOR: "|", z3.Z3_OP_BXOR: "^",
    z3.Z3_OP_BSHL: "<<", z3.Z3_OP_BASHR: ">>", z3.Z3_OP_BLSHR: ">>",
    z3.Z3_OP_SLEQ: "<=", z3.Z3_OP_SLT: "<", z3.Z3_OP_SGEQ: ">=", z3.Z3_OP_SGT: ">",
    z3.Z3_OP_ULEQ: "<=", z3.Z3_OP_ULT: "<", z3.Z3_OP_UGEQ: ">=", z3.Z3_OP_UGT: ">",
    z3.Z3_OP_EQ: "==", z3.Z3_OP_IMPLIES: "implies",
}


MAX_TEXT = 300
# most distinct terms a summary may have to be printed (Printer.small)
PRINT_NODES = 20_000

_COMPARE = {
    z3.Z3_OP_SLEQ: "<=", z3.Z3_OP_SLT: "<", z3.Z3_OP_SGEQ: ">=", z3.Z3_OP_SGT: ">",
    z3.Z3_OP_ULEQ: "<=", z3.Z3_OP_ULT: "<", z3.Z3_OP_UGEQ: ">=", z3.Z3_OP_UGT: ">",
    z3.Z3_OP_EQ: "==",
}
_NEGATED = {
    z3.Z3_OP_SLEQ: ">", z3.Z3_OP_SLT: ">=", z3.Z3_OP_SGEQ: "<", z3.Z3_OP_SGT: "<=",
    z3.Z3_OP_ULEQ: ">", z3.Z3_OP_ULT: ">=", z3.Z3_OP_UGEQ: "<", z3.Z3_OP_UGT: "<=",
    z3.Z3_OP_EQ: "!=",
}
_MIRROR = {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "==": "==", "!=": "!="}


_FLOAT_COMPARE = {z3.Z3_OP_FPA_EQ: "==", z3.Z3_OP_FPA_LT: "<", z3.Z3_OP_FPA_GT: ">", z3.Z3_OP_FPA_LE: "<=",
                  z3.Z3_OP_FPA_GE: ">="}
_FLOAT_NUMERALS = frozenset({z3.Z3_OP_FPA_NUM, z3.Z3_OP_FPA_PLUS_ZERO, z3.Z3_OP_FPA_MINUS_ZERO,
                             z3.Z3_OP_FPA_PLUS_INF, z3.Z3_OP_FPA_MINUS_INF, z3.Z3_OP_FPA_NAN})
_FLOAT_CONVERSIONS = frozenset({z3.Z3_OP_FPA_TO_IEEE_BV, z3.Z3_OP_FPA_TO_FP, z3.Z3_OP_FPA_TO_FP_UNSIGNED,
                                z3.Z3_OP_FPA_TO_SBV, z3.Z3_OP_FPA_TO_UBV})
# how each operator of z3's floating-point theory reads in C
_FLOAT_NAMES = {
    **_FLOAT_COMPARE, z3.Z3_OP_FPA_ADD: "+", z3.Z3_OP_FPA_SUB: "-", z3.Z3_OP_FPA_MUL: "*", z3.Z3_OP_FPA_DIV: "/",
    z3.Z3_OP_FPA_IS_NAN: "isnan", z3.Z3_OP_FPA_IS_INF: "isinf", z3.Z3_OP_FPA_ABS: "fabs", z3.Z3_OP_FPA_SQRT: "sqrt",
    z3.Z3_OP_FPA_MIN: "fmin", z3.Z3_OP_FPA_MAX: "fmax",
}
# the terms _float prints
_FLOAT_KINDS = frozenset(_FLOAT_NAMES) | _FLOAT_NUMERALS | _FLOAT_CONVERSIONS | {
    z3.Z3_OP_FPA_NEG, z3.Z3_OP_FPA_IS_ZERO, z3.Z3_OP_FPA_ROUND_TO_INTEGRAL}
_ROUNDING = {z3.Z3_OP_FPA_RM_TOWARD_NEGATIVE: "floor", z3.Z3_OP_FPA_RM_TOWARD_POSITIVE: "ceil",
             z3.Z3_OP_FPA_RM_TOWARD_ZERO: "trunc", z3.Z3_OP_FPA_RM_NEAREST_TIES_TO_AWAY: "round"}


def readable(phi, ms: int):
    """``phi`` in a shorter equivalent form: a disjunct or conjunct the
    others imply goes (``(a <= x) || ((a <= 20) && (a <= x))`` is ``a <= x``),
    a valid formula is ``True``. z3's work is bounded in its own steps and
    conflicts (:data:`READABLE_STEPS`, :data:`READABLE_CONFLICTS`), not in
    time, so that the text does not depend on the machine's load (the editor
    and the command line print the same); ``ms`` is only a safety net.
    ``phi`` itself when that fails or runs out."""
    ctx = phi.ctx
    try:
        goal = z3.Goal(ctx=ctx)
        goal.add(phi)
        tactic = z3.TryFor(z3.Then(z3.With(z3.Tactic("ctx-simplify", ctx), max_steps=READABLE_STEPS),
                                   z3.With(z3.Tactic("ctx-solver-simplify", ctx), max_conflicts=READABLE_CONFLICTS),
                                   ctx=ctx), ms, ctx=ctx)
        out = tactic(goal).as_expr()
    except z3.Z3Exception:
        return phi
    if z3.is_true(out):
        return True
    if z3.is_false(out):
        return False
    return out


# what simplifying one summary for reading may cost (readable): z3's steps and
# conflicts, at most about 120 ms on the examples and Table 2; the milliseconds
# only as a safety net
READABLE_STEPS, READABLE_CONFLICTS, READABLE_MS = 100_000, 100, 1000

_UNSIGNED = {8: "unsigned char", 16: "unsigned short", 32: "unsigned", 64: "unsigned long long"}


class Printer:
    """Prints summaries of one check (``engine`` names the objects)."""

    def __init__(self, engine, program):
        self.E = engine
        self.layout = engine.layout
        self.T = engine.values.terms
        self.objects = {oid: name for name, oid in engine.global_oids.items()}
        # AST id -> mentions a C variable / a stack address; kept valid by _alive
        self._relevant: dict = {}
        self._stackish: dict = {}
        self._nodes: dict = {}
        self._alive: list = []
        self.sizes = {}
        for g in program.globals:
            self.sizes[g.name] = type_size(g.type)

    def small(self, phi, nodes: int | None = None) -> bool:
        """Has ``phi`` at most ``nodes`` (default :data:`PRINT_NODES`) distinct
        terms? Printing walks every one of them more than once, however
        little of it is printed: a summary of values built by repeated
        arithmetic on each other (``i = i + j`` in a loop) can have millions."""
        cap = PRINT_NODES if nodes is None else nodes
        return size(phi, cap) <= cap

    def text(self, phi, budget: int = 400, readable_ms: int = 0) -> str:
        """``phi`` as C; past ``budget`` printed operations the rest is ``...``.
        ``readable_ms``: first spend up to that many milliseconds making it
        shorter (:func:`readable`)."""
        if phi is True:
            return "1"
        if phi is False:
            return "0"
        self._budget = budget
        self._memo: dict = {}
        self._alive.append(phi)
        phi = self._join_bytes(phi)
        self._alive.append(phi)
        if readable_ms:
            phi = self.shown(phi)
            self._alive.append(phi)
        # Whole variables stand as constants while z3 rewrites: it splits
        # `counter == 2` into one equation per byte.
        pairs = self._whole_reads(phi)
        phi = z3.simplify(z3.substitute(phi, *pairs) if pairs else phi)
        if readable_ms:
            phi = readable(phi, readable_ms)
            if isinstance(phi, bool):
                return "1" if phi else "0"
        if pairs:
            phi = z3.substitute(phi, *[(name, read) for read, name in pairs])
        self._alive.append(phi)
        self._threads = {}
        for name in self.E.values.symbols(phi):
            v = parse(name)
            if isinstance(v, RegVar):
                self._threads.setdefault(v.name, set()).add(v.tid)
        a = phi.as_ast()
        return self._p(a) if self._interesting(a) else "1"

    def shown(self, phi, memo=None):
        """``phi`` without what printing leaves out of a conjunction (run-time
        checks, address guards, conjuncts about no C variable), so that
        simplifying works on what the reader sees. Shared subterms are
        rebuilt once (``memo``: AST id -> result)."""
        memo = {} if memo is None else memo
        key = phi.get_id()
        done = memo.get(key)
        if done is not None:
            return done
        if z3.is_and(phi):
            kept = [self.shown(x, memo) for x in phi.children() if self._kept(x.as_ast())]
            out = z3.BoolVal(True, phi.ctx) if not kept else kept[0] if len(kept) == 1 else z3.And(*kept)
        elif z3.is_or(phi):
            out = z3.Or(*[self.shown(x, memo) for x in phi.children()])
        elif z3.is_not(phi):
            out = z3.Not(self.shown(phi.arg(0), memo))
        else:
            out = phi
        memo[key] = out
        return out

    def _join_bytes(self, phi):
        """``phi`` with each conjunction's equations on every byte of one C
        variable (``counter[+0] == 2 && counter[+1] == 0 && ...``, as z3's
        rewriting leaves ``counter == 2``) joined back into one equation on
        the variable. Only the connectives above a joined conjunction are
        built again."""
        if not self._find(phi.as_ast(), lambda a: self._info(a)[1] == z3.Z3_OP_AND
                          and sum(self._byte_equation(c) is not None for c in self._info(a)[2]) >= 2):
            return phi
        ctx = phi.ctx
        connectives = (z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_NOT)
        changed: dict = {}  # AST id -> the rebuilt term, or None when unchanged
        todo = [(phi.as_ast(), False)]
        while todo:
            a, expanded = todo.pop()
            if a.value in changed:
                continue
            op, args = self._info(a)[1], self._info(a)[2]
            if op not in connectives:
                changed[a.value] = None
            elif not expanded:
                todo.append((a, True))
                todo.extend((k, False) for k in args)
            else:
                new = [changed[k.value] for k in args]
                joined = self._joined(args) if op == z3.Z3_OP_AND else None
                if joined is None and all(n is None for n in new):
                    changed[a.value] = None
                    continue
                kids = [n if n is not None else z3.z3._to_expr_ref(k, ctx) for k, n in zip(args, new)]
                if joined is not None:
                    drop, added = joined
                    kids = [k for i, k in enumerate(kids) if i not in drop] + added
                changed[a.value] = (z3.Not(kids[0]) if op == z3.Z3_OP_NOT else kids[0] if len(kids) == 1
                                    else (z3.And if op == z3.Z3_OP_AND else z3.Or)(*kids))
        out = changed[phi.as_ast().value]
        return phi if out is None else out

    def _joined(self, conjuncts: list) -> tuple[set, list] | None:
        """Which of ``conjuncts`` (raw ASTs) to drop and the equations on
        whole variables that replace them; None when there are none."""
        mask = (1 << self.layout.off_bits) - 1
        found = {}  # (variable, its address) -> {offset: (conjunct index, select, value)}
        for i, c in enumerate(conjuncts):
            byte = self._byte_equation(c)
            if byte is None:
                continue
            addr, sel, value = byte
            name, off = self.objects.get(addr >> self.layout.off_bits), addr & mask
            if name is not None and off < self.sizes.get(name, 0):
                found.setdefault((name, addr - off), {})[off] = (i, sel, value)
        drop, added = set(), []
        for (name, _), parts in found.items():
            n = self.sizes[name]
            if n < 2 or len(parts) != n:
                continue
            sels = [z3.z3._to_expr_ref(parts[k][1], self.T.ctx) for k in range(n - 1, -1, -1)]
            # simplify makes z3's nested binary concats one concat, the form reads have
            whole = z3.simplify(z3.Concat(*sels))
            added.append(whole == z3.BitVecVal(sum(parts[k][2] << (8 * k) for k in range(n)), 8 * n, whole.ctx))
            drop.update(p[0] for p in parts.values())
        return (drop, added) if added else None

    def _byte_equation(self, c):
        """``(address, select, value)`` when raw AST ``c`` is ``M[address] ==
        value`` on one byte of memory at a constant address."""
        _, op, args, _ = self._info(c)
        if op != z3.Z3_OP_EQ or len(args) != 2:
            return None
        sel, num = (args[1], args[0]) if self._info(args[0])[3] else args
        if not self._info(num)[3] or self.T.bv_size(num) != 8 or self._info(sel)[1] != z3.Z3_OP_SELECT:
            return None
        arr, idx = self._info(sel)[2]
        if not (self._is_const(arr) and self.T.name(arr) == MEMORY and self._info(idx)[3]):
            return None
        return self.T.value(idx), sel, self.T.value(num)

    def _whole_reads(self, phi) -> list:
        """``(read, constant)`` for each read of a C variable from memory in
        ``phi`` (the concat of its bytes that printing shows as the
        variable), a fresh constant standing for each."""
        reads = self._find(phi.as_ast(), lambda a: self._info(a)[1] in (z3.Z3_OP_SELECT, z3.Z3_OP_CONCAT)
                           and self._memory_read(a) is not None)
        exprs = [z3.z3._to_expr_ref(a, phi.ctx) for a in reads]
        return [(e, z3.FreshConst(e.sort(), "read")) for e in exprs]

    def _find(self, root, pred) -> list:
        """The raw ASTs under ``root`` (itself included) for which ``pred``
        holds, not looking inside them; by AST id, each once."""
        found, seen, todo = [], set(), [root]
        while todo:
            a = todo.pop()
            if a.value in seen:
                continue
            seen.add(a.value)
            if pred(a):
                found.append(a)
            else:
                todo.extend(self._info(a)[2])
        return found

    def _kept(self, a) -> bool:
        """Is conjunct ``a`` printed (see _print's conjunctions)?"""
        return self._interesting(a) and not self._check(a) and not self._address_guard(a)

    # ------------------------------------------------------------------ term tests

    def _info(self, a) -> tuple:
        """``(AST kind, declaration kind or None, arguments, is a bit-vector
        numeral)`` of ``a``, remembered by AST id (the roots are in _alive)."""
        T = self.T
        key = a.value
        hit = self._nodes.get(key)
        if hit is None:
            kind = T.kind(a)
            numeral = kind == z3.Z3_NUMERAL_AST
            op = T.op(a) if numeral or kind == z3.Z3_APP_AST else None
            hit = self._nodes[key] = (kind, op, tuple(T.args(a)), numeral and T.is_bv_value(a))
        return hit

    def _is_const(self, a) -> bool:
        """An application without arguments (a constant, a numeral, true/false)."""
        kind, _, args, _ = self._info(a)
        return kind in (z3.Z3_APP_AST, z3.Z3_NUMERAL_AST) and not args

    def _check(self, a) -> bool:
        """Is ``a`` one of z3's no-overflow predicates (a run-time check the
        summary requires, not what it says about the program's variables)?"""
        if self._info(a)[0] != z3.Z3_APP_AST:
            return False
        name = self.T.name(a)
        return "_no" in name and name.startswith("bv")

    def _strip(self, a):
        while self._info(a)[1] == z3.Z3_OP_EXTRACT:
            a = self._info(a)[2][0]
        return a

    def _address_guard(self, a) -> bool:
        """``&local == address``: keeps a summary's runs on the same objects."""
        if self._info(a)[1] != z3.Z3_OP_EQ:
            return False
        return any(self._mentions_stack(k) for k in self._info(a)[2])

    def _mentions_stack(self, a) -> bool:
        T, memo = self.T, self._stackish
        todo = [(a, a.value, False)]
        while todo:
            x, xid, expanded = todo.pop()
            if xid in memo:
                continue
            kids = self._info(x)[2]
            if expanded:
                memo[xid] = any(memo[k.value] for k in kids)
            elif not kids:
                memo[xid] = T.is_symbol(x) and isinstance(parse(T.name(x)), StackVar)
            else:
                todo.append((x, xid, True))
                todo.extend((k, k.value, False) for k in kids)
        return memo[a.value]

    # ------------------------------------------------------------------

    def _global(self, addr: int, n: int) -> str:
        oid = addr >> self.layout.off_bits
        off = addr & ((1 << self.layout.off_bits) - 1)
        name = self.objects.get(oid, f"object{oid}")
        if off == 0 and self.sizes.get(name) == n:
            return name
        return f"{name}[+{off}]"

    def _memory_read(self, a):
        """A concat of consecutive byte selects on M (or one select), as the
        variable it reads; copies of the top byte in front (a sign or zero
        extension as z3 writes it) are skipped."""
        T = self.T
        parts = [self._strip(p) for p in self._info(a)[2]] if self._info(a)[1] == z3.Z3_OP_CONCAT else [a]
        while len(parts) > 1 and parts[0].value == parts[1].value:
            parts = parts[1:]
        idx = []
        for p in parts:
            if self._info(p)[1] != z3.Z3_OP_SELECT or len(self._info(p)[2]) != 2:
                return None
            arr, i = self._info(p)[2][0], self._info(p)[2][1]
            if not (self._is_const(arr) and T.name(arr) == MEMORY and self._info(i)[3]):
                return None
            idx.append(T.value(i))
        lo = idx[-1]
        if idx != list(range(lo + len(idx) - 1, lo - 1, -1)):
            return None
        return self._global(lo, len(idx))

    def _const(self, a) -> str:
        v = self.T.value(a)
        bits = self.T.bv_size(a)
        if bits > 1 and v >> (bits - 1):
            v -= 1 << bits
        return str(v)

    def _p(self, a) -> str:
        key = a.value
        hit = self._memo.get(key)
        if hit is None:
            self._budget -= 1
            text = "..." if self._budget < 0 else self._print(a)
            if len(text) > MAX_TEXT:
                text = text[:MAX_TEXT] + "..."
            hit = self._memo[key] = text
        return hit

    def _print(self, a) -> str:
        T = self.T
        k = self._info(a)[1]
        if k == z3.Z3_OP_TRUE:
            return "1"
        if k == z3.Z3_OP_FALSE:
            return "0"
        if self._info(a)[3]:
            return self._const(a)
        x87 = self._x87(a, k) if k in (z3.Z3_OP_FPA_FP, z3.Z3_OP_ITE, z3.Z3_OP_CONCAT) else None
        if x87 is not None:
            return x87
        mem = self._memory_read(a) if k in (z3.Z3_OP_SELECT, z3.Z3_OP_CONCAT) else None
        if mem is not None:
            return mem
        if k in _FLOAT_KINDS or (k == z3.Z3_OP_ITE and self._info(self._info(a)[2][0])[1] == z3.Z3_OP_FPA_IS_NAN):
            return self._float(a, k, self._info(a)[2])
        if k == z3.Z3_OP_CONCAT:
            # sign extension as z3 writes it: copies of the top bit, then the value
            stripped = [self._strip(p) for p in self._info(a)[2]]
            if len({p.value for p in stripped}) == 1:
                return self._p(stripped[-1])
        if self._is_const(a):
            name = T.name(a)
            v = parse(name)
            if isinstance(v, RegVar):
                shown = "tmp" if v.name.startswith("%") else v.name
                return f"{shown}@t{v.tid}" if len(self._threads.get(v.name, ())) > 1 else shown
            if isinstance(v, StackVar):
                return f"&{v.name}"
            if isinstance(v, FreeVar):
                return "nondet"
            return name
        args = self._info(a)[2]
        if k == z3.Z3_OP_NOT:
            inner = args[0]
            ik = self._info(inner)[1]
            if ik in _NEGATED and len(self._info(inner)[2]) == 2:
                return self._compare(_NEGATED[ik], self._info(inner)[2][0], self._info(inner)[2][1])
            return f"!({self._p(inner)})"
        if k in _COMPARE and len(args) == 2:
            return self._compare(_COMPARE[k], args[0], args[1])
        if k == z3.Z3_OP_AND:
            kept = [x for x in args if self._kept(x)]
            if len(kept) == 1:
                return self._p(kept[0])
            texts = [t for t in (self._wrap(x) for x in kept) if t != "1"]
            return " && ".join(texts) if texts else "1"
        if k == z3.Z3_OP_OR:
            parts = [self._wrap(x) for x in args]
            return "1" if "1" in parts else " || ".join(parts)
        if k == z3.Z3_OP_DISTINCT and len(args) == 2:
            return f"{self._wrap(args[0])} != {self._wrap(args[1])}"
        if k == z3.Z3_OP_ITE:
            return f"{self._wrap(args[0])} ? {self._wrap(args[1])} : {self._wrap(args[2])}"
        if k == z3.Z3_OP_EXTRACT:
            return self._extract(a, args[0])
        if k in (z3.Z3_OP_SIGN_EXT, z3.Z3_OP_ZERO_EXT):
            return self._p(args[0])
        if k == z3.Z3_OP_BNEG:
            return f"-{self._wrap(args[0])}"
        if k == z3.Z3_OP_BNOT:
            return f"~{self._wrap(args[0])}"
        op = _BIN.get(k)
        if op is not None and len(args) >= 2:
            if op == "implies":
                return f"!{self._wrap(args[0])} || {self._wrap(args[1])}"
            return f" {op} ".join(self._wrap(x) for x in args)
        name = T.name(a) if self._info(a)[0] == z3.Z3_APP_AST else "?"
        return f"{name}({', '.join(self._p(x) for x in args)})"

    def _x87(self, a, k) -> str | None:
        """A long double's pattern read as a float, or a float written back as
        one (values.Values._fp and _ieee: the x87 integer bit taken out and put
        back): the value itself; None for any other term."""
        args = self._info(a)[2]
        if k == z3.Z3_OP_FPA_FP and len(args) == 3:  # fp(sign, exponent, fraction) of one pattern's bits:
            fraction = args[2]  # the pattern, or the memory it is read from (its low bytes start it)
            if self._info(fraction)[1] == z3.Z3_OP_EXTRACT:
                fraction = self._info(fraction)[2][0]
            return self._p(fraction)
        if k == z3.Z3_OP_ITE and len(args) == 3 and self._info(args[2])[1] == z3.Z3_OP_FPA_FP \
                and self._info(args[1])[1] in _FLOAT_NUMERALS:  # an invalid encoding's NaN
            return self._p(args[2])
        if k == z3.Z3_OP_CONCAT and len(args) >= 3:
            last = args[-1]
            if self._info(last)[1] == z3.Z3_OP_EXTRACT:
                inner = self._info(last)[2][0]
                if self._info(inner)[1] == z3.Z3_OP_FPA_TO_IEEE_BV:
                    return self._p(self._info(inner)[2][0])
        return None

    def _float(self, a, k, args) -> str:
        """A term of z3's floating-point theory as C (the engine's encoding:
        bit patterns converted to and from floats around each operation)."""
        if k == z3.Z3_OP_ITE:  # a result's canonical NaN: the result itself
            return self._p(args[2])
        if k in _FLOAT_NUMERALS:
            return self._float_numeral(a)
        if k in _FLOAT_CONVERSIONS:
            return self._p(args[-1])  # a conversion: the value converted
        if k == z3.Z3_OP_FPA_ROUND_TO_INTEGRAL:
            return f"{_ROUNDING.get(self._info(args[0])[1], 'round')}({self._p(args[1])})"
        if k in (z3.Z3_OP_FPA_IS_NAN, z3.Z3_OP_FPA_IS_INF, z3.Z3_OP_FPA_ABS, z3.Z3_OP_FPA_SQRT):
            return f"{_FLOAT_NAMES[k]}({self._p(args[-1])})"
        if k == z3.Z3_OP_FPA_IS_ZERO:
            return f"{self._wrap(args[0])} == 0"
        if k == z3.Z3_OP_FPA_NEG:
            return f"-{self._wrap(args[0])}"
        if k in (z3.Z3_OP_FPA_MIN, z3.Z3_OP_FPA_MAX):
            return f"{_FLOAT_NAMES[k]}({self._p(args[0])}, {self._p(args[1])})"
        xs = args[1:] if len(args) == 3 else args  # after the rounding mode
        return self._compare(_FLOAT_NAMES[k], xs[0], xs[1]) if k in _FLOAT_COMPARE else \
            f"{self._wrap(xs[0])} {_FLOAT_NAMES[k]} {self._wrap(xs[1])}"

    def _float_numeral(self, a) -> str:
        c = self.T.c
        sort = z3core.Z3_get_sort(c, a)
        ebits, sbits = z3core.Z3_fpa_get_ebits(c, sort), z3core.Z3_fpa_get_sbits(c, sort)
        bits = ebits + sbits
        x87 = (ebits, sbits) == floats.FORMATS[floats.LONG_DOUBLE]  # the pattern has an integer bit
        if x87:
            bits = floats.LONG_DOUBLE
        if bits not in floats.FORMATS:
            return "?"
        if z3core.Z3_fpa_is_numeral_nan(c, a):
            return "NAN"
        sign = ctypes.c_int()
        z3core.Z3_fpa_get_numeral_sign(c, a, ctypes.byref(sign))
        pattern = floats.SIGN[bits] if sign.value else 0
        at = sbits if x87 else sbits - 1  # where the exponent starts
        if z3core.Z3_fpa_is_numeral_inf(c, a):
            pattern |= ((1 << ebits) - 1) << at | (1 << (sbits - 1) if x87 else 0)
        elif not z3core.Z3_fpa_is_numeral_zero(c, a):
            significand, exponent = ctypes.c_uint64(), ctypes.c_int64()
            z3core.Z3_fpa_get_numeral_significand_uint64(c, a, ctypes.byref(significand))
            z3core.Z3_fpa_get_numeral_exponent_int64(c, a, ctypes.byref(exponent), True)
            integer = 1 << (sbits - 1) if x87 and exponent.value else 0
            pattern |= (exponent.value << at) | integer | significand.value
        return floats.text(pattern, bits)

    def _extract(self, a, inner) -> str:
        """Bits ``hi..lo`` of ``inner`` as C: a narrowing conversion, after
        a shift when they are not the low bits (z3 splits an equation on a
        word into equations on its parts; the inner term alone would say
        something else)."""
        c = self.T.c
        decl = z3.Z3_get_app_decl(c, a)
        hi, lo = z3.Z3_get_decl_int_parameter(c, decl, 0), z3.Z3_get_decl_int_parameter(c, decl, 1)
        if lo == 0 and hi == self.T.bv_size(inner) - 1:
            return self._p(inner)
        width = hi - lo + 1
        shifted = f"({self._wrap(inner)} >> {lo})" if lo else self._wrap(inner)
        return f"({_UNSIGNED.get(width, f'unsigned _BitInt({width})')}){shifted}"

    def _interesting(self, a) -> bool:
        """Does ``a`` mention a C variable (not only the addresses, thread
        handles and lowering temporaries that keep a summary's runs alike)?"""
        T, memo = self.T, self._relevant
        todo = [(a, a.value, False)]
        while todo:
            x, xid, expanded = todo.pop()
            if xid in memo:
                continue
            kind, op, kids, numeral = self._info(x)
            if op == z3.Z3_OP_SELECT and len(kids) == 2 and self._info(kids[1])[3]:
                memo[xid] = (T.value(kids[1]) >> self.layout.off_bits) in self.objects
                continue
            if kind in (z3.Z3_APP_AST, z3.Z3_NUMERAL_AST) and not kids:
                v = None if numeral else parse(T.name(x))
                memo[xid] = isinstance(v, FreeVar) or (isinstance(v, RegVar) and not v.name.startswith("%"))
                continue
            if expanded:
                memo[xid] = any(memo[k.value] for k in kids)
            else:
                todo.append((x, xid, True))
                todo.extend((k, k.value, False) for k in kids)
        return memo[a.value]

    def _compare(self, op: str, a, b) -> str:
        if self._info(a)[3] and not self._info(b)[3]:
            a, b, op = b, a, _MIRROR[op]
        return f"{self._wrap(a)} {op} {self._wrap(b)}"

    def _wrap(self, a) -> str:
        s = self._p(a)
        if self._is_const(a) or " " not in s:
            return s
        return f"({s})"
