"""Programs of several files, for the command line and the language server.

:class:`Project` lowers C files through the process's unit cache
(:data:`~distaff.analysis.frontend.unit_cache.UNITS`: an edit re-lowers one
file) and links them (:mod:`distaff.analysis.link`), either the files a user
names (``distaff check --link``) or the program a file belongs to in its
``compile_commands.json`` (:mod:`distaff.analysis.project`). Where the texts
come from (files on disk, or the editor's unsaved buffers), which flags each
file has, and how a path is shown are the caller's: the command line shows
paths relative to the working directory, the server absolute ones.

:func:`linked_note` and :func:`entry_note` are the words both say about what was
linked.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from distaff.analysis.check import disk_includes
from distaff.analysis.frontend import TranslationUnit
from distaff.analysis.frontend.build_flags import BuildFlags, find_compile_commands
from distaff.analysis.frontend.unit_cache import UNITS, UnitCache
from distaff.analysis.ir import DataModel
from distaff.analysis.link import Linked, link
from distaff.analysis.project import Plan, ProjectError, Source, listed, program_of

__all__ = [
    "LinkedProgram", "Project", "ProjectError", "database_of", "entry_note", "linked_note", "undefined_notes",
]


@dataclass(frozen=True, slots=True, eq=False)
class LinkedProgram:
    """A program to check: ``linked``, and ``plan`` when it came from a
    database (None for files linked as named). ``unentered`` says why no
    ``main`` runs it ("" when one does); ``texts`` are the files' texts as
    linked, by shown path."""

    linked: Linked
    plan: Plan | None
    unentered: str
    texts: tuple[tuple[str, str], ...]
    candidates: tuple[str, ...] = ()  # files whose main reaches the file asked about, as shown

    @property
    def files(self) -> tuple[str, ...]:
        return self.linked.files

    @property
    def path(self) -> str:
        """The file it is named by: the entry's, else the first."""
        return self.linked.program.path

    def key(self) -> tuple:
        """Equal for the same files and entry (one check for all their files)."""
        return (self.files, self.path, self.unentered)


def database_of(path: str, database: str | None = None) -> str | None:
    """The database that lists ``path`` (``database`` if given, else the
    nearest one), or None: a file with no database, or one its database
    does not list, is checked alone. Raises ProjectError for a database that
    cannot be read."""
    database = database or find_compile_commands(path)
    if database is None:
        return None
    return database if listed(path, database) is not None else None


class Project:
    """Lowers and links files. ``text_of(path)`` gives a file's text (None:
    unreadable), ``flags_of(path, source)`` its build flags (``source``: its
    database entry, or None), ``shown(path)`` the path spans and messages
    name it by."""

    def __init__(self, text_of: Callable[[str], str | None],
                 flags_of: Callable[[str, Source | None], BuildFlags | None],
                 shown: Callable[[str], str] = lambda p: p, data_model: DataModel = DataModel.LP64,
                 cache: UnitCache = UNITS):
        self.text_of, self.flags_of, self.shown = text_of, flags_of, shown
        self.data_model, self.cache = data_model, cache
        self._texts: dict[str, str] = {}

    def unit(self, path: str, source: Source | None = None) -> TranslationUnit | None:
        """The unit of the file at ``path`` (None when it cannot be read)."""
        text = self.text_of(path)
        if text is None:
            return None
        name = self.shown(path)
        self._texts[name] = text
        return self.cache.unit(text, name, data_model=self.data_model, read_include=disk_includes,
                               flags=self.flags_of(path, source))

    def link(self, paths: list[str], require_entry: bool = True) -> LinkedProgram:
        """The named files linked, as ``cc a.c b.c`` would (one of them must
        define ``main`` unless ``require_entry`` is False). Raises LinkError,
        or ProjectError for an unreadable file."""
        units = []
        for p in paths:
            unit = self.unit(p)
            if unit is None:
                raise ProjectError(f"cannot read {p}")
            units.append(unit)
        linked = link(units, require_entry=require_entry)
        return LinkedProgram(linked, None, "", self._texts_of(linked))

    def program(self, path: str, database: str, entry: str | None = None) -> LinkedProgram:
        """The program ``path`` belongs to in ``database``
        (:func:`~distaff.analysis.project.program_of`), linked. Raises
        ProjectError or LinkError."""
        units: dict[str, TranslationUnit] = {}

        def unit_of(source: Source):
            unit = self.unit(source.path, source)
            if unit is not None:
                units[source.path] = unit
            return unit

        plan = program_of(path, database, unit_of, entry)
        linked = link([units[f] for f in plan.files])
        unentered = plan.why if plan.entry is None else ""
        return LinkedProgram(linked, plan, unentered, self._texts_of(linked),
                             tuple(self.shown(c) for c in plan.candidates))

    def _texts_of(self, linked: Linked) -> tuple[tuple[str, str], ...]:
        return tuple((f, self._texts[f]) for f in linked.files if f in self._texts)


def linked_note(program: LinkedProgram, about: str | None = None) -> str:
    """What was linked, in one line: ``src/worker.c: checked as part of the
    program of src/main.c (compile_commands.json): linked src/main.c,
    src/queue.c, src/worker.c, src/stats.c``."""
    files = ", ".join(program.files)
    plan = program.plan
    if plan is None:
        return f"linked {files}"
    where = plan.database if os.path.isabs(program.path) else os.path.relpath(plan.database)
    if program.unentered:
        head = f"{about}: no main reaches it ({where})" if about else f"no main ({where})"
        return f"{head}: linked {files}"
    if about is None:
        head = f"the program of {program.path}"
    elif os.path.realpath(about) == os.path.realpath(program.path):
        head = f"{about}: its program"
    else:
        head = f"{about}: checked as part of the program of {program.path}"
    return f"{head} ({where}): linked {files}"


def entry_note(program: LinkedProgram, about: str) -> str | None:
    """When several files have a ``main`` reaching ``about``: which, and
    the one checked (None otherwise)."""
    if len(program.candidates) < 2:
        return None
    return (f"{about}: {len(program.candidates)} files have a main that reaches it: "
            f"{', '.join(program.candidates)}; checking with {program.path} (choose with --entry FILE)")


def undefined_notes(program: LinkedProgram) -> list[str]:
    """A line per function used and defined in no linked file."""
    return [f"{u.describe()}; its calls return any value"
            for u in program.linked.undefined if u.kind == "function"]

