"""Immutable snapshots of open documents, and what the front end made of them.

A :class:`Snapshot` is the text of one document at one version. Everything
the server computes (parse, check results) is computed from a snapshot and
tagged with its version, so a result can always be compared with the text
the editor shows now and dropped if it belongs to an older one.

Positions: :class:`distaff.analysis.ir.Span` counts 1-based lines and columns in
characters; LSP counts 0-based lines and columns in the negotiated encoding
(UTF-16 code units unless the client chose otherwise). The conversion lives
here, on the snapshot, because it needs the line's text.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from distaff.analysis.frontend import with_escape
from distaff.analysis.frontend.build_flags import find_compile_commands, flags_for
from distaff.analysis.frontend.parse import parse, syntax_errors
from distaff.analysis.frontend.preprocess import preprocess
from distaff.analysis.frontend.unit_cache import UNITS
from distaff.analysis.ir import DataModel, Finding, FindingKind, Program, Span

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def uri_to_path(uri: str) -> str:
    """The file system path of a ``file:`` URI; other URIs are kept whole
    (the path is only a name for spans and messages)."""
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        return unquote(parsed.path)
    return uri


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The text of ``uri`` at ``version``. ``encoding`` is the LSP position
    encoding (``utf-16``, ``utf-8`` or ``utf-32``)."""

    uri: str
    version: int | None
    text: str
    lines: tuple[str, ...]
    encoding: str = "utf-16"

    @staticmethod
    def of(uri: str, version: int | None, text: str, encoding: str = "utf-16") -> "Snapshot":
        lines = tuple(text.split("\n"))
        return Snapshot(uri, version, text, lines, encoding)

    @property
    def path(self) -> str:
        return uri_to_path(self.uri)

    def line_text(self, line0: int) -> str:
        if 0 <= line0 < len(self.lines):
            return self.lines[line0].rstrip("\r")
        return ""

    def _units(self, s: str) -> int:
        if self.encoding == "utf-32":
            return len(s)
        if self.encoding == "utf-8":
            return len(s.encode("utf-8", "surrogatepass"))
        return len(s) + sum(1 for c in s if ord(c) > 0xFFFF)

    def lsp_position(self, line: int, col: int) -> tuple[int, int]:
        """0-based (line, character in client units) of a 1-based span position;
        positions outside the text are clamped into it."""
        line0 = min(max(line - 1, 0), max(len(self.lines) - 1, 0))
        text = self.line_text(line0)
        col0 = min(max(col - 1, 0), len(text))
        return line0, self._units(text[:col0])

    def span_position(self, line0: int, character: int) -> tuple[int, int]:
        """1-based (line, column in characters) of an LSP position."""
        text = self.line_text(line0)
        if self.encoding == "utf-32":
            return line0 + 1, min(character, len(text)) + 1
        units = 0
        for i, c in enumerate(text):
            if units >= character:
                return line0 + 1, i + 1
            units += self._units(c)
        return line0 + 1, len(text) + 1

    def word_at(self, line0: int, character: int) -> str | None:
        """The C identifier under an LSP position, if any."""
        _, col = self.span_position(line0, character)
        text = self.line_text(line0)
        for m in _WORD.finditer(text):
            if m.start() <= col - 1 <= m.end():
                return m.group()
        return None

    def covers(self, span: Span) -> bool:
        """True when ``span`` is a range of this document's text (not of an
        included header, nor the front end's built-in declarations)."""
        return span.line > 0 and span.file in (self.path, self.uri)


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """The front end's result for one snapshot. ``program`` is None only when
    the front end itself failed; its failure is then one of ``findings``."""

    snapshot: Snapshot
    program: Program | None
    findings: tuple[Finding, ...]

    @property
    def version(self) -> int | None:
        return self.snapshot.version

    @property
    def has_syntax_errors(self) -> bool:
        return any(f.kind is FindingKind.SYNTAX for f in self.findings)


def build_flags_for(path: str) -> tuple[object, str]:
    """The build flags of the file at ``path`` from its entry in the nearest
    compile_commands.json (None when there is none), and a line for the log
    saying which entry was used, or why none ("" when no database was found)."""

    if not path.startswith("/"):
        return None, ""
    database = find_compile_commands(path)
    if database is None:
        return None, ""
    try:
        flags = flags_for(path, database)
    except ValueError as e:
        return None, f"{path}: compile_commands.json not used: {e}"
    if flags is None:
        return None, f"{path}: no entry in {database}; no build flags"
    return flags, f"{path}: build flags from {flags.source}"


def syntax_findings(snapshot: Snapshot, flags=None) -> tuple[Finding, ...]:
    """The syntax errors of a snapshot, without lowering it: the front end's
    preprocessor and parser only, which take a few milliseconds where the
    whole front end takes hundreds on a large file. The full parse reports
    the same errors (and the rest) soon after; never raises."""
    try:
        pre = preprocess(snapshot.text, snapshot.path, read_include=read_include, flags=flags)
        tree = parse(pre.text.encode("utf-8", "surrogatepass"))
        out = [f for f in pre.findings if f.kind is FindingKind.SYNTAX]
        for node, message in syntax_errors(tree.root_node):
            f, line, col = pre.position(*node.start_point)
            f2, end_line, end_col = pre.position(*node.end_point, end=True)
            if f2 != f or (end_line, end_col) < (line, col):
                end_line, end_col = line, col + 1
            out.append(Finding(FindingKind.SYNTAX, message, Span(f, line, col, end_line, end_col)))
        return tuple(out)
    except Exception:
        return ()


def read_include(name: str, from_path: str) -> str | None:
    """A local ``#include "name"``, read from disk next to the including file
    (None when it is not there, or the document is not a file)."""
    if not from_path.startswith("/"):
        return None
    candidate = Path(from_path).parent / name
    try:
        return candidate.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def parse_snapshot(snapshot: Snapshot, data_model: DataModel = DataModel.LP64, flags=None) -> ParsedDocument:
    """Parse and lower a snapshot with its build ``flags``; never raises. Text the front end cannot
    take (binary content, NUL bytes) becomes findings, as does a bug in the
    front end itself, reported at the top of the file."""

    try:  # through the unit cache: linking the file's program finds it lowered
        unit = UNITS.unit(snapshot.text, snapshot.path, data_model=data_model, read_include=read_include, flags=flags)
        program = with_escape(unit.program)
    except Exception as e:  # a front-end bug must not take the server down
        where = traceback.extract_tb(e.__traceback__)[-1]
        finding = Finding(
            FindingKind.UNSUPPORTED,
            f"distaff's front end failed on this file ({type(e).__name__}: {e} "
            f"at {where.filename.rsplit('/', 1)[-1]}:{where.lineno}); nothing was checked",
            Span(snapshot.path, 1, 1, 1, 1),
        )
        return ParsedDocument(snapshot, None, (finding,))
    return ParsedDocument(snapshot, program, tuple(program.findings))
