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

Bad input never raises: problems become :class:`~distaff.analysis.ir.Finding` s with
the range of the directive or token at fault, and preprocessing goes on.

This module is the driver (the public :func:`preprocess`, directives,
conditional groups, includes); its parts live next to it:
:mod:`~distaff.analysis.frontend.pp_tokens` (the lexer and token records),
:mod:`~distaff.analysis.frontend.pp_files` (files being read, expansion sites),
:mod:`~distaff.analysis.frontend.pp_expand` (macro expansion),
:mod:`~distaff.analysis.frontend.pp_expr` (``#if`` expressions),
:mod:`~distaff.analysis.frontend.pp_builtins` (the predefined macro tables),
:mod:`~distaff.analysis.frontend.pp_positions` (the output and its position map) and
:mod:`~distaff.analysis.frontend.pp_rewrite` (GNU case ranges, rewritten in the output).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from distaff.analysis.frontend import genmc_h
from distaff.analysis.frontend.build_flags import BuildFlags, is_system_header, project_kernel_header
from distaff.analysis.frontend.pp_builtins import (
    _GNU, _ILP32, _LIBC, _LP64, _ON_INCLUDE, _SPECIAL, GETOPT_DEFINITIONS, GETOPT_HEADERS, GETOPT_PATH,
)
from distaff.analysis.frontend.pp_expand import MAX_EXPANSION_TOKENS, _Expander, _flat
from distaff.analysis.frontend.pp_expr import MAX_EXPRESSION_DEPTH, _Expression
from distaff.analysis.frontend.pp_files import _File, _Site
from distaff.analysis.frontend.pp_positions import Preprocessed, _Output
from distaff.analysis.frontend.pp_rewrite import rewrite
from distaff.analysis.frontend.pp_tokens import _BLANK, _DIRECTIVE, _IDENT, _Macro, _NO_HIDE, _PARENS, _TOKEN, _Tok
from distaff.analysis.frontend.printable import printable
from distaff.analysis.ir import DataModel, Finding, FindingKind, Span

ReadInclude = Callable[[str, str], "str | None"]

MAX_INCLUDE_DEPTH = 32
MAX_HEADER_BYTES = 16 << 20


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
    flags: BuildFlags | None = None,
) -> Preprocessed:
    """Preprocess the C source ``text`` of the file ``path``.

    ``read_include(name, including_path)`` gives the text of the header
    ``#include "name"`` names (None when there is none); by default it is read
    from disk relative to the including file's directory. ``defines`` adds
    macros as ``-D`` does: ``{"N": "4", "MAX(a,b)": "((a)>(b)?(a):(b))"}``.
    The built-in macros depend on ``data_model`` (``__LP64__`` or ``__i386__``,
    ``LONG_MAX``, ``SIZE_MAX`` ...). ``flags`` are the file's build flags
    (:class:`~distaff.analysis.frontend.build_flags.BuildFlags`: include directories,
    ``-D``/``-U`` after ``defines``, ``-include`` files read first; headers of
    the C library are never read). ``fast_lines`` switches on the
    optimisation that expands a line without strings or comments by reading
    only its invocations (counted as ``counters["simple_lines"]``; lines read
    token by token are ``counters["token_chunks"]``). Never raises.
    """
    text = _clean(text)
    try:
        flags = flags or BuildFlags()
        pp = _Preprocessor(data_model, read_include or _default_read_include, fast_lines=fast_lines, flags=flags)
        pp.getopt = "getopt" in text
        for name, value in list((defines or {}).items()) + list(flags.macros):
            if value is None:
                pp.macros.pop(str(name), None)
            else:
                pp.define_from_text(str(name), str(value), "<command line>")
        for forced in flags.forced_includes:
            pp.include_file(forced, path, 0, Span(path, 1, 1, 1, 1))
        pp.run_file(text, path, 0)
        return rewrite(pp.result(path))
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


