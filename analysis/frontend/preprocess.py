"""Light C preprocessing that keeps source positions exact.

:func:`preprocess` turns the text of a C file (an editor buffer or a file on
disk) into the text tree-sitter parses, together with a map from every point of
that text back to the original sources (:meth:`Preprocessed.position`). It
does what distaff needs of a C preprocessor and no more:

* object-like and function-like ``#define`` (``#``, ``##``, ``__VA_ARGS__``,
  ``__VA_OPT__``, GNU ``, ## __VA_ARGS__``), ``#undef``, expansion with hide
  sets (Prosser's algorithm), so a macro is never re-expanded inside itself;
* ``#if/#ifdef/#ifndef/#elif/#elifdef/#elifndef/#else/#endif`` with integer
  constant expressions evaluated in 64 bits as C does;
* ``#include "local.h"`` read through ``read_include`` (the header's lines are
  spliced in and map to the header); ``#include <system.h>`` is skipped, and
  what programs commonly take from system headers is predefined instead
  (``NULL``, ``INT_MAX`` ..., ``PTHREAD_MUTEX_INITIALIZER``, and ``bool``,
  ``true``, ``false`` once ``<stdbool.h>`` is included);
* GNU spellings that tree-sitter-c 0.24 cannot parse in every position are
  rewritten to standard C by built-in macros (``__attribute__((..))``
  disappears, ``__const`` becomes ``const`` ...), so SV-COMP's preprocessed
  ``.i`` files parse without ERROR nodes.

Line structure is kept: a directive line, a line of an inactive ``#if`` group
and every line a multi-line macro invocation spans become empty lines, so
outside macro expansions a token keeps its line and maps back to its exact
column. Text produced by an expansion maps to the start of the invocation; the
point just after an expansion maps to the point just after the invocation.

Bad input never raises: problems become :class:`~analysis.ir.Finding` s with
the range of the directive or token at fault, and preprocessing goes on.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from analysis.frontend.printable import printable
from analysis.ir import DataModel, Finding, FindingKind, Span

ReadInclude = Callable[[str, str], "str | None"]

MAX_INCLUDE_DEPTH = 32
MAX_EXPANSION_TOKENS = 200_000  # per chunk of source lines: stops exponential macros
MAX_EXPRESSION_DEPTH = 100  # nesting of a #if expression
MAX_HEADER_BYTES = 16 << 20


# --------------------------------------------------------------------------
# The result


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


# --------------------------------------------------------------------------
# Tokens

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


# --------------------------------------------------------------------------
# Predefined macros

# GNU spellings tree-sitter-c 0.24 does not parse everywhere, mapped to standard
# C. ``__attribute__``/``__declspec`` give ERROR nodes after a variable's
# declarator, before an enum's name and on statements; ``__const``,
# ``__signed__``, ``__volatile__`` are not known at all; ``_Complex`` (in glibc's
# bits/floatn.h), ``_Thread_local`` and ``__builtin_offsetof`` are not parsed;
# ``__restrict`` is not accepted inside array brackets, ``__inline__`` not after
# ``__asm__``. The others (``__extension__``, ``__asm__`` labels and statements,
# ``__typeof__``, ``__int128``, ``_Float128``, ``__builtin_va_list``,
# ``_Noreturn``, ``__thread``) parse as they are and are left alone.
_GNU = """
__attribute__(...)
__attribute(...)
__declspec(...)
_Pragma(...)
__const const
__const__ const
__signed signed
__signed__ signed
__volatile volatile
__volatile__ volatile
__restrict restrict
__restrict__ restrict
_Complex
__complex__
_Thread_local __thread
__builtin_offsetof offsetof
__ATOMIC_RELAXED 0
__ATOMIC_CONSUME 1
__ATOMIC_ACQUIRE 2
__ATOMIC_RELEASE 3
__ATOMIC_ACQ_REL 4
__ATOMIC_SEQ_CST 5
"""

# What C programs take from the system headers distaff does not read.
_LIBC = """
NULL ((void*)0)
EXIT_SUCCESS 0
EXIT_FAILURE 1
RAND_MAX 2147483647
CHAR_BIT 8
SCHAR_MIN (-128)
SCHAR_MAX 127
UCHAR_MAX 255
CHAR_MIN (-128)
CHAR_MAX 127
SHRT_MIN (-32768)
SHRT_MAX 32767
USHRT_MAX 65535
INT_MIN (-2147483647-1)
INT_MAX 2147483647
UINT_MAX 4294967295U
LLONG_MIN (-9223372036854775807LL-1)
LLONG_MAX 9223372036854775807LL
ULLONG_MAX 18446744073709551615ULL
INT8_MIN (-128)
INT8_MAX 127
UINT8_MAX 255
INT16_MIN (-32768)
INT16_MAX 32767
UINT16_MAX 65535
INT32_MIN (-2147483647-1)
INT32_MAX 2147483647
UINT32_MAX 4294967295U
INT64_MIN (-9223372036854775807LL-1)
INT64_MAX 9223372036854775807LL
UINT64_MAX 18446744073709551615ULL
PTHREAD_MUTEX_INITIALIZER { 0 }
PTHREAD_COND_INITIALIZER { 0 }
PTHREAD_RWLOCK_INITIALIZER { 0 }
__STDC__ 1
__STDC_VERSION__ 201112L
__STDC_HOSTED__ 1
__STDC_UTF_16__ 1
__STDC_UTF_32__ 1
__DATE__ "Jan  1 1970"
__TIME__ "00:00:00"
__CHAR_BIT__ 8
__SIZEOF_SHORT__ 2
__SIZEOF_INT__ 4
__SIZEOF_LONG_LONG__ 8
__INT_MAX__ 2147483647
__LONG_LONG_MAX__ 9223372036854775807LL
__SCHAR_MAX__ 127
__SHRT_MAX__ 32767
__ORDER_LITTLE_ENDIAN__ 1234
__ORDER_BIG_ENDIAN__ 4321
__BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__
__linux__ 1
__linux 1
__unix__ 1
__unix 1
"""

_LP64 = """
__LP64__ 1
_LP64 1
__x86_64__ 1
__x86_64 1
__amd64__ 1
__amd64 1
__SIZEOF_LONG__ 8
__SIZEOF_POINTER__ 8
__SIZEOF_SIZE_T__ 8
__WORDSIZE 64
__LONG_MAX__ 9223372036854775807L
LONG_MIN (-9223372036854775807L-1)
LONG_MAX 9223372036854775807L
ULONG_MAX 18446744073709551615UL
SIZE_MAX 18446744073709551615UL
SSIZE_MAX 9223372036854775807L
PTRDIFF_MIN (-9223372036854775807L-1)
PTRDIFF_MAX 9223372036854775807L
INTPTR_MIN (-9223372036854775807L-1)
INTPTR_MAX 9223372036854775807L
UINTPTR_MAX 18446744073709551615UL
"""

_ILP32 = """
__ILP32__ 1
_ILP32 1
__i386__ 1
__i386 1
__SIZEOF_LONG__ 4
__SIZEOF_POINTER__ 4
__SIZEOF_SIZE_T__ 4
__WORDSIZE 32
__LONG_MAX__ 2147483647L
LONG_MIN (-2147483647L-1)
LONG_MAX 2147483647L
ULONG_MAX 4294967295UL
SIZE_MAX 4294967295U
SSIZE_MAX 2147483647
PTRDIFF_MIN (-2147483647-1)
PTRDIFF_MAX 2147483647
INTPTR_MIN (-2147483647-1)
INTPTR_MAX 2147483647
UINTPTR_MAX 4294967295U
"""

# Defined when the system header is included: programs that do without it
# may use these names themselves (``typedef int bool;``), and tree-sitter-c
# parses them as C23's keywords anyway.
_ON_INCLUDE = {
    "stdbool.h": ("bool _Bool", "true 1", "false 0", "__bool_true_false_are_defined 1"),
}

_SPECIAL = ("__LINE__", "__FILE__", "__COUNTER__")


@lru_cache(maxsize=4)
def _predefined(data_model: DataModel) -> dict[str, _Macro]:
    """The built-in macro table for a data model (shared; copied per run)."""
    pp = _Preprocessor(data_model, None, builtins=False)
    lines = _GNU + _LIBC + (_LP64 if data_model is DataModel.LP64 else _ILP32)
    for line in lines.split("\n"):
        if not line:
            continue
        name, _, value = line.partition(" ")
        pp.define_from_text(name, value, "<built-in>")
    for name in _SPECIAL:
        pp.macros[name] = _Macro(name, None, False, (), special=name)
    assert not pp.findings, pp.findings
    return pp.macros


def _default_read_include(name: str, including_path: str) -> str | None:
    """Read ``name`` relative to the including file's directory (None if it is
    not a readable regular file)."""
    path = _header_path(name, including_path)
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > MAX_HEADER_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    except (OSError, ValueError):
        return None


def _header_path(name: str, including_path: str) -> str:
    if os.path.isabs(name):
        return os.path.normpath(name)
    return os.path.normpath(os.path.join(os.path.dirname(including_path), name))


# --------------------------------------------------------------------------
# Public entry


def preprocess(
    text: str,
    path: str,
    *,
    data_model: DataModel = DataModel.LP64,
    read_include: ReadInclude | None = None,
    defines: dict[str, str] | None = None,
    fast_lines: bool = True,
) -> Preprocessed:
    """Preprocess the C source ``text`` of the file ``path``.

    ``read_include(name, including_path)`` gives the text of the header
    ``#include "name"`` names (None when there is none); by default it is read
    from disk relative to the including file's directory. ``defines`` adds
    macros as ``-D`` does: ``{"N": "4", "MAX(a,b)": "((a)>(b)?(a):(b))"}``.
    The built-in macros depend on ``data_model`` (``__LP64__`` or ``__i386__``,
    ``LONG_MAX``, ``SIZE_MAX`` ...). ``fast_lines`` switches on the
    optimisation that expands a line without strings or comments by reading
    only its invocations (counted as ``counters["simple_lines"]``; lines read
    token by token are ``counters["token_chunks"]``). Never raises.
    """
    text = _clean(text)
    try:
        pp = _Preprocessor(data_model, read_include or _default_read_include, fast_lines=fast_lines)
        for name, value in (defines or {}).items():
            pp.define_from_text(str(name), str(value), "<command line>")
        pp.run_file(text, path, 0)
        return pp.result(path)
    except RecursionError:
        message = "preprocessing nests too deeply"
    except Exception as e:  # a bug of ours must not take the front end down
        message = f"internal preprocessor error: {type(e).__name__}: {e}"
    return Preprocessed(text, path, (Finding(FindingKind.SYNTAX, printable(message), Span(path, 1, 1, 1, 1)),))


def _clean(text: str) -> str:
    """Replace lone surrogates, which cannot be encoded for tree-sitter."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


