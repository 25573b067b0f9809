"""Source files being preprocessed and the places expansions happen in them
(lines and spans of source tokens)."""

from __future__ import annotations

from bisect import bisect_right

from distaff.analysis.frontend.pp_tokens import _IDENT
from distaff.analysis.ir import Span


class _File:
    """A source file being read."""

    __slots__ = ("text", "path", "index", "lines", "starts", "depth")

    def __init__(self, text: str, path: str, index: int, depth: int):
        self.text = text
        self.path = path
        self.index = index
        self.depth = depth
        self.lines = text.split("\n")
        starts = [0]
        total = 0
        for line in self.lines[:-1]:
            total += len(line) + 1
            starts.append(total)
        self.starts = starts

    def point(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        i = bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1

    def span(self, start: int, end: int) -> Span:
        line, col = self.point(start)
        end_line, end_col = self.point(max(end, start))
        return Span(self.path, line, col, end_line, end_col)


class _Site:
    """Where an expansion happens: gives lines and spans of source tokens and
    collects which source tokens invocations consumed."""

    __slots__ = ("file", "offsets", "fallback", "consumed", "origins")

    def __init__(self, file: _File, offsets: list[int], fallback: "Span | tuple[int, int]"):
        self.file = file
        self.offsets = offsets  # source token index -> character offset
        self.fallback = fallback  # where tokens not from the source are, or its (line, col)
        self.consumed: set[int] = set()
        self.origins: set[int] = set()

    def span(self, index: int) -> Span:
        """The span of the macro name of source token ``index`` (or of the
        fallback place)."""
        if 0 <= index < len(self.offsets):
            start = self.offsets[index]
        elif isinstance(self.fallback, Span):
            return self.fallback
        else:
            line, col = self.fallback
            start = self.file.starts[line - 1] + col - 1
        name = _IDENT.match(self.file.text, start)
        return self.file.span(start, name.end() if name else start)

    def line(self, index: int) -> int:
        if 0 <= index < len(self.offsets):
            return self.file.point(self.offsets[index])[0]
        return self.span(-1).line
