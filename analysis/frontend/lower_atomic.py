"""Lowering of the atomic builtins (:data:`builtins.ATOMIC_BUILTINS`) as what
they mean under sequential consistency.

Each becomes ``ATOMIC_BEGIN``, the Loads and Stores of the operation (kind
GLOBAL; the escape analysis may refine them) with register arithmetic between
them, then ``ATOMIC_END``; the call's value is a register holding the old
value, the new value or the 0/1 success of a compare-and-swap. The operand
width is the first argument's pointee type. Memory-order arguments are
evaluated left to right with the others; a constant one gives the accesses
their :class:`~distaff.analysis.ir.MemOrder` (C11's, or GCC's ``__ATOMIC_*``
values, which are the same), a non-constant one reads as ``seq_cst``, as GCC
compiles it. A read-modify-write's Load and Store both carry its order. A
thread fence is a FENCE intrinsic; a signal fence orders nothing between
threads and emits nothing. The ``__sync_*`` builtins are full barriers
(``seq_cst``) except ``__sync_lock_test_and_set`` (acquire) and
``__sync_lock_release`` (release).

Forms (``p`` the object's address, ``v`` a value):

* ``fetch_op(p, v)``: ``old = *p; *p = old OP v``; value ``old``.
* ``op_fetch(p, v)``: the same store; value the new one.
* ``exchange(p, v)``: ``old = *p; *p = v``; value ``old``.
* ``bool_cas(p, expected, desired)`` / ``val_cas``: ``cur = *p;
  *p = cur == expected ? desired : cur``; value ``cur == expected`` / ``cur``.
* ``cmpxchg(p, expected_addr, desired)``: ``cur = *p; e = *expected_addr;
  *p = cur == e ? desired : cur; *expected_addr = cur == e ? e : cur``; value
  ``cur == e``.
* ``load(p)``, ``store(p, v)``, ``release(p)`` (``*p = 0``), ``fence()``.
* ``test_and_set(p)``: ``old = *p; *p = 1``; value ``old`` (``atomic_flag``).
* GCC's generic forms take values through pointers: ``load_to(p, r)``:
  ``*r = *p``; ``store_from(p, v)``: ``*p = *v``; ``exchange_via(p, v, r)``:
  ``old = *p; *p = *v; *r = old``; ``cmpxchg_via(p, e, d)``: ``cmpxchg(p, e,
  *d)``. The reads and writes through ``r``, ``v`` and ``d`` are inside the
  atomic region too.
* ``lock_free(p)`` (``atomic_is_lock_free``) and ``size_lock_free(n, p)``
  (``__atomic_always_lock_free``): whether an object of that size is lock-free
  on x86-64, a constant (1 for 1, 2, 4 and 8 bytes); nothing is accessed.

The read-modify-write operators on an ``_Atomic`` object (``x++``, ``x += v``)
are atomic too: :meth:`AtomicLowering.atomic_lvalue` tells the expression
lowering when to bracket them.

A compare-and-swap stores on both outcomes (the old value when it fails)
rather than branching: the same final memory without forking the path, at
the price of a write where C only reads. Its Store says so (``only_if``, the
comparison, and ``fail_order``), so that a C11 reading can make it the plain
read it is when it fails.
"""

from __future__ import annotations

import tree_sitter as ts

from distaff.analysis.ir import (
    FENCE_ORDERS, ArrayType, Const, Expr, Intrinsic, IntType, Ite, Kind, Load, MemOrder, Op, PtrAdd, PtrType, Store,
    type_size,
)
from distaff.analysis.frontend.builtins import AtomicBuiltin
from distaff.analysis.frontend.ctypes import BOOL, INT
from distaff.analysis.frontend.lower_const import binary, cast, unary
from distaff.analysis.frontend.lower_env import VarSym
from distaff.analysis.frontend.lower_loc import strip_parens
from distaff.analysis.frontend.parse import F

_VALUES = {"fetch_op": 1, "op_fetch": 1, "exchange": 1, "bool_cas": 2, "val_cas": 2, "cmpxchg": 2,
           "load": 0, "store": 1, "release": 0, "fence": 0, "test_and_set": 0,
           "load_to": 1, "store_from": 1, "exchange_via": 2, "cmpxchg_via": 2}
_LOCK_FREE_SIZES = (1, 2, 4, 8)
# C11's memory_order_* and GCC's __ATOMIC_* values (consume reads as acquire)
_ORDERS = (MemOrder.RLX, MemOrder.ACQ, MemOrder.ACQ, MemOrder.REL, MemOrder.ACQ_REL, MemOrder.SC)
_CAS_FORMS = ("bool_cas", "val_cas", "cmpxchg", "cmpxchg_via")