# --------------------------------------------------------------------------
# Output with its position map


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


# --------------------------------------------------------------------------
# The preprocessor


@dataclass(slots=True)
class _Cond:
    """An open #if group: where it started, whether its enclosing group is
    active, whether the current branch is, whether a branch was taken, whether
    #else was seen."""

    span: Span
    outer: bool
    active: bool
    taken: bool
    seen_else: bool = False


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


class _Preprocessor:
    def __init__(
        self, data_model: DataModel, read_include: ReadInclude | None, builtins: bool = True, fast_lines: bool = True
    ):
        self.data_model = data_model
        self.fast_lines = fast_lines
        self.counters = {"simple_lines": 0, "token_chunks": 0}
        self.read_include = read_include
        self.macros: dict[str, _Macro] = dict(_predefined(data_model)) if builtins else {}
        self.findings: list[Finding] = []
        self.out = _Output()
        self.once: set[str] = set()
        self.headers: list[str] = []
        self.counter = 0
        self.budget = MAX_EXPANSION_TOKENS
        self.flat: dict[str, str | bool] = {}  # object-like macro -> its expansion, if fixed

    def result(self, path: str) -> Preprocessed:
        out = self.out
        return Preprocessed(
            "\n".join(out.lines), path, tuple(self.findings), tuple(dict.fromkeys(self.headers)),
            dict(self.counters), tuple(out.files), tuple(out.rows), tuple(out.lines),
        )

    def finding(self, kind: FindingKind, message: str, span: Span) -> None:
        self.findings.append(Finding(kind, printable(message), span))

    # ---- files and lines

    def run_file(self, text: str, path: str, depth: int) -> None:
        f = _File(text, path, self.out.file(path), depth)
        conds: list[_Cond] = []
        lines = f.lines
        macros = self.macros
        n = len(lines)
        i = 0
        while i < n:
            line = lines[i]
            if _DIRECTIVE.match(line):
                i = self.directive(f, i, conds)
                continue
            if conds and not conds[-1].active:
                if "/*" in line or line.endswith("\\") or line.endswith("\\\r"):
                    i = self.skipped(f, i)
                else:
                    self.out.verbatim_line(f.index, i + 1, "")
                    i += 1
                continue
            col = 0
            if "/*" not in line and not line.endswith(("\\", "\\\r")):
                for word in _IDENT.findall(line):
                    if word in macros:
                        break
                else:
                    self.out.verbatim_line(f.index, i + 1, line)
                    i += 1
                    continue
                if self.fast_lines and not ('"' in line or "'" in line or "//" in line) and self.simple_line(f, i):
                    self.counters["simple_lines"] += 1
                    i += 1
                    continue
                # start reading tokens at the first macro name when what comes
                # before it cannot hide it (in a string, comment or number)
                for m in _IDENT.finditer(line):
                    if m.group() in macros:
                        col = m.start()
                        break
                prefix = line[:col]
                if col and ('"' in prefix or "'" in prefix or "//" in prefix or prefix[-1].isalnum() or prefix[-1] in "_$."):
                    col = 0
            self.counters["token_chunks"] += 1
            i = self.code(f, i, col)
        for cond in conds:
            self.finding(FindingKind.SYNTAX, "unterminated conditional directive (#if without #endif)", cond.span)

    def simple_line(self, f: _File, i: int) -> bool:
        """Expand and emit line ``i``, which has no string, character
        constant, comment or continuation, by reading only its macro
        invocations. False (nothing done) when the line needs the general
        path: an invocation that is not closed on the line, a function-like
        macro's name at its end, an expansion ending in such a name (it could
        take what follows as arguments), a macro name touching a number."""
        line, macros = f.lines[i], self.macros
        findings, counter = len(self.findings), self.counter
        pieces: list[tuple[int, int, str]] = []  # (start, end, expansion)
        done = 0
        for m in _IDENT.finditer(line):
            start = m.start()
            macro = macros.get(m.group())
            if macro is None or start < done:
                continue
            if start and (line[start - 1].isalnum() or line[start - 1] in "_$."):
                break
            end = m.end()
            if macro.params is None:
                flat = self.flat.get(macro.name)
                if flat is None:
                    flat = self.flat[macro.name] = _flat(macro, macros)
                if flat is not False:  # the body, with nothing in it to expand
                    pieces.append((start, end, flat))
                    done = end
                    continue
            else:
                j = end
                while j < len(line) and line[j] in " \t":
                    j += 1
                if j >= len(line) or line[j] in "\r\f\v":
                    break
                if line[j] != "(":
                    continue
                level = 0
                for p in _PARENS.finditer(line, j):
                    level += 1 if p.group() == "(" else -1
                    if level == 0:
                        end = p.end()
                        break
                else:
                    break
                if not macro.body and macro.params == ("__VA_ARGS__",):  # __attribute__(...)
                    pieces.append((start, end, ""))
                    done = end
                    continue
            toks = []
            ws = False
            for t in _TOKEN.finditer(line, start, end):
                kind = t.lastgroup
                if kind in _BLANK:
                    ws = True
                    continue
                toks.append(_Tok(kind, t.group(kind), _NO_HIDE, -1, -1, ws or t.start(kind) != t.start()))
                ws = False
            self.budget = MAX_EXPANSION_TOKENS
            result = self.expand(toks, _Site(f, [], (i + 1, start + 1)))
            if result and result[-1].kind == "id":
                tail = macros.get(result[-1].text)
                if tail is not None and tail.params is not None and result[-1].text not in result[-1].hs:
                    break
            pieces.append((start, end, " ".join(t.text for t in result)))
            done = end
        else:
            out = self.out
            out.begin(f.index, i + 1)
            done = 0
            for start, end, text in pieces:
                if start > done:
                    out.verbatim(line[done:start], i + 1, done + 1)
                out.expansion(text, i + 1, start + 1)
                out.mark(i + 1, end + 1)
                done = end
            if done < len(line):
                out.verbatim(line[done:], i + 1, done + 1)
            out.finish(i + 1)
            return True
        del self.findings[findings:]
        self.counter = counter
        return False

    def skipped(self, f: _File, i: int) -> int:
        """Lines of an inactive group starting at line ``i`` (0-based) that
        comments or continuations join; returns the next line."""
        end = len(f.text)
        for m in _TOKEN.finditer(f.text, f.starts[i]):
            if m.lastgroup == "nl":
                end = m.start("nl")
                break
        last = f.point(end)[0]
        for line in range(i + 1, last + 1):
            self.out.verbatim_line(f.index, line, "")
        return last

    def code(self, f: _File, i: int, col: int = 0) -> int:
        """Active code from line ``i`` (0-based) on: the line, and the lines
        after it a comment, a continuation or an unclosed macro invocation
        joins to it. Tokens are read from column ``col`` (0-based) of the
        first line on. Returns the next line."""
        text, macros = f.text, self.macros
        toks: list[tuple[str, str, int, bool]] = []  # (kind, text, offset, white space before)
        marks: list[int] = []  # indices in toks of macro names
        depth = 0
        open_calls: list[int] = []  # depths at which macro invocations opened; -1: name seen
        end = len(text)
        ws = False
        for m in _TOKEN.finditer(text, f.starts[i] + col):
            kind = m.lastgroup
            start = m.start(kind)
            if start != m.start():
                ws = True
            if kind == "id":
                tok = m.group(kind)
                if open_calls and open_calls[-1] == -1:
                    open_calls.pop()  # a function-like macro's name not followed by "("
                macro = macros.get(tok)
                if macro is not None:
                    marks.append(len(toks))
                    if macro.params is not None:
                        open_calls.append(-1)
            elif kind in _BLANK:
                if kind == "nl":
                    if not open_calls:
                        end = start
                        break
                    line = f.point(start)[0]  # the 1-based line this newline ends
                    if line >= len(f.lines) or _DIRECTIVE.match(f.lines[line]):
                        end = start
                        break
                elif kind == "ucmt":
                    self.finding(FindingKind.SYNTAX, "unterminated comment", f.span(start, start + 2))
                ws = True
                continue
            else:
                tok = m.group(kind)
                if open_calls:
                    if open_calls[-1] == -1 and tok != "(":
                        open_calls.pop()
                    if tok == "(":
                        if open_calls[-1] == -1:
                            open_calls[-1] = depth
                    elif tok == ")":
                        while open_calls and open_calls[-1] >= depth - 1:
                            open_calls.pop()
                if tok == "(":
                    depth += 1
                elif tok == ")":
                    depth -= 1
            toks.append((kind, tok, start, ws))
            ws = False
        last_line = f.point(end)[0]
        if marks:
            self.emit_expanded(f, i, toks, marks, end, last_line)
        else:
            for line in range(i + 1, last_line + 1):
                self.out.verbatim_line(f.index, line, f.lines[line - 1])
        return last_line

    def emit_expanded(
        self, f: _File, i: int, toks: list[tuple[str, str, int, bool]], marks: list[int], end: int, last_line: int
    ) -> None:
        """Expand the macros of the chunk ``toks`` (lines ``i + 1`` to
        ``last_line``) and emit it: the text between invocations as it is,
        each invocation's expansion at the invocation's place."""
        offsets = [t[2] for t in toks]
        site = _Site(f, offsets, (i + 1, 1))
        self.budget = MAX_EXPANSION_TOKENS
        produced: dict[int, list[str]] = {}
        for t in self.expand([], site, toks, marks):
            produced.setdefault(t.origin, []).append(t.text)
        consumed = sorted(site.consumed)
        origins = site.origins
        text, out, point = f.text, self.out, f.point
        if last_line == i + 1:
            line_start = f.starts[i] - 1
            point = lambda offset: (last_line, offset - line_start)  # noqa: E731
        out.begin(f.index, i + 1)
        pos = f.starts[i]  # the source text before this is emitted
        j, n = 0, len(consumed)
        while j < n:
            first = last = consumed[j]
            while j + 1 < n and consumed[j + 1] == last + 1:
                j += 1
                last += 1
            j += 1
            # source tokens first..last all belong to invocations
            if offsets[first] > pos:
                out.verbatim(text[pos:offsets[first]], *point(pos))
            for k in range(first, last + 1):
                if k in origins:
                    if k != first:  # white space between two invocations
                        gap = offsets[k - 1] + len(toks[k - 1][1])
                        if gap < offsets[k]:
                            out.verbatim(text[gap:offsets[k]], *point(gap))
                    out.expansion(" ".join(produced.get(k, ())), *point(offsets[k]))
            pos = offsets[last] + len(toks[last][1])
            out.mark(*point(pos))
        if end > pos:
            out.verbatim(text[pos:end], *point(pos))
        out.finish(last_line)

    # ---- directives

    def directive(self, f: _File, i: int, conds: list[_Cond]) -> int:
        text = f.text
        toks: list[tuple[str, str, int, bool]] = []
        ws = False
        end = len(text)
        for m in _TOKEN.finditer(text, f.starts[i]):
            kind = m.lastgroup
            start = m.start(kind)
            if kind == "nl":
                end = start
                break
            if kind in _BLANK:
                ws = True
                if kind == "ucmt" and (not conds or conds[-1].active):
                    self.finding(FindingKind.SYNTAX, "unterminated comment", f.span(start, start + 2))
                continue
            toks.append((kind, m.group(kind), start, ws or start != m.start()))
            ws = False
        last_line = f.point(end)[0]
        tail = toks[-1] if toks else None
        span = f.span(toks[0][2], tail[2] + len(tail[1])) if toks else f.span(f.starts[i], end)
        name = toks[1][1] if len(toks) > 1 and toks[1][0] == "id" else ""
        args = toks[2:]
        active = not conds or conds[-1].active
        first_out = i + 1
        if name in ("if", "ifdef", "ifndef"):
            if active:
                value = self.condition(name, args, f, span)
                conds.append(_Cond(span, True, value, value))
            else:
                conds.append(_Cond(span, False, False, True))
        elif name in ("elif", "elifdef", "elifndef"):
            if not conds:
                self.finding(FindingKind.SYNTAX, f"#{name} without #if", span)
            else:
                cond = conds[-1]
                if cond.seen_else:
                    self.finding(FindingKind.SYNTAX, f"#{name} after #else", span)
                if not cond.outer or cond.taken:
                    cond.active = False
                else:
                    cond.active = self.condition(name[2:] or "if", args, f, span)
                    cond.taken = cond.active
        elif name == "else":
            if not conds:
                self.finding(FindingKind.SYNTAX, "#else without #if", span)
            else:
                cond = conds[-1]
                if cond.seen_else:
                    self.finding(FindingKind.SYNTAX, "#else after #else", span)
                cond.active = cond.outer and not cond.taken
                cond.taken = cond.seen_else = True
        elif name == "endif":
            if conds:
                conds.pop()
            else:
                self.finding(FindingKind.SYNTAX, "#endif without #if", span)
        elif not active:
            pass
        elif name == "define":
            self.define(args, f, span)
        elif name == "undef":
            if args and args[0][0] == "id":
                self.macros.pop(args[0][1], None)
                self.flat.clear()
            else:
                self.finding(FindingKind.SYNTAX, "#undef needs a macro name", span)
        elif name in ("include", "import"):
            if self.include(args, f, span):
                first_out = i + 2
        elif name == "error":
            message = text[args[0][2]: tail[2] + len(tail[1])] if args else ""
            self.finding(FindingKind.SYNTAX, f"#error {message}".rstrip(), span)
        elif name == "pragma":
            if args and args[0][1] == "once":
                self.once.add(f.path)
        elif name in ("line", "warning", "ident", "sccs", "assert", "unassert", "include_next", ""):
            if not name and len(toks) > 1 and toks[1][0] != "num":
                self.finding(FindingKind.SYNTAX, f"invalid preprocessing directive {toks[1][1]!r}", span)
        else:
            self.finding(FindingKind.UNSUPPORTED, f"unsupported preprocessing directive #{name}", span)
        for line in range(first_out, last_line + 1):
            self.out.verbatim_line(f.index, line, "")
        return last_line

    def define(self, toks: list[tuple[str, str, int, bool]], f: _File, span: Span) -> None:
        if not toks or toks[0][0] != "id":
            self.finding(FindingKind.SYNTAX, "#define needs a macro name", span)
            return
        name = toks[0][1]
        if name == "defined":
            self.finding(FindingKind.SYNTAX, '"defined" cannot be used as a macro name', span)
            return
        params: tuple[str, ...] | None = None
        variadic = False
        body = toks[1:]
        if body and body[0][1] == "(" and not body[0][3]:
            names: list[str] = []
            j = 1
            ok = False
            while j < len(body):
                kind, tok, _, _ = body[j]
                if tok == ")" and not names and j == 1:
                    ok, j = True, j + 1
                    break
                if tok == "...":
                    names.append("__VA_ARGS__")
                    variadic = True
                    j += 1
                elif kind == "id" and tok not in names:
                    names.append(tok)
                    j += 1
                    if j < len(body) and body[j][1] == "...":
                        variadic = True
                        j += 1
                else:
                    break
                if j < len(body) and body[j][1] == ")":
                    ok, j = True, j + 1
                    break
                if variadic or j >= len(body) or body[j][1] != ",":
                    break
                j += 1
            if not ok:
                self.finding(FindingKind.SYNTAX, f"invalid parameter list in the definition of {name}", span)
                return
            params = tuple(names)
            body = body[j:]
        elif body and not body[0][3]:
            pass  # C wants white space after an object-like macro's name; GCC only warns
        index = {p: k for k, p in enumerate(params or ())}
        replacement = tuple((kind, tok, ws, index.get(tok, -1)) for kind, tok, _, ws in body)
        if replacement and (replacement[0][1] == "##" or replacement[-1][1] == "##"):
            self.finding(FindingKind.SYNTAX, f"'##' cannot appear at either end of the definition of {name}", span)
            replacement = tuple(b for b in replacement if b[1] != "##")
        if params is not None:
            for k, b in enumerate(replacement):
                if b[1] == "#" and (k + 1 >= len(replacement) or replacement[k + 1][3] < 0):
                    self.finding(FindingKind.SYNTAX, f"'#' is not followed by a parameter in {name}", span)
                    break
        va_opt = variadic and any(b[1] == "__VA_OPT__" for b in replacement)
        macro = _Macro(name, params, variadic, replacement, va_opt=va_opt)
        self.macros[name] = macro
        self.flat.clear()

    def define_from_text(self, name: str, value: str, origin: str) -> None:
        """A definition given as ``-D`` gives it (``name`` may carry parameters)."""
        text = f"#define {name} {value}".replace("\n", " ")
        f = _File(text, origin, 0, 0)
        spaced = []
        ws = False
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            if kind in _BLANK:
                ws = True
                continue
            start = m.start(kind)
            spaced.append((kind, m.group(kind), start, ws or start != m.start()))
            ws = False
        self.define(spaced[2:], f, f.span(0, len(text)))

    def include(self, toks: list[tuple[str, str, int, bool]], f: _File, span: Span) -> bool:
        """Handle ``#include``; True when a header's lines were spliced in."""
        if toks and toks[0][0] not in ("str",) and toks[0][1] != "<":
            expanded = self.expand_line(toks, f, span)
            toks = [(t.kind, t.text, 0, t.ws) for t in expanded]
        if not toks:
            self.finding(FindingKind.SYNTAX, "#include needs a file name", span)
            return False
        if toks[0][1] == "<":  # system headers are not read
            name = "".join(t[1] for t in toks[1:]).partition(">")[0]
            for line in _ON_INCLUDE.get(name, ()):
                macro_name, _, value = line.partition(" ")
                self.define_from_text(macro_name, value, "<built-in>")
            return False
        if toks[0][0] != "str" or not toks[0][1].startswith('"') or len(toks[0][1]) < 2 or not toks[0][1].endswith('"'):
            self.finding(FindingKind.SYNTAX, '#include expects "FILE" or <FILE>', span)
            return False
        name = toks[0][1][1:-1]
        path = _header_path(name, f.path)
        if path in self.once:
            return False
        if f.depth + 1 > MAX_INCLUDE_DEPTH:
            self.finding(FindingKind.UNSUPPORTED, f'#include "{name}" nested too deeply (more than {MAX_INCLUDE_DEPTH} levels)', span)
            return False
        try:
            header = self.read_include(name, f.path) if self.read_include else None
        except Exception as e:
            self.finding(FindingKind.UNSUPPORTED, f'cannot read "{name}": {e}', span)
            return False
        if header is None:
            self.finding(FindingKind.UNSUPPORTED, f'included file "{name}" not found', span)
            return False
        if isinstance(header, bytes):
            header = header.decode("utf-8", "replace")
        self.headers.append(path)
        self.run_file(_clean(str(header)), path, f.depth + 1)
        return True

    # ---- conditions

    def condition(self, name: str, toks: list[tuple[str, str, int, bool]], f: _File, span: Span) -> bool:
        if name in ("ifdef", "ifndef", "def", "ndef"):
            if not toks or toks[0][0] != "id":
                self.finding(FindingKind.SYNTAX, f"#{name} needs a macro name", span)
                return False
            return (toks[0][1] in self.macros) == (name in ("ifdef", "def"))
        if not toks:
            self.finding(FindingKind.SYNTAX, f"#{name} with no expression", span)
            return False
        expanded = self.expand_line(toks, f, span, in_if=True)
        value = _Expression(expanded, lambda m: self.finding(FindingKind.SYNTAX, m, span)).evaluate()
        return bool(value)

    def expand_line(self, toks, f: _File, span: Span, in_if: bool = False) -> list[_Tok]:
        """Macro-expand directive tokens (of #if or a computed #include)."""
        line = [_Tok(kind, text, _NO_HIDE, -1, -1, ws) for kind, text, _, ws in toks]
        site = _Site(f, [], span)
        self.budget = MAX_EXPANSION_TOKENS
        if in_if:
            line = self._defined(line, f, span)
        line = self.expand(line, site)
        if in_if:
            line = self._defined(line, f, span)
        return line

    def _defined(self, toks: list[_Tok], f: _File, span: Span) -> list[_Tok]:
        """Replace ``defined X``, ``defined(X)`` and ``__has_include(..)`` and
        its kin by 0 or 1."""
        if not any(t.kind == "id" and (t.text == "defined" or t.text.startswith("__has_")) for t in toks):
            return toks
        out: list[_Tok] = []
        j = 0
        n = len(toks)
        while j < n:
            t = toks[j]
            if t.kind == "id" and t.text == "defined":
                if j + 1 < n and toks[j + 1].kind == "id":
                    value, j = toks[j + 1].text in self.macros, j + 2
                elif j + 3 < n and toks[j + 1].text == "(" and toks[j + 2].kind == "id" and toks[j + 3].text == ")":
                    value, j = toks[j + 2].text in self.macros, j + 4
                else:
                    self.finding(FindingKind.SYNTAX, '"defined" needs a macro name', span)
                    value, j = False, j + 1
                out.append(_Tok("num", "1" if value else "0", _NO_HIDE, -1, -1, t.ws))
            elif t.kind == "id" and t.text in (
                "__has_include", "__has_include_next", "__has_attribute", "__has_builtin",
                "__has_feature", "__has_extension", "__has_c_attribute", "__has_cpp_attribute",
            ) and j + 1 < n and toks[j + 1].text == "(":
                k, level = j + 1, 0
                while k < n:
                    level += toks[k].text == "("
                    level -= toks[k].text == ")"
                    if level == 0:
                        break
                    k += 1
                inner = toks[j + 2:k]
                value = False
                if t.text == "__has_include" and len(inner) == 1 and inner[0].kind == "str" and self.read_include:
                    try:
                        value = self.read_include(inner[0].text[1:-1], f.path) is not None
                    except Exception:
                        value = False
                out.append(_Tok("num", "1" if value else "0", _NO_HIDE, -1, -1, t.ws))
                j = k + 1
            else:
                out.append(t)
                j += 1
        return out

    # ---- macro expansion

    def expand(self, toks: list[_Tok], site: _Site, source=(), marks=()) -> list[_Tok]:
        """Expand every macro in ``toks`` followed by the source tokens
        ``source`` ((kind, text, offset, ws) tuples, their index is a token's
        ``src``), with Prosser's algorithm (hide sets). ``marks`` are the
        indices of the source tokens that name a macro: the others are skipped
        unless an invocation takes them as arguments.

        Returns the tokens expansions produced (source tokens left as they are
        are not returned). Source tokens that take part in an invocation are
        added to ``site.consumed``, the names that start one to ``site.origins``.
        """
        out: list[_Tok] = []
        feed = _Input(toks, source)
        stack = feed.stack
        macros = self.macros
        mi = 0
        while True:
            if stack:
                t = stack.pop()
            else:
                while mi < len(marks) and marks[mi] < feed.sp:
                    mi += 1
                if mi >= len(marks):
                    break
                feed.sp = marks[mi]
                t = feed.pop()
            if t.kind != "id" or t.text in t.hs or t.text not in macros:
                if t.src < 0:
                    out.append(t)
                continue
            m = macros[t.text]
            origin = t.src if t.src >= 0 else t.origin
            if m.special:
                out.append(self._special(m.special, t, origin, site))
                if t.src >= 0:
                    site.consumed.add(t.src)
                    site.origins.add(t.src)
                continue
            if m.params is None:
                replacement = self.substitute(m, [], t.hs | {m.name}, origin, site)
            else:
                if feed.peek_op() != "(":
                    if t.src < 0:
                        out.append(t)
                    continue
                collected = self._arguments(m, feed, origin, site)
                if collected is None:
                    if t.src < 0:
                        out.append(t)
                    if self.budget < 0:  # unclosed invocations each read to the end
                        self.finding(FindingKind.UNSUPPORTED, "macro expansion too large; the rest is left unexpanded", site.span(origin))
                        out.extend(x for x in reversed(stack) if x.src < 0)
                        break
                    continue
                args, rparen = collected
                replacement = self.substitute(m, args, (t.hs & rparen.hs) | {m.name}, origin, site)
            if t.src >= 0:
                site.consumed.add(t.src)
                site.origins.add(t.src)
            self.budget -= len(replacement) + 1
            if self.budget < 0:
                if self.budget + len(replacement) + 1 >= 0:
                    self.finding(FindingKind.UNSUPPORTED, "macro expansion too large; the rest is left unexpanded", site.span(origin))
                out.extend(x for x in reversed(stack) if x.src < 0)
                break
            stack.extend(reversed(replacement))
        return out

    def _special(self, name: str, t: _Tok, origin: int, site: _Site) -> _Tok:
        if name == "__LINE__":
            return _Tok("num", str(site.line(origin)), _NO_HIDE, -1, origin, t.ws)
        if name == "__FILE__":
            path = site.file.path.replace("\\", "\\\\").replace('"', '\\"')
            return _Tok("str", f'"{path}"', _NO_HIDE, -1, origin, t.ws)
        self.counter += 1
        return _Tok("num", str(self.counter - 1), _NO_HIDE, -1, origin, t.ws)

    def _arguments(self, m: _Macro, feed: "_Input", origin: int, site: _Site):
        """Take ``( args )`` from ``feed``; None (``feed`` unchanged) when the
        list is unterminated or has the wrong number of arguments."""
        popped: list[_Tok] = [feed.pop()]  # "("
        params = m.params or ()
        args: list[list[_Tok]] = [[]]
        level = 0
        rparen = None
        while True:
            t = feed.pop()
            if t is None:
                break
            popped.append(t)
            if t.kind == "op":
                if t.text == "(":
                    level += 1
                elif t.text == ")":
                    if level == 0:
                        rparen = t
                        break
                    level -= 1
                elif t.text == "," and level == 0 and not (m.variadic and len(args) == len(params)):
                    args.append([])
                    continue
            args[-1].append(t.copy(origin))
        self.budget -= len(popped)
        if rparen is None:
            feed.stack.extend(reversed(popped))
            self.finding(FindingKind.SYNTAX, f"unterminated argument list invoking macro {m.name}", site.span(origin))
            return None
        if m.variadic and len(args) == len(params) - 1:
            args.append([])
        if not params and args == [[]]:
            args = []
        if len(args) != len(params):
            feed.stack.extend(reversed(popped))
            self.finding(
                FindingKind.SYNTAX,
                f"macro {m.name} takes {len(params)} argument{'s' if len(params) != 1 else ''}, given {len(args)}",
                site.span(origin),
            )
            return None
        for t in popped:
            if t.src >= 0:
                site.consumed.add(t.src)
        return args, rparen

    def substitute(self, m: _Macro, args: list[list[_Tok]], hs: frozenset[str], origin: int, site: _Site) -> list[_Tok]:
        """The replacement list of ``m`` with its arguments, ``#`` and ``##``
        applied, every token's hide set extended by ``hs``."""
        body = m.body
        if m.va_opt:
            body = _va_opt(body, bool(args and args[-1]))
        items: list = []  # _Tok, or _PASTE between the operands of ##
        expanded: dict[int, list[_Tok]] = {}
        n = len(body)
        j = 0
        va = len(m.params) - 1 if m.variadic and m.params else -1
        while j < n:
            kind, text, ws, param = body[j]
            if text == "#" and m.params is not None and j + 1 < n and body[j + 1][3] >= 0:
                items.append(_Tok("str", _stringize(args[body[j + 1][3]]), _NO_HIDE, -1, origin, ws))
                j += 2
                continue
            if text == "##" and kind == "op":
                items.append(_PASTE)
                j += 1
                continue
            if text == "," and va >= 0 and j + 2 < n and body[j + 1][1] == "##" and body[j + 2][3] == va:
                if args[va]:  # GNU: ", ## __VA_ARGS__" keeps the comma only before arguments
                    items.append(_Tok("op", ",", _NO_HIDE, -1, origin, ws))
                    items.extend(t.copy(origin) for t in args[va])
                j += 3
                continue
            if param >= 0:
                if (j > 0 and body[j - 1][1] == "##") or (j + 1 < n and body[j + 1][1] == "##"):
                    arg = [t.copy(origin) for t in args[param]]
                    items.extend(arg or [_Tok("pm", "", _NO_HIDE, -1, origin, False)])
                else:
                    if param not in expanded:
                        expanded[param] = self.expand([t.copy(origin) for t in args[param]], site)
                    first = True
                    for t in expanded[param]:
                        c = t.copy(origin)
                        if first:
                            c.ws, first = ws, False
                        items.append(c)
            else:
                items.append(_Tok(kind, text, _NO_HIDE, -1, origin, ws))
            j += 1
        if _PASTE in items:
            items = self._paste(items, m, site, origin)
        out = []
        for t in items:
            if t.kind == "pm":
                continue
            t.hs = hs if not t.hs else t.hs | hs
            out.append(t)
        return out

    def _paste(self, items: list, m: _Macro, site: _Site, origin: int) -> list[_Tok]:
        out: list[_Tok] = []
        j = 0
        while j < len(items):
            t = items[j]
            if t is _PASTE:
                j += 1
                if j >= len(items) or items[j] is _PASTE:
                    continue
                right = items[j]
                left = out.pop() if out else _Tok("pm", "", _NO_HIDE, -1, origin, False)
                if left.kind == "pm":
                    out.append(right)
                elif right.kind == "pm":
                    out.append(left)
                else:
                    text = left.text + right.text
                    match = _TOKEN.match(text)
                    if match and match.end() == len(text) and match.lastgroup not in _BLANK:
                        out.append(_Tok(match.lastgroup, text, left.hs & right.hs, -1, origin, left.ws))
                    else:
                        self.finding(
                            FindingKind.SYNTAX,
                            f"pasting {left.text!r} and {right.text!r} in macro {m.name} does not give a valid token",
                            site.span(origin),
                        )
                        out.extend((left, right))
            else:
                out.append(t)
            j += 1
        return out


