"""The preprocessor's output and its map back to the sources: :class:`Preprocessed`
(the text tree-sitter parses, with :meth:`Preprocessed.position`) and the
:class:`_Output` rows it is built from."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from distaff.analysis.ir import Finding


@dataclass(frozen=True, slots=True)
class Preprocessed:
    """The text tree-sitter parses and the way back to the original sources.

    ``text`` has one line per line of the original files, in reading order:
    a file's own lines, with an included header's lines in place of the
    ``#include`` line. ``headers`` lists the files read through ``#include``.
    """

    text: str
    path: str
    findings: tuple[Finding, ...] = ()
    headers: tuple[str, ...] = ()
    counters: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    _files: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # Per output row: (file index, mapping, ascii). ``mapping`` is the original
    # 1-based line when the row is that line verbatim, else (offsets, segments)
    # with ``segments[i] = (line, col, verbatim)`` starting at byte ``offsets[i]``.
    _rows: tuple = field(default=(), repr=False, compare=False)
    _lines: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def position(self, row: int, byte_col: int, *, end: bool = False) -> tuple[str, int, int]:
        """Map a 0-based tree-sitter point (row, byte column in the UTF-8 of
        ``text``) to a 1-based (file, line, column in characters) of the
        original file it came from.

        A point inside text an expansion produced maps to the start of the
        macro invocation; with ``end=True`` (for the end point of a range) it
        maps to the end of the invocation instead.
        """
        rows = self._rows
        if not rows:
            line = self.text.split("\n")[row] if 0 <= row <= self.text.count("\n") else ""
            return self.path, max(row, 0) + 1, len(line.encode()[: max(byte_col, 0)].decode(errors="ignore")) + 1
        if row >= len(rows):
            row, byte_col = len(rows) - 1, 1 << 30
        elif row < 0:
            row, byte_col = 0, 0
        if byte_col < 0:
            byte_col = 0
        file_index, mapping, ascii = rows[row]
        path = self._files[file_index]
        if type(mapping) is int:
            if ascii:
                return path, mapping, min(byte_col, len(self._lines[row])) + 1
            return path, mapping, _chars(self._lines[row], 0, byte_col) + 1
        offsets, segments = mapping
        i = bisect_right(offsets, byte_col) - 1
        line, col, verbatim = segments[i]
        if verbatim:
            if ascii:
                return path, line, col + min(byte_col, len(self._lines[row])) - offsets[i]
            return path, line, col + _chars(self._lines[row], offsets[i], byte_col)
        if end and i + 1 < len(segments) and byte_col > offsets[i]:
            line, col, _ = segments[i + 1]
        return path, line, col


def _chars(line: str, start: int, stop: int) -> int:
    """Characters in bytes [start, stop) of the UTF-8 of ``line``."""
    return len(line.encode("utf-8", "surrogatepass")[start:stop].decode("utf-8", "ignore"))


class _Output:
    """Output rows under construction, each with its map to the sources."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.rows: list[tuple] = []
        self.files: list[str] = []
        self._file_index: dict[str, int] = {}
        # the row being built
        self._pieces: list[str] = []
        self._file = 0
        self._base = 0  # the original line this row stands for
        self._bytes = 0
        self._chars = 0
        self._offsets: list[int] = []
        self._segments: list[tuple[int, int, bool]] = []
        self._seg_chars = 0  # self._chars when the last segment started
        self._last = ""  # the last character of the row
        self._after_expansion = False

    def file(self, path: str) -> int:
        index = self._file_index.get(path)
        if index is None:
            index = self._file_index[path] = len(self.files)
            self.files.append(path)
        return index

    def verbatim_line(self, file: int, line: int, text: str) -> None:
        """A row that is original line ``line`` unchanged."""
        self.lines.append(text)
        self.rows.append((file, line, text.isascii()))

    def begin(self, file: int, line: int) -> None:
        self._last, self._after_expansion = "", False
        self._file, self._base = file, line
        self._pieces, self._bytes, self._chars = [], 0, 0
        self._offsets, self._segments, self._seg_chars = [0], [(line, 1, True)], 0

    def finish(self, last_line: int) -> None:
        """End the current row and add empty rows up to ``last_line``."""
        self._catch_up(last_line)
        self._end_row()

    def _end_row(self) -> None:
        text = "".join(self._pieces)
        segments = self._segments
        if len(segments) == 1 and segments[0] == (self._base, 1, True):
            mapping = self._base
        else:
            mapping = (tuple(self._offsets), tuple(segments))
        self.lines.append(text)
        self.rows.append((self._file, mapping, text.isascii()))

    def _catch_up(self, line: int) -> None:
        while self._base < line:
            self._end_row()
            self.begin(self._file, self._base + 1)

    def _segment(self, line: int, col: int, verbatim: bool) -> None:
        if self._offsets[-1] == self._bytes:  # nothing since the last one: replace it
            self._segments[-1] = (line, col, verbatim)
        else:
            last = self._segments[-1]
            if verbatim and last[2] and last[0] == line and last[1] + self._chars - self._seg_chars == col:
                return
            self._offsets.append(self._bytes)
            self._segments.append((line, col, verbatim))
        self._seg_chars = self._chars

    def _append(self, text: str) -> None:
        if text:
            self._pieces.append(text)
            self._chars += len(text)
            self._bytes += len(text) if text.isascii() else len(text.encode("utf-8"))
            self._last = text[-1]

    def verbatim(self, text: str, line: int, col: int) -> None:
        """Original text starting at (line, col); it may span lines."""
        self._catch_up(line)
        if self._after_expansion and text and _merge(self._last, text[0]):
            self._append(" ")  # keep the expansion's last token apart from what follows
        self._after_expansion = False
        parts = text.split("\n")
        self._segment(line, col, True)
        self._append(parts[0])
        for part in parts[1:]:
            self._end_row()
            self.begin(self._file, self._base + 1)
            self._append(part)

    def expansion(self, text: str, line: int, col: int) -> None:
        """Text an expansion produced, standing for an invocation at (line, col)."""
        self._catch_up(line)
        if text:
            if _merge(self._last, text[0]):
                self._append(" ")  # as a compiler would, do not paste tokens by juxtaposition
            self._segment(line, col, False)
            self._append(text)
        self._after_expansion = True

    def mark(self, line: int, col: int) -> None:
        """The point here stands for original (line, col) (after an invocation)."""
        self._segment(line, col, True)


def _merge(left: str, right: str) -> bool:
    """Whether two characters written side by side could join into one token
    (or start a comment) where the source had two."""
    if not left:
        return False
    if left.isalnum() or left in "_$.":
        return right.isalnum() or right in "_$.\"'"
    return left in "+-*/%&|^!=<>#:" and right in "+-*/%&|^!=<>#:"
