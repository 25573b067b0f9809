"""What the language server holds per open document, and per set of results.

:class:`Outcomes` are the results checks of one kind (the whole program, or
from a context) gave for one version of what they checked: a document's text,
or a generation of a program linked from several files
(:class:`distaff.server.linked.LinkedState`). :class:`DocumentState` is an
open document: its snapshot, its parse, its outcomes, and the linked program
it belongs to, if any. :mod:`distaff.server.session` drives both.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from distaff.analysis.options import Options
from distaff.analysis.report import AssertionResult, Finding, FindingsSearch, SearchEnd
from distaff.server.cache import ProgramDigest, options_key
from distaff.server.documents import ParsedDocument, Snapshot

PROGRAM, CONTEXT = "program", "context"


@dataclass
class Outcomes:
    """What checks of one kind said about one version of a document (or of
    a linked program: ``version`` is then its generation)."""

    kind: str
    version: int | None
    run_id: int | None = None
    checking: bool = False
    results: dict[str, AssertionResult] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    search: FindingsSearch | None = None  # how the run's search for findings ended (None: not yet, or cached)
    problem: str = ""
    complete: bool = False  # every assertion decided and the run's findings known
    options: Options | None = None  # what the results were checked with (their words quote its limits)
    label: str = ""  # for a context: where it starts
    approximate: bool = True

    @property
    def findings_known(self) -> bool:
        """The run's findings are all there are, to keep for this text: its
        search for findings finished or was not needed (or nothing said)."""
        s = self.search
        return s is None or s.complete or s.end is SearchEnd.OFF

    @property
    def key(self) -> str:
        """The options_key of the results ("" before any check)."""
        return options_key(self.options) if self.options is not None else ""


@dataclass
class DocumentState:
    """An open document. ``database`` is the compile_commands.json that
    lists it (its program may be linked from several files); ``linked`` the
    key of the :class:`~distaff.server.linked.LinkedState` it belongs to (None:
    it is checked alone); ``link_problem`` why its program does not link."""

    snapshot: Snapshot
    parsed: ParsedDocument | None = None
    digest: ProgramDigest | None = None
    program: Outcomes | None = None
    context: Outcomes | None = None
    pins: list[tuple[int, int]] = field(default_factory=list)
    want_check: float | None = None  # delay of a check waiting for the current parse
    parse_task: asyncio.Task | None = None
    database: str | None = None
    linked: str | None = None
    link_problem: str = ""

    @property
    def current(self) -> ParsedDocument | None:
        """The parse of the current text, if it is done."""
        p = self.parsed
        return p if p is not None and p.snapshot is self.snapshot else None
