"""The program a file belongs to, from the project's ``compile_commands.json``.

A C file is rarely a program: its functions are called from another file's
``main``, and it calls functions other files define. Given the database that
lists it, :func:`program_of` says which of the database's files link into the
program the file is part of, the way the build would link them:

* the file's *closure*: the file, the files defining what it uses (functions
  it calls or takes the address of, ``extern`` objects), what those use, and
  so on;
* the *entry*: the file's own ``main`` if it has one, else a file with a
  ``main`` whose closure holds the file (the candidates, in database order;
  the first unless the caller chooses another);
* the program's files: the entry's closure, in database order.

When no ``main`` of the database reaches the file, the plan has no entry and
says why: nothing runs the file's code, so nothing about its assertions can
be decided. Files the database lists that are not C sources, or that cannot be
read, are left out (``skipped`` names them).

The units come from a caller's function (a file's text may be an unsaved
editor buffer, and lowering is cached per file and content): this module
reads no C text itself, only the database.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from typing import Callable

from distaff.analysis.frontend import TranslationUnit
from distaff.analysis.frontend.build_flags import _entries, parse_args
from distaff.analysis.link import symbols

C_SUFFIXES = (".c", ".i")


@dataclass(frozen=True, slots=True)
class Source:
    """A C file the database lists (absolute path) and its build arguments."""

    path: str
    args: tuple[str, ...]
    directory: str
    database: str
    index: int  # the entry's place in the database, from 0

    def flags(self):
        """Its :class:`~distaff.analysis.frontend.build_flags.BuildFlags`, as
        :func:`~distaff.analysis.frontend.build_flags.flags_for` reads them."""
        return parse_args(list(self.args), self.directory, f"{self.database} (entry {self.index + 1})")


@dataclass(frozen=True, slots=True)
class Plan:
    """The program ``path`` belongs to: ``files`` to link (database order),
    the ``entry`` file whose ``main`` starts it (None when no ``main`` reaches
    ``path``: ``why`` says so), and every file whose ``main`` reaches
    ``path`` (``candidates``)."""

    database: str
    path: str
    files: tuple[str, ...]
    entry: str | None
    candidates: tuple[str, ...] = ()
    why: str = ""
    skipped: tuple[str, ...] = ()

    @property
    def alone(self) -> bool:
        """The file is a program by itself: it has the ``main`` and uses no
        other file's definitions (checked as it always was)."""
        return self.files == (self.path,) and self.entry == self.path


class ProjectError(ValueError):
    """A database that cannot be read, or an entry it does not offer."""


def sources(database: str) -> list[Source]:
    """The C files ``database`` lists, in its order, each once (its first
    entry). Raises ProjectError for a database that is not a list of entries."""
    try:
        entries = _entries(database, os.stat(database).st_mtime_ns)
    except (OSError, ValueError) as e:
        raise ProjectError(str(e) if isinstance(e, ValueError) else f"{database}: {e}") from None
    out: list[Source] = []
    seen: set[str] = set()
    base = os.path.dirname(os.path.abspath(database))
    for k, entry in enumerate(entries):
        if not isinstance(entry, dict) or "file" not in entry:
            continue
        directory = os.path.join(base, str(entry.get("directory", ".")))
        path = os.path.normpath(os.path.join(directory, str(entry["file"])))
        if not path.endswith(C_SUFFIXES) or os.path.realpath(path) in seen:
            continue
        seen.add(os.path.realpath(path))
        args = entry.get("arguments")
        if not isinstance(args, list):
            args = shlex.split(str(entry.get("command", "")))
        out.append(Source(path, tuple(str(a) for a in args[1:]), directory, database, k))
    return out


def listed(path: str, database: str) -> Source | None:
    """The database's entry for ``path``, if it lists it."""
    want = os.path.realpath(path)
    return next((s for s in sources(database) if os.path.realpath(s.path) == want), None)


def program_of(path: str, database: str, unit_of: Callable[[Source], TranslationUnit | None],
               entry: str | None = None) -> Plan:
    """The :class:`Plan` of the program ``path`` (a file ``database`` lists)
    belongs to. ``unit_of(source)`` gives the lowered unit of a listed file
    (None when it cannot be read: the file is left out). ``entry`` names the
    file whose ``main`` to start from when several reach ``path``. Raises
    ProjectError when the database does not list ``path``, or ``entry`` is not
    a file whose ``main`` reaches it."""
    listing = sources(database)
    want = os.path.realpath(path)
    me = next((s for s in listing if os.path.realpath(s.path) == want), None)
    if me is None:
        raise ProjectError(f"{database} does not list {path}")
    syms, skipped = {}, []
    for s in listing:
        unit = unit_of(s)
        if unit is None:
            skipped.append(s.path)
        else:
            syms[s.path] = symbols(unit)
    if me.path not in syms:
        raise ProjectError(f"cannot read {path}")
    order = {s.path: s.index for s in listing}
    definers: dict[str, list[str]] = {}
    for file, sy in syms.items():
        for name in sy.defines():
            definers.setdefault(name, []).append(file)
    needs = {file: {d for name in sy.uses for d in definers.get(name, ()) if d != file} for file, sy in syms.items()}

    def closure(start: str) -> tuple[str, ...]:
        seen, work = {start}, [start]
        while work:
            for d in needs[work.pop()]:
                if d not in seen:
                    seen.add(d)
                    work.append(d)
        return tuple(sorted(seen, key=order.__getitem__))

    mains = [f for f in sorted(syms, key=order.__getitem__)
             if "main" in syms[f].functions and "main" not in syms[f].internal]
    closures = {m: closure(m) for m in mains}
    candidates = tuple(m for m in mains if me.path in closures[m])
    chosen = None
    if entry is not None:
        chosen = next((m for m in candidates if os.path.realpath(m) == os.path.realpath(entry)), None)
        if chosen is None:
            found = ", ".join(_near(c, database) for c in candidates) or "none"
            raise ProjectError(f"--entry {entry}: its main does not reach {path} (files whose main does: {found})")
    elif me.path in candidates:
        chosen = me.path
    elif candidates:
        chosen = candidates[0]
    if chosen is None:
        db = os.path.basename(database)
        why = (f"no file of {db} with a main calls into {os.path.basename(path)}" if mains
               else f"{db} lists no file with a main")
        return Plan(database, me.path, closure(me.path), None, (), why, tuple(skipped))
    return Plan(database, me.path, closures[chosen], chosen, candidates, "", tuple(skipped))


def _near(path: str, database: str) -> str:
    """``path`` as the database's own entries name it: from its folder."""
    return os.path.relpath(path, os.path.dirname(os.path.abspath(database)))


__all__ = ["C_SUFFIXES", "Plan", "ProjectError", "Source", "listed", "program_of", "sources"]