def memory_orders(name: str, form: str, extra: list[Expr]) -> tuple[MemOrder, MemOrder]:
    """The orders of a call of atomic builtin ``name`` (of ``form``) whose
    arguments past its operands are ``extra``: (order, failure order); the
    failure order is the order for all but compare-and-swaps."""
    if name.startswith("__sync_"):
        o = {"__sync_lock_test_and_set": MemOrder.ACQ, "__sync_lock_release": MemOrder.REL}.get(name, MemOrder.SC)
        return o, o
    if form in _CAS_FORMS and name.startswith("__atomic_"):
        extra = extra[1:]  # the "weak" flag comes first
    orders = [_order(e) for e in extra[:2]]
    if not orders:
        return MemOrder.SC, MemOrder.SC
    if form not in _CAS_FORMS or len(orders) < 2:
        return orders[0], orders[0]
    return orders[0], orders[1]


def _order(e: Expr) -> MemOrder:
    if isinstance(e, Const) and 0 <= (e.value & 0xFFFF) < len(_ORDERS):  # (GCC's HLE bits above)
        return _ORDERS[e.value & 0xFFFF]
    return MemOrder.SC


class AtomicLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: atomic builtins."""

    def atomic_call(self, name: str, b: AtomicBuiltin, args: list[ts.Node], node: ts.Node, used: bool) -> Expr:
        span = self.span(node)
        values = [self.rvalue(a) for a in args]  # all arguments, orders included, left to right
        if b.form == "fence":
            if "signal" not in name:
                order, _ = memory_orders(name, b.form, values)
                if order is not MemOrder.RLX:  # (a relaxed fence is no fence)
                    self.emit(Intrinsic(Op.FENCE, None, (Const(FENCE_ORDERS.index(order), INT),), span,
                                        Kind.LOCAL, name=name))
            return Const(0, INT)
        if b.form in ("lock_free", "size_lock_free"):
            return self.lock_free(b.form, values, node)
        need = 1 + _VALUES[b.form]
        if len(values) < need:
            self.unsupported(node, f"{name} with too few arguments")
            return self.nondet(INT, node, "unsupported")
        p = values[0]
        if isinstance(p.type, ArrayType):
            p = cast(p, self.ptr(p.type.elem))
        t = self.complete(p.type.pointee) if isinstance(p.type, PtrType) else None
        if not isinstance(t, (IntType, PtrType)):
            self.unsupported(node, f"{name} on something that is not a pointer to an integer or pointer")
            return self.nondet(INT, node, "unsupported")
        if isinstance(t, PtrType) and b.form in ("fetch_op", "op_fetch") and b.op not in ("+", "-"):
            self.unsupported(node, f"{name} on a pointer")
            return self.nondet(t, node, "unsupported")
        operands = values[1:need]
        if b.form in ("load_to", "store_from", "exchange_via", "cmpxchg_via") and \
                not all(isinstance(v.type, PtrType) for v in operands):
            self.unsupported(node, f"{name} whose value arguments are not pointers")
            return self.nondet(INT, node, "unsupported")
        self.atomic_bracket(Op.ATOMIC_BEGIN, span, name)
        result = self.atomic_body(b, p, t, operands, node, memory_orders(name, b.form, values[need:]))
        self.atomic_bracket(Op.ATOMIC_END, span, name)
        return result

    def atomic_body(self, b: AtomicBuiltin, p: Expr, t, operands: list[Expr], node: ts.Node,
                    orders: tuple[MemOrder, MemOrder]) -> Expr:
        """The accesses of the atomic operation on ``p``; those of ``p`` carry
        ``orders`` (:func:`memory_orders`), those through the other pointers
        are plain."""
        span = self.span(node)
        form = b.form
        o = orders[0]
        if form in ("store_from", "exchange_via", "cmpxchg_via"):  # the value read through its pointer
            k = 1 if form == "cmpxchg_via" else 0
            v = self.temp(t)
            self.emit(Load(v, cast(operands[k], self.ptr(t)), t, span))
            operands = operands[:k] + [v] + operands[k + 1:]
            form = {"store_from": "store", "exchange_via": "exchange", "cmpxchg_via": "cmpxchg"}[form]
        if form == "load_to":
            old = self.temp(t)
            self.emit(Load(old, p, t, span, order=o))
            self.emit(Store(cast(operands[0], self.ptr(t)), old, t, span))
            return Const(0, INT)
        if form == "exchange" and len(operands) > 1:  # exchange_via: the old value through the third pointer
            old = self.temp(t)
            self.emit(Load(old, p, t, span, order=o))
            self.emit(Store(p, self.materialise(self.conv(operands[0], t), node), t, span, order=o))
            self.emit(Store(cast(operands[1], self.ptr(t)), old, t, span))
            return Const(0, INT)
        if form == "release":
            self.emit(Store(p, Const(0, t), t, span, order=o))
            return Const(0, INT)
        if form == "store":
            self.emit(Store(p, self.materialise(self.conv(operands[0], t), node), t, span, order=o))
            return Const(0, INT)
        old = self.temp(t)
        self.emit(Load(old, p, t, span, order=o))
        if form == "load":
            return old
        if form == "exchange":
            self.emit(Store(p, self.materialise(self.conv(operands[0], t), node), t, span, order=o))
            return old
        if form == "test_and_set":
            self.emit(Store(p, Const(1, t), t, span, order=o))
            return old
        if form in ("fetch_op", "op_fetch"):
            new = self.materialise(self.conv(self.rmw_value(b.op, old, operands[0], node), t), node)
            self.emit(Store(p, new, t, span, order=o))
            return old if form == "fetch_op" else new
        if form == "cmpxchg":
            e_addr = operands[0]
            if not isinstance(e_addr.type, PtrType):
                self.unsupported(node, "compare-exchange whose expected value is not a pointer")
                return self.nondet(INT, node, "unsupported")
            expected = self.temp(t)
            self.emit(Load(expected, cast(e_addr, self.ptr(t)), t, span))
        else:
            expected = self.conv(operands[0], t)
        desired = self.conv(operands[1], t)
        ok = self.materialise(binary("==", old, expected, INT), node)
        self.emit(Store(p, self.materialise(Ite(ok, desired, old, t), node), t, span, order=o,
                         only_if=ok, fail_order=orders[1]))
        if form == "cmpxchg":
            self.emit(Store(cast(e_addr, self.ptr(t)), self.materialise(Ite(ok, expected, old, t), node), t, span))
        return old if form == "val_cas" else ok

    def lock_free(self, form: str, values: list[Expr], node: ts.Node) -> Expr:
        """``atomic_is_lock_free(p)``, ``__atomic_always_lock_free(n, p)``."""
        if form == "lock_free":
            p = values[0] if values else None
            t = self.complete(p.type.pointee) if p is not None and isinstance(p.type, PtrType) else None
            size = type_size(t) if t is not None else None
        else:
            size = values[0].value if values and isinstance(values[0], Const) else None
        if size is None:
            self.unsupported(node, "lock-freedom of an object of unknown size")
            return self.nondet(BOOL, node, "unsupported")
        return Const(1 if size in _LOCK_FREE_SIZES else 0, BOOL)

    def atomic_bracket(self, op: Op, span, name: str) -> None:
        """The ATOMIC_BEGIN or ATOMIC_END (``op``) around ``name``'s atomic step."""
        self.emit(Intrinsic(op, None, (), span, Kind.GLOBAL, name=name))

    def atomic_lvalue(self, node: ts.Node) -> bool:
        """Is ``node`` an lvalue of an ``_Atomic`` object: an atomic variable,
        an element of an atomic array or of what an atomic pointer points to,
        ``*p`` for such a pointer, or an atomic struct field?"""
        node = strip_parens(node)
        kind = node.type
        if kind == "identifier":
            sym = self.scope.lookup(node.text.decode())
            return isinstance(sym, VarSym) and sym.atomic == "object" and not isinstance(sym.type, ArrayType)
        if kind == "subscript_expression" or (kind == "pointer_expression"
                                              and node.child_by_field_id(F.operator).type == "*"):
            base = strip_parens(node.child_by_field_id(F.argument))
            sym = self.scope.lookup(base.text.decode()) if base.type == "identifier" else None
            return isinstance(sym, VarSym) and (sym.atomic == "pointee" or (
                sym.atomic == "object" and isinstance(sym.type, ArrayType)))
        if kind == "field_expression":
            return (self.field_struct(node), node.child_by_field_id(F.field).text.decode()) in self.u.atomic_fields
        return False

    def rmw_value(self, op: str, old: Expr, v: Expr, node: ts.Node) -> Expr:
        """``old OP v`` in the operand's type; on a pointer, ``+``/``-`` count
        bytes, as GCC's builtins do. On a signed integer the arithmetic wraps
        around (C11 7.17.7.5: "there are no undefined results"; GCC's builtins
        compute as the machine's add does): it is done in the unsigned type of
        the same width. (``x++`` on an ``_Atomic`` object is ordinary
        arithmetic, 6.5.16.2: it is not lowered here.)"""
        if isinstance(old.type, PtrType):
            off = cast(v, self.ct.ptrdiff_t)
            return PtrAdd(old, off if op == "+" else unary("-", off, off.type), old.type)
        t = old.type
        if isinstance(t, IntType) and t.signed:
            u = IntType(t.bits, False)
            return cast(self.rmw_value(op, cast(old, u), cast(v, u), node), t)
        if op == "~&":
            anded = self.arith("&", old, v, node)
            return unary("~", anded, anded.type)
        return self.arith(op, old, v, node)