_PASTE = _Tok("paste", "##", _NO_HIDE, -1, -1, False)


class _Input:
    """What an expansion reads: a stack of tokens (top last) in front of the
    rest of the source chunk, from which tokens are made as they are read."""

    __slots__ = ("stack", "source", "sp")

    def __init__(self, toks: list[_Tok], source):
        self.stack = toks[::-1]
        self.source = source
        self.sp = 0

    def pop(self) -> _Tok | None:
        if self.stack:
            return self.stack.pop()
        if self.sp < len(self.source):
            kind, text, _, ws = self.source[self.sp]
            self.sp += 1
            return _Tok(kind, text, _NO_HIDE, self.sp - 1, -1, ws)
        return None

    def peek_op(self) -> str:
        """The next token's text if it is a punctuator, else ""."""
        if self.stack:
            t = self.stack[-1]
            return t.text if t.kind == "op" else ""
        if self.sp < len(self.source):
            kind, text, _, _ = self.source[self.sp]
            return text if kind == "op" else ""
        return ""


def _flat(macro: _Macro, macros: dict[str, _Macro]) -> str | bool:
    """The expansion of an object-like macro whose body has no macro to
    expand and no ``##`` (False for any other)."""
    if macro.special:
        return False
    for kind, text, _, _ in macro.body:
        if (kind == "id" and text != macro.name and text in macros) or text == "##":
            return False
    return " ".join(b[1] for b in macro.body)


def _va_opt(body, present: bool):
    """The body with each ``__VA_OPT__(content)`` replaced by its content when
    variadic arguments are present, and removed otherwise."""
    out = []
    j = 0
    n = len(body)
    while j < n:
        if body[j][1] == "__VA_OPT__" and j + 1 < n and body[j + 1][1] == "(":
            level, k = 0, j + 1
            while k < n:
                level += body[k][1] == "("
                level -= body[k][1] == ")"
                if level == 0:
                    break
                k += 1
            if present:
                out.extend(body[j + 2:k])
            j = k + 1
        else:
            out.append(body[j])
            j += 1
    return tuple(out)


def _stringize(arg: list[_Tok]) -> str:
    parts = []
    for j, t in enumerate(arg):
        if j and t.ws:
            parts.append(" ")
        if t.kind in ("str", "chr"):
            parts.append(t.text.replace("\\", "\\\\").replace('"', '\\"'))
        else:
            parts.append(t.text)
    return '"' + "".join(parts) + '"'


# --------------------------------------------------------------------------
# #if expressions

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
