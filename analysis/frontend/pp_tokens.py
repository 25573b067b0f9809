"""Preprocessing tokens: the lexer's pattern, the token and macro records."""

from __future__ import annotations

import re
from dataclasses import dataclass


# A token with the blanks before it; the group named by ``lastgroup`` is the token.
_TOKEN = re.compile(
    r"[ \t]*(?:" + "|".join(
        (
            r"(?P<nl>\n)",
            r"(?P<ws>(?:[ \t\r\f\v]|\\\r?\n)+)",
            r"(?P<cmt>/\*[^*]*\*+(?:[^/*][^*]*\*+)*/)",
            r"(?P<ucmt>/\*[\s\S]*)",
            r"(?P<lcmt>//(?:\\\r?\n|[^\n])*)",
            r"""(?P<str>(?:u8|[uUL])?"(?:[^"\\\n]|\\[\s\S])*"?)""",
            r"""(?P<chr>(?:u8|[uUL])?'(?:[^'\\\n]|\\[\s\S])*'?)""",
            r"(?P<num>\.?[0-9](?:[eEpP][+-]|[.\w])*)",
            r"(?P<id>(?:[^\W\d]|\$)(?:\w|\$)*)",
            r"(?P<op>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|&&|\|\||[-+*/%&|^!=<>]=|##|[^\s])",
            r"(?P<other>[\s\S])",
        )
    )
    + ")"
)
_BLANK = frozenset({"ws", "nl", "cmt", "ucmt", "lcmt"})
_IDENT = re.compile(r"(?:[^\W\d]|\$)(?:\w|\$)*")
_PARENS = re.compile(r"[()]")
_DIRECTIVE = re.compile(r"[ \t\f\v\r]*#")
_NO_HIDE: frozenset[str] = frozenset()


class _Tok:
    """A token under macro expansion.

    ``src`` is the index of the source token it is (verbatim), or -1 for a
    token an expansion produced; ``origin`` is then the index of the source
    token whose expansion produced it. ``hs`` is its hide set; ``ws`` whether
    white space came before it.
    """

    __slots__ = ("kind", "text", "hs", "src", "origin", "ws")

    def __init__(self, kind: str, text: str, hs: frozenset[str], src: int, origin: int, ws: bool):
        self.kind = kind
        self.text = text
        self.hs = hs
        self.src = src
        self.origin = origin
        self.ws = ws

    def copy(self, origin: int) -> "_Tok":
        return _Tok(self.kind, self.text, self.hs, -1, origin, self.ws)


@dataclass(frozen=True, slots=True)
class _Macro:
    """A macro definition. ``params`` is None for an object-like macro; a
    variadic macro's last parameter is its variadic one. ``body`` holds
    (kind, text, ws, parameter index or -1) per replacement token."""

    name: str
    params: tuple[str, ...] | None
    variadic: bool
    body: tuple[tuple[str, str, bool, int], ...]
    special: str = ""  # __LINE__, __FILE__, __COUNTER__: computed at each use
    va_opt: bool = False
