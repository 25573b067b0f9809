"""Lowering of the ``string.h`` functions that scan bytes up to a terminator or
a count: ``strlen``, ``strcmp``, ``strncmp``, ``memcmp``, ``strcpy``,
``strncpy``, ``strcat``, ``strncat`` (and their ``__builtin_`` names).

Each call becomes an IR loop of byte :class:`~distaff.analysis.ir.Load` and
:class:`~distaff.analysis.ir.Store` instructions at ``ptr + i``, as if the file
defined the function. So every byte the function touches is an ordinary
memory access of the calling thread: the escape analysis makes it GLOBAL when
the memory may be shared, DPOR sees each read and write, another thread may
run between two bytes as it may in C, running past an object's end is the
engine's out-of-bounds error, and every later analysis (points-to, slicing,
weakest preconditions) reads the loop like user code. A string the loop
cannot finish within the unwind bound cuts the run ("holds within the
bound"), never a wrong value. Each loop iteration handles :data:`UNROLL`
bytes, so one back edge covers several characters.

The C standard fixes only the sign of ``strcmp``/``strncmp``/``memcmp``: the
result is any int of the sign of the first differing bytes' difference (as
``unsigned char``), made from a fresh symbol, so no assertion can rely on a
particular magnitude.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from distaff.analysis.ir import (
    SCALAR_TYPES,
    Assign, Binary, Cast, Const, Expr, Intrinsic, IntType, Ite, Kind, Load, Op, PtrAdd,
    PtrType, Reg, Span, Store, Unary,
)
from distaff.analysis.frontend.labels import Goto, IfGoto
from distaff.analysis.frontend.ctypes import INT, UCHAR, UINT
from distaff.analysis.frontend.lower_const import cast

UNROLL = 4  # bytes handled per loop iteration (per back edge)


@dataclass(frozen=True, slots=True)
class StringFunc:
    """``params``: ``"p"`` a pointer argument, ``"n"`` a ``size_t`` count.
    ``ret``: ``"size"``, ``"int"`` (a comparison) or ``"dst"`` (the first argument)."""

    params: tuple[str, ...]
    ret: str


STRING_FUNCS: dict[str, StringFunc] = {
    "strlen": StringFunc(("p",), "size"),
    "strcmp": StringFunc(("p", "p"), "int"),
    "strncmp": StringFunc(("p", "p", "n"), "int"),
    "memcmp": StringFunc(("p", "p", "n"), "int"),
    "strcpy": StringFunc(("p", "p"), "dst"),
    "strncpy": StringFunc(("p", "p", "n"), "dst"),
    "strcat": StringFunc(("p", "p"), "dst"),
    "strncat": StringFunc(("p", "p", "n"), "dst"),
}
STRING_FUNCS |= {f"__builtin_{k}": v for k, v in list(STRING_FUNCS.items())}


class StringLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: string.h loops."""

    string_name = ""  # the C name of the call being lowered, for intrinsics' names

    def string_call(self, name: str, sf: StringFunc, args: list[ts.Node], node: ts.Node) -> Expr:
        span = self.span(node)
        size_t = self.ct.size_t
        byte_ptr = self.ptr(UCHAR)
        values: list[Expr] = []
        for i, a in enumerate(args):
            v = self.rvalue(a)  # arguments past the prototype: evaluated only
            if i < len(sf.params):
                want = byte_ptr if sf.params[i] == "p" else size_t
                if not isinstance(v.type, SCALAR_TYPES):
                    self.unsupported(a, f"argument of {name} is not a pointer or an integer")
                    v = Const(0, want)
                values.append(self._keep(cast(v, want), span))
        if len(values) < len(sf.params):
            self.unsupported(node, f"{name} with too few arguments")
            return self.nondet(size_t if sf.ret == "size" else INT, node, name)
        base = name.removeprefix("__builtin_")
        self.string_name = name
        return getattr(self, f"_str_{base}")(values, span)

    # -- the functions --------------------------------------------------------

    def _str_strlen(self, a: list[Expr], span: Span) -> Expr:
        i = self._counter(span)
        self._scan(i, None, span, lambda done: self._stop_at_nul(self._byte(a[0], i, span), done, span))
        return i

    def _str_strcmp(self, a: list[Expr], span: Span) -> Expr:
        return self._compare(a[0], a[1], None, True, span)

    def _str_strncmp(self, a: list[Expr], span: Span) -> Expr:
        return self._compare(a[0], a[1], a[2], True, span)

    def _str_memcmp(self, a: list[Expr], span: Span) -> Expr:
        return self._compare(a[0], a[1], a[2], False, span)

    def _str_strcpy(self, a: list[Expr], span: Span) -> Expr:
        self._copy(a[0], a[1], None, span)
        return a[0]

    def _str_strncpy(self, a: list[Expr], span: Span) -> Expr:
        d, s, n = a
        i = self._copy(d, s, n, span)
        # a source shorter than n: the rest of the n bytes are zeros
        pad, done = self.label(), self.label()
        self.emit(IfGoto(Binary("<", i, n, INT), pad, done, span))
        self.place(pad)
        nxt = self.temp(self.ct.size_t)
        self.emit(Assign(nxt, Binary("+", i, Const(1, self.ct.size_t), self.ct.size_t), span))
        self.emit(Intrinsic(Op.MEMSET, None, (PtrAdd(d, nxt, d.type), Const(0, INT),
                                              Binary("-", n, nxt, self.ct.size_t)),
                            span, Kind.GLOBAL, name=self.string_name))
        self.place(done)
        return d

    def _str_strcat(self, a: list[Expr], span: Span) -> Expr:
        end = self._end_of(a[0], span)
        self._copy(end, a[1], None, span)
        return a[0]

    def _str_strncat(self, a: list[Expr], span: Span) -> Expr:
        d, s, n = a
        end = self._end_of(d, span)
        # at most n bytes of s, then always a terminating zero
        i = self._copy(end, s, n, span)
        done = self.label()
        write = self.label()
        self.emit(IfGoto(Binary("<", i, n, INT), done, write, span))
        self.place(write)
        self.emit(Store(PtrAdd(end, i, end.type), Const(0, UCHAR), UCHAR, span))
        self.place(done)
        return d

    # -- building blocks ----------------------------------------------------

    def _keep(self, v: Expr, span: Span) -> Expr:
        if isinstance(v, (Reg, Const)):
            return v
        r = self.temp(v.type)
        self.emit(Assign(r, v, span))
        return r

    def _counter(self, span: Span) -> Reg:
        i = self.temp(self.ct.size_t)
        self.emit(Assign(i, Const(0, self.ct.size_t), span))
        return i

    def _byte(self, p: Expr, i: Reg, span: Span) -> Reg:
        c = self.temp(UCHAR)
        self.emit(Load(c, PtrAdd(p, i, p.type), UCHAR, span))
        return c

    def _stop_at_nul(self, c: Expr, done, span: Span) -> None:
        go = self.label()
        self.emit(IfGoto(Binary("!=", c, Const(0, UCHAR), INT), go, done, span))
        self.place(go)

    def _scan(self, i: Reg, count: Expr | None, span: Span, body) -> None:
        """``for (i = i; count is None || i < count; i++) body(done)``, UNROLL
        bytes per iteration; ``body`` emits one byte's work and jumps to
        ``done`` to leave the loop with ``i`` at that byte."""
        head, done = self.label(), self.label()
        one = Const(1, self.ct.size_t)
        self.place(head)
        for _ in range(UNROLL):
            if count is not None:
                go = self.label()
                self.emit(IfGoto(Binary("<", i, count, INT), go, done, span))
                self.place(go)
            body(done)
            self.emit(Assign(i, Binary("+", i, one, self.ct.size_t), span))
        self.emit(Goto(head, span))
        self.place(done)

    def _end_of(self, p: Expr, span: Span) -> Expr:
        """``p + strlen(p)`` in a register."""
        n = self._str_strlen([p], span)
        end = self.temp(p.type)
        self.emit(Assign(end, PtrAdd(p, n, p.type), span))
        return end

    def _copy(self, d: Expr, s: Expr, n: Expr | None, span: Span) -> Reg:
        """Copy bytes of ``s`` to ``d`` up to and including the first zero
        (and at most ``n``); returns the index of the zero (or ``n``)."""
        i = self._counter(span)

        def body(done):
            c = self._byte(s, i, span)
            self.emit(Store(PtrAdd(d, i, d.type), c, UCHAR, span))
            self._stop_at_nul(c, done, span)

        self._scan(i, n, span, body)
        return i

    def _compare(self, a: Expr, b: Expr, n: Expr | None, strings: bool, span: Span) -> Expr:
        i = self._counter(span)
        diff = self.temp(INT)
        self.emit(Assign(diff, Const(0, INT), span))

        def body(done):
            x = self._byte(a, i, span)
            y = self._byte(b, i, span)
            self.emit(Assign(diff, Binary("-", Cast(x, INT), Cast(y, INT), INT), span))
            same = self.label()
            self.emit(IfGoto(Binary("!=", diff, Const(0, INT), INT), done, same, span))
            self.place(same)
            if strings:
                self._stop_at_nul(x, done, span)

        self._scan(i, n, span, body)
        # any int of diff's sign: ~(m >> 1) covers the negatives, (m >> 1 or 1) the positives
        m = self.temp(UINT)
        self.emit(Intrinsic(Op.NONDET, m, (), span, name=self.string_name))
        half = Binary(">>", m, Const(1, UINT), UINT)
        neg = Cast(Unary("~", half, UINT), INT)
        pos = Cast(Ite(Binary("==", half, Const(0, UINT), INT), Const(1, UINT), half, UINT), INT)
        zero = Const(0, INT)
        r = self.temp(INT)
        self.emit(Assign(r, Ite(Binary("<", diff, zero, INT), neg,
                                Ite(Binary(">", diff, zero, INT), pos, zero, INT), INT), span))
        return r