class _Preprocessor(_Expander):
    def __init__(
        self, data_model: DataModel, read_include: ReadInclude | None, builtins: bool = True, fast_lines: bool = True,
        flags: BuildFlags | None = None,
    ):
        self.flags = flags or BuildFlags()
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
        self.getopt = False  # the file calls getopt: its header defines getopt's globals (once)

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
        if toks[0][1] == "<":
            name = "".join(t[1] for t in toks[1:]).partition(">")[0]
            if not is_system_header(name) and self.flags.search(True):  # a project's <header.h>
                found = self.find_include(name, f.path, True)
                if found is not None:
                    return self.include_file(found, f.path, f.depth, span)
            elif project_kernel_header(name) and self.flags.include_dirs:  # a kernel-style program's own
                found = self.find_include(name, f.path, True, self.flags.include_dirs)
                if found is not None:
                    return self.include_file(found, f.path, f.depth, span)
            if name == genmc_h.NAME:  # GenMC's API, as distaff models it
                if genmc_h.PATH in self.once:
                    return False
                self.once.add(genmc_h.PATH)
                self.run_file(genmc_h.TEXT, genmc_h.PATH, f.depth + 1)
                return True
            for line in _ON_INCLUDE.get(name, ()):  # system headers are not read
                macro_name, _, value = line.partition(" ")
                self.define_from_text(macro_name, value, "<built-in>")
            if name in GETOPT_HEADERS and self.getopt:
                self.getopt = False
                self.run_file(GETOPT_DEFINITIONS, GETOPT_PATH, f.depth + 1)
                return True
            return False
        if toks[0][0] != "str" or not toks[0][1].startswith('"') or len(toks[0][1]) < 2 or not toks[0][1].endswith('"'):
            self.finding(FindingKind.SYNTAX, '#include expects "FILE" or <FILE>', span)
            return False
        name = toks[0][1][1:-1]
        if self.flags.search(False):
            name = self.find_include(name, f.path, False) or name
        return self.include_file(name, f.path, f.depth, span)

    def find_include(self, name: str, including: str, angle: bool, among: tuple[str, ...] | None = None) -> str | None:
        """Where ``#include`` finds ``name``: the including file's directory
        (not for ``<name>``), then the flags' directories (``among`` instead,
        when given); the first that holds it, as a path (None: nowhere)."""
        dirs = ([] if angle else [os.path.dirname(including)]) + list(
            self.flags.search(angle) if among is None else among)
        for d in dirs:
            candidate = os.path.normpath(os.path.join(d, name))
            try:
                if self.read_include(candidate, including) is not None:
                    return candidate
            except Exception:  # noqa: BLE001 - unreadable: try the next
                continue
        return None

    def include_file(self, name: str, including: str, depth: int, span: Span) -> bool:
        """Splice in the header ``name`` (relative to ``including``'s directory
        unless absolute); True when its lines were spliced in."""
        path = _header_path(name, including)
        if path in self.once:
            return False
        if depth + 1 > MAX_INCLUDE_DEPTH:
            self.finding(FindingKind.UNSUPPORTED, f'#include "{name}" nested too deeply (more than {MAX_INCLUDE_DEPTH} levels)', span)
            return False
        try:
            header = self.read_include(name, including) if self.read_include else None
        except Exception as e:
            self.finding(FindingKind.UNSUPPORTED, f'cannot read "{name}": {e}', span)
            return False
        if header is None:
            self.finding(FindingKind.UNSUPPORTED, f'included file "{name}" not found', span)
            return False
        if isinstance(header, bytes):
            header = header.decode("utf-8", "replace")
        self.headers.append(path)
        self.run_file(_clean(str(header)), path, depth + 1)
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


__all__ = [
    "MAX_EXPANSION_TOKENS", "MAX_EXPRESSION_DEPTH", "MAX_HEADER_BYTES", "MAX_INCLUDE_DEPTH", "Preprocessed",
    "ReadInclude", "preprocess",
]
