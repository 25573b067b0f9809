"""Predicate summaries printed as C expressions over program variable names.

Registers print as their C names (with ``@thread`` when two threads' locals
share a name in one summary), bytes of memory read together as the global
(and offset) they belong to, unknown values as ``nondet``; bit-vector
operations as the C operators that made them, widenings and truncations
silently (the summary is about the values a C programmer sees), other
operations by name. Long summaries are cut short with ``...``. Conjuncts
about nothing but stack addresses, thread handles and lowering temporaries
(what keeps the runs a summary covers alike) are left out of the text.
"""

from __future__ import annotations

import z3

from analysis.summaries.variables import MEMORY, FreeVar, RegVar, StackVar, parse

_BIN = {
    z3.Z3_OP_BADD: "+", z3.Z3_OP_BSUB: "-", z3.Z3_OP_BMUL: "*", z3.Z3_OP_BSDIV: "/", z3.Z3_OP_BUDIV: "/",
    z3.Z3_OP_BSREM: "%", z3.Z3_OP_BUREM: "%", z3.Z3_OP_BAND: "&", z3.Z3_OP_BOR: "|", z3.Z3_OP_BXOR: "^",
    z3.Z3_OP_BSHL: "<<", z3.Z3_OP_BASHR: ">>", z3.Z3_OP_BLSHR: ">>",
    z3.Z3_OP_SLEQ: "<=", z3.Z3_OP_SLT: "<", z3.Z3_OP_SGEQ: ">=", z3.Z3_OP_SGT: ">",
    z3.Z3_OP_ULEQ: "<=", z3.Z3_OP_ULT: "<", z3.Z3_OP_UGEQ: ">=", z3.Z3_OP_UGT: ">",
    z3.Z3_OP_EQ: "==", z3.Z3_OP_IMPLIES: "implies",
}


MAX_TEXT = 300

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


def _check(e) -> bool:
    """Is ``e`` one of z3's no-overflow predicates (a run-time check the
    summary requires, not what it says about the program's variables)?"""
    return z3.is_app(e) and "_no" in e.decl().name() and e.decl().name().startswith("bv")


def _strip(e):
    while z3.is_app_of(e, z3.Z3_OP_EXTRACT):
        e = e.arg(0)
    return e


def _address_guard(e) -> bool:
    """``&local == address``: keeps a summary's runs on the same objects."""
    if not z3.is_eq(e):
        return False
    todo = list(e.children())
    while todo:
        x = todo.pop()
        if z3.is_const(x) and isinstance(parse(x.decl().name()), StackVar):
            return True
        todo.extend(x.children())
    return False


