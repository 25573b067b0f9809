"""Lowering of C literals: integer, floating and character constants with
their C types, and string literals as read-only global objects (``.str.N``)."""

from __future__ import annotations

from fractions import Fraction

import tree_sitter as ts

from distaff.analysis import floats

from distaff.analysis.ir import Addr, ArrayType, Const, CType, DataModel, Expr, GlobalVar, InitValue, ObjKind
from distaff.analysis.frontend.ctypes import CHAR, DOUBLE, FLOAT, INT, I64, LONG_DOUBLE, U64, UINT, normalise
from distaff.analysis.frontend.lower_const import const
from distaff.analysis.frontend.lower_loc import MemLoc


class LiteralLowering:
    """Mixin of :class:`distaff.analysis.frontend.lower_func.Lowerer`: literals."""

    def number(self, node: ts.Node) -> Expr:
        raw = node.text
        known = self.u.literals.get(raw)
        if known is None:
            known = self.u.literals[raw] = parse_int_literal(raw.decode("utf-8", "replace").replace("'", ""), self.ct)
        value, t = known
        if value is None:
            floating = parse_float_literal(raw.decode("utf-8", "replace").replace("'", ""))
            if floating is None or floating.type == LONG_DOUBLE and self.ct.data_model is not DataModel.LP64:
                self.unsupported(node, "long double constant (only x86-64's long double is modelled)")
                return self.nondet(I64, node, "float")
            return floating
        return Const(normalise(value, t), t)

    def char(self, node: ts.Node) -> Expr:
        text = self.text(node)
        q = text.find("'")
        body = text[q + 1 : text.rfind("'")] if q >= 0 else ""
        data = decode_c_string(body)
        if not data:
            return Const(0, INT)
        v = 0
        for b in data:
            v = (v << 8) | b
        if len(data) == 1:
            v = normalise(data[0], CHAR)
        return const(v, INT)

    def new_string(self, data: bytes, node: ts.Node):
        name = f".str.{len(self.u.strings)}"
        t = ArrayType(CHAR, len(data) + 1)
        init = tuple(InitValue(i, CHAR, Const(normalise(b, CHAR), CHAR)) for i, b in enumerate(data) if b)
        self.u.strings.append(GlobalVar(name, t, init, self.span(node), is_string=True))
        return MemLoc(Addr(name, ObjKind.STRING, self.ptr(t)), t)

    def string_bytes(self, node: ts.Node) -> bytes:
        parts = [node] if node.type == "string_literal" else [
            c for c in node.named_children if c.type == "string_literal"]
        out = b""
        for p in parts:
            text = self.text(p)
            q = text.find('"')
            out += decode_c_string(text[q + 1 : text.rfind('"')])
        return out

    def string_loc(self, node: ts.Node):
        first = node if node.type == "string_literal" else node.named_children[0] if node.named_children else node
        if first.text[:1] in (b"L", b"u", b"U") and not first.text.startswith(b"u8"):
            self.unsupported(node, "wide string literal (read as bytes)")
        return self.new_string(self.string_bytes(node), node)


def parse_int_literal(text: str, ct) -> tuple[int | None, CType]:
    """Value and C type of an integer constant (None for a floating one)."""
    t = text.lower().strip()
    sign = 1
    if t[:1] in ("-", "+"):  # tree-sitter may fold a sign into the literal: C applies it after typing
        sign = -1 if t[0] == "-" else 1
        t = t[1:].strip()
    i = len(t)
    while i > 0 and t[i - 1] in "ul":
        i -= 1
    digits, suffix = t[:i], t[i:]
    try:
        if digits.startswith("0x"):
            if "." in digits or "p" in digits:
                return None, INT
            value, decimal = int(digits[2:], 16), False
        elif digits.startswith("0b"):
            value, decimal = int(digits[2:], 2), False
        elif any(ch in digits for ch in ".e") or "f" in suffix:
            return None, INT
        elif len(digits) > 1 and digits.startswith("0"):
            value, decimal = int(digits, 8), False
        else:
            value, decimal = int(digits, 10), True
    except ValueError:
        return None, INT
    unsigned = "u" in suffix
    longs = suffix.count("l")
    long_t, ulong_t = ct.long, ct.ulong
    cands: list[CType] = []
    if longs == 0:
        cands = [INT, UINT, long_t, ulong_t, I64, U64]
    elif longs == 1:
        cands = [long_t, ulong_t, I64, U64]
    else:
        cands = [I64, U64]
    if unsigned:
        cands = [c for c in cands if not c.signed]
    elif decimal:
        cands = [c for c in cands if c.signed] or [U64]
    for c in cands:
        limit = 2 ** (c.bits - 1) if c.signed else 2**c.bits
        if value < limit:
            return sign * value, c
    return sign * value, U64


def parse_float_literal(text: str) -> Const | None:
    """The constant a floating literal denotes (decimal or hexadecimal, with
    ``f`` for a float, ``l`` for a long double: x86-64's), its value rounded
    once, to nearest; None for a form it does not read."""
    t = text.lower().strip()
    sign = 1
    if t[:1] in ("-", "+"):
        sign = -1 if t[0] == "-" else 1
        t = t[1:].strip()
    ty = DOUBLE
    if t.endswith("l"):
        t, ty = t[:-1], LONG_DOUBLE
    elif t.endswith("f") and not (t.startswith("0x") and "p" not in t):
        t, ty = t[:-1], FLOAT
    if t.startswith("0x"):
        mantissa, _, exponent = t[2:].partition("p")
        whole, _, frac = mantissa.partition(".")
        q = Fraction(int(whole + frac or "0", 16), 16 ** len(frac)) * Fraction(2) ** int(exponent or "0")
    else:
        q = Fraction(t)
    pattern = floats.round_rational(q, ty.bits)
    return Const(pattern ^ floats.SIGN[ty.bits] if sign < 0 else pattern, ty)


_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "e": 27,
            "\\": 92, "'": 39, '"': 34, "?": 63}


def decode_c_string(body: str) -> bytes:
    """The bytes of a C string/char literal body (escapes resolved, UTF-8)."""
    out = bytearray()
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out += ch.encode("utf-8")
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in "01234567":
            j = i + 1
            while j < n and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(int(body[i + 1 : j], 8) & 0xFF)
            i = j
        elif nxt == "x":
            j = i + 2
            while j < n and body[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[i + 2 : j] or "0", 16) & 0xFF)
            i = j
        elif nxt == "\n":
            i += 2
        else:
            out.append(_ESCAPES.get(nxt, ord(nxt) & 0xFF))
            i += 2
    return bytes(out)
