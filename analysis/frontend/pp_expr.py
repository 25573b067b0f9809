"""Evaluation of ``#if`` integer constant expressions, in 64 bits as C does."""

from __future__ import annotations

import re
from typing import Callable

from distaff.analysis.frontend.pp_tokens import _Tok

MAX_EXPRESSION_DEPTH = 100  # nesting of a #if expression

_MASK = (1 << 64) - 1
_BINARY = {
    "*": 10, "/": 10, "%": 10,
    "+": 9, "-": 9,
    "<<": 8, ">>": 8,
    "<": 7, ">": 7, "<=": 7, ">=": 7,
    "==": 6, "!=": 6,
    "&": 5, "^": 4, "|": 3, "&&": 2, "||": 1,
}
_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "e": 27, "\\": 92, "'": 39, '"': 34, "?": 63}


class _Error(Exception):
    pass


class _Expression:
    """A #if controlling expression over expanded tokens, evaluated with C's
    intmax_t/uintmax_t arithmetic (64 bits). Identifiers left after
    expansion are 0, except ``true`` (1, as in C23). Values are (value,
    unsigned) pairs."""

    def __init__(self, toks: list[_Tok], report: Callable[[str], None]):
        self.toks = [t for t in toks if t.kind != "pm"]
        self.pos = 0
        self.report = report

    def evaluate(self) -> int:
        try:
            value, _ = self.conditional(True, 0)
            if self.pos < len(self.toks):
                raise _Error(f"unexpected {self.toks[self.pos].text!r} in #if expression")
            return value
        except _Error as e:
            self.report(str(e))
            return 0

    def peek(self) -> str:
        return self.toks[self.pos].text if self.pos < len(self.toks) else ""

    def conditional(self, live: bool, depth: int) -> tuple[int, bool]:
        if depth > MAX_EXPRESSION_DEPTH:
            raise _Error("#if expression nests too deeply")
        cond = self.binary(1, live, depth)
        if self.peek() == "?":
            self.pos += 1
            a = self.conditional(live and cond[0] != 0, depth + 1)
            if self.peek() != ":":
                raise _Error("expected ':' in #if expression")
            self.pos += 1
            b = self.conditional(live and cond[0] == 0, depth + 1)
            unsigned = a[1] or b[1]
            value = a[0] if cond[0] else b[0]
            return (value & _MASK if unsigned else value), unsigned
        if self.peek() == ",":
            self.pos += 1
            return self.conditional(live, depth + 1)
        return cond

    def binary(self, level: int, live: bool, depth: int) -> tuple[int, bool]:
        left = self.unary(live, depth)
        while True:
            op = self.peek()
            prec = _BINARY.get(op)
            if prec is None or prec < level:
                return left
            self.pos += 1
            if op == "&&":
                right = self.binary(prec + 1, live and left[0] != 0, depth + 1)
                left = (int(left[0] != 0 and right[0] != 0), False)
            elif op == "||":
                right = self.binary(prec + 1, live and left[0] == 0, depth + 1)
                left = (int(left[0] != 0 or right[0] != 0), False)
            else:
                right = self.binary(prec + 1, live, depth + 1)
                left = self.apply(op, left, right, live)

    def apply(self, op: str, left: tuple[int, bool], right: tuple[int, bool], live: bool) -> tuple[int, bool]:
        if op in ("<<", ">>"):
            a, unsigned = left
            shift = right[0]
            if shift < 0 or shift >= 64:
                return 0, unsigned
            value = a << shift if op == "<<" else a >> shift
            return _wrap(value, unsigned), unsigned
        unsigned = left[1] or right[1]
        a = left[0] & _MASK if unsigned else left[0]
        b = right[0] & _MASK if unsigned else right[0]
        if op in ("/", "%"):
            if b == 0:
                if live:
                    raise _Error("division by zero in #if expression")
                return 0, unsigned
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            value = q if op == "/" else a - q * b
        elif op == "*":
            value = a * b
        elif op == "+":
            value = a + b
        elif op == "-":
            value = a - b
        elif op == "&":
            value = a & b
        elif op == "^":
            value = a ^ b
        elif op == "|":
            value = a | b
        else:
            result = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
            return int(result), False
        return _wrap(value, unsigned), unsigned

    def unary(self, live: bool, depth: int) -> tuple[int, bool]:
        if depth > MAX_EXPRESSION_DEPTH:
            raise _Error("#if expression nests too deeply")
        if self.pos >= len(self.toks):
            raise _Error("#if expression ends too early")
        t = self.toks[self.pos]
        self.pos += 1
        if t.kind == "op":
            if t.text == "(":
                value = self.conditional(live, depth + 1)
                if self.peek() != ")":
                    raise _Error("missing ')' in #if expression")
                self.pos += 1
                return value
            if t.text in ("+", "-", "~", "!"):
                value, unsigned = self.unary(live, depth + 1)
                if t.text == "-":
                    return _wrap(-value, unsigned), unsigned
                if t.text == "~":
                    return _wrap(~value, unsigned), unsigned
                if t.text == "!":
                    return int(value == 0), False
                return value, unsigned
        elif t.kind == "num":
            return _number(t.text)
        elif t.kind == "chr":
            return _char_value(t.text), False
        elif t.kind == "id":
            return int(t.text == "true"), False  # C23: true is 1 in #if
        raise _Error(f"unexpected {t.text!r} in #if expression")