class Printer:
    """Prints summaries of one check (``engine`` names the objects)."""

    def __init__(self, engine, program):
        self.E = engine
        self.L = engine.L
        self.objects = {oid: name for name, oid in engine.global_oids.items()}
        self._relevant: dict = {}  # AST id -> (term, mentions a C variable)
        self.sizes = {}
        for g in program.globals:
            from analysis.ir import type_size

            self.sizes[g.name] = type_size(g.type)

    def text(self, phi, budget: int = 400) -> str:
        """``phi`` as C; past ``budget`` printed operations the rest is ``...``."""
        if phi is True:
            return "1"
        if phi is False:
            return "0"
        self._budget = budget
        self._memo: dict = {}
        phi = z3.simplify(phi)
        self._threads = {}
        for name in self.E.V.symbols(phi):
            v = parse(name)
            if isinstance(v, RegVar):
                self._threads.setdefault(v.name, set()).add(v.tid)
        return self._p(phi) if self._interesting(phi) else "1"

    # ------------------------------------------------------------------

    def _global(self, addr: int, n: int) -> str:
        oid = addr >> self.L.off_bits
        off = addr & ((1 << self.L.off_bits) - 1)
        name = self.objects.get(oid, f"object{oid}")
        if off == 0 and self.sizes.get(name) == n:
            return name
        return f"{name}[+{off}]"

    def _memory_read(self, e):
        """A concat of consecutive byte selects on M (or one select), as the
        variable it reads; copies of the top byte in front (a sign or zero
        extension as z3 writes it) are skipped."""
        parts = [_strip(p) for p in e.children()] if z3.is_app_of(e, z3.Z3_OP_CONCAT) else [e]
        while len(parts) > 1 and parts[0].eq(parts[1]):
            parts = parts[1:]
        idx = []
        for p in parts:
            if not (z3.is_select(p) and z3.is_const(p.arg(0)) and p.arg(0).decl().name() == MEMORY
                    and z3.is_bv_value(p.arg(1))):
                return None
            idx.append(p.arg(1).as_long())
        lo = idx[-1]
        if idx != list(range(lo + len(idx) - 1, lo - 1, -1)):
            return None
        return self._global(lo, len(idx))

    def _const(self, e) -> str:
        v = e.as_long()
        bits = e.size()
        if bits > 1 and v >> (bits - 1):
            v -= 1 << bits
        return str(v)

    def _p(self, e) -> str:
        key = e.get_id()
        hit = self._memo.get(key)
        if hit is None:
            self._budget -= 1
            text = "..." if self._budget < 0 else self._print(e)
            if len(text) > MAX_TEXT:
                text = text[:MAX_TEXT] + "..."
            hit = self._memo[key] = (e, text)
        return hit[1]

    def _print(self, e) -> str:
        if z3.is_true(e):
            return "1"
        if z3.is_false(e):
            return "0"
        if z3.is_bv_value(e):
            return self._const(e)
        mem = self._memory_read(e) if (z3.is_select(e) or z3.is_app_of(e, z3.Z3_OP_CONCAT)) else None
        if mem is not None:
            return mem
        if z3.is_app_of(e, z3.Z3_OP_CONCAT):
            # sign extension as z3 writes it: copies of the top bit, then the value
            roots = {_strip(p).get_id() for p in e.children()}
            if len(roots) == 1:
                return self._p(_strip(e.children()[-1]))
        if z3.is_const(e):
            v = parse(e.decl().name())
            if isinstance(v, RegVar):
                name = "tmp" if v.name.startswith("%") else v.name
                return f"{name}@t{v.tid}" if len(self._threads.get(v.name, ())) > 1 else name
            if isinstance(v, StackVar):
                return f"&{v.name}"
            if isinstance(v, FreeVar):
                return "nondet"
            return e.decl().name()
        k = e.decl().kind()
        args = e.children()
        if k == z3.Z3_OP_NOT:
            inner = args[0]
            ik = inner.decl().kind() if z3.is_app(inner) else None
            if ik in _NEGATED and inner.num_args() == 2:
                return self._compare(_NEGATED[ik], inner.arg(0), inner.arg(1))
            return f"!({self._p(inner)})"
        if k in _COMPARE and len(args) == 2:
            return self._compare(_COMPARE[k], args[0], args[1])
        if k == z3.Z3_OP_AND:
            kept = [a for a in args if self._interesting(a) and not _check(a) and not _address_guard(a)]
            if len(kept) == 1:
                return self._p(kept[0])
            texts = [t for t in (self._wrap(a) for a in kept) if t != "1"]
            return " && ".join(texts) if texts else "1"
        if k == z3.Z3_OP_OR:
            parts = [self._wrap(a) for a in args]
            return "1" if "1" in parts else " || ".join(parts)
        if k == z3.Z3_OP_DISTINCT and len(args) == 2:
            return f"{self._wrap(args[0])} != {self._wrap(args[1])}"
        if k == z3.Z3_OP_ITE:
            return f"{self._wrap(args[0])} ? {self._wrap(args[1])} : {self._wrap(args[2])}"
        if k in (z3.Z3_OP_SIGN_EXT, z3.Z3_OP_ZERO_EXT, z3.Z3_OP_EXTRACT):
            return self._p(args[0])
        if k == z3.Z3_OP_BNEG:
            return f"-{self._wrap(args[0])}"
        if k == z3.Z3_OP_BNOT:
            return f"~{self._wrap(args[0])}"
        op = _BIN.get(k)
        if op is not None and len(args) >= 2:
            if op == "implies":
                return f"!{self._wrap(args[0])} || {self._wrap(args[1])}"
            return f" {op} ".join(self._wrap(a) for a in args)
        return f"{e.decl().name()}({', '.join(self._p(a) for a in args)})"

    def _interesting(self, e) -> bool:
        """Does ``e`` mention a C variable (not only the addresses, thread
        handles and lowering temporaries that keep a summary's runs alike)?"""
        memo = self._relevant
        todo = [(e, False)]
        while todo:
            x, expanded = todo.pop()
            key = x.get_id()
            if key in memo:
                continue
            if z3.is_select(x) and z3.is_bv_value(x.arg(1)):
                memo[key] = (x, (x.arg(1).as_long() >> self.L.off_bits) in self.objects)
                continue
            if z3.is_const(x):
                v = None if z3.is_bv_value(x) else parse(x.decl().name())
                memo[key] = (x, isinstance(v, FreeVar) or (isinstance(v, RegVar) and not v.name.startswith("%")))
                continue
            kids = x.children()
            if expanded:
                memo[key] = (x, any(memo[k.get_id()][1] for k in kids))
            else:
                todo.append((x, True))
                todo.extend((k, False) for k in kids if k.get_id() not in memo)
        return memo[e.get_id()][1]

    def _compare(self, op: str, a, b) -> str:
        if z3.is_bv_value(a) and not z3.is_bv_value(b):
            a, b, op = b, a, _MIRROR[op]
        return f"{self._wrap(a)} {op} {self._wrap(b)}"

    def _wrap(self, e) -> str:
        s = self._p(e)
        if z3.is_const(e) or z3.is_bv_value(e) or " " not in s:
            return s
        return f"({s})"