def _wrap(value: int, unsigned: bool) -> int:
    value &= _MASK
    if not unsigned and value >> 63:
        value -= 1 << 64
    return value


_INT = re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*|[uU]?wb|[wW][bB][uU]?)$")


def _number(text: str) -> tuple[int, bool]:
    m = _INT.match(text)
    if not m:
        raise _Error(f"invalid integer constant {text!r} in #if expression")
    digits, suffix = m.groups()
    if digits[:2] in ("0x", "0X"):
        value = int(digits[2:], 16)
    elif digits[:2] in ("0b", "0B"):
        value = int(digits[2:], 2)
    elif digits.startswith("0") and len(digits) > 1:
        if any(c in "89" for c in digits):
            raise _Error(f"invalid octal constant {text!r} in #if expression")
        value = int(digits, 8)
    else:
        value = int(digits)
    unsigned = "u" in suffix.lower() or value > (1 << 63) - 1
    return value & _MASK, unsigned


def _char_value(text: str) -> int:
    prefix, _, body = text.partition("'")
    if not body.endswith("'") or len(body) < 2:
        raise _Error(f"invalid character constant {text} in #if expression")
    body = body[:-1]
    values: list[int] = []
    j = 0
    while j < len(body):
        c = body[j]
        if c != "\\":
            values.append(ord(c))
            j += 1
            continue
        j += 1
        if j >= len(body):
            break
        c = body[j]
        if c in "01234567":
            k = j
            while k < len(body) and k < j + 3 and body[k] in "01234567":
                k += 1
            values.append(int(body[j:k], 8))
            j = k
        elif c == "x":
            k = j + 1
            while k < len(body) and body[k] in "0123456789abcdefABCDEF":
                k += 1
            values.append(int(body[j + 1:k] or "0", 16))
            j = k
        else:
            values.append(_ESCAPES.get(c, ord(c)))
            j += 1
    if not values:
        raise _Error("empty character constant in #if expression")
    if prefix:
        return values[-1]
    if len(values) == 1:
        v = values[0] & 0xFF if values[0] < 256 else values[0]
        return v - 256 if 128 <= v < 256 else v  # plain char is signed on x86
    value = 0
    for v in values:
        value = ((value << 8) | (v & 0xFF)) & 0xFFFFFFFF
    return value - (1 << 32) if value >> 31 else value
