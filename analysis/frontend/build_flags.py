"""Build flags as a C compiler takes them, and where a file's come from.

:class:`BuildFlags` holds what changes how a file preprocesses: include
directories (``-I``, ``-iquote``, ``-isystem``, ``-idirafter``), macros defined
and undefined in order (``-D NAME[=VALUE]``, ``-U NAME``) and files included
before the first line (``-include FILE``). :func:`parse_args` reads them off a
compiler command line (other options are ignored); :func:`flags_for` reads
the entry for a file from a ``compile_commands.json``, by default the nearest
one in the file's directory or above it (or in a ``build/`` directory beside
one of those), as clangd finds it.

Headers of the C library and POSIX (:data:`SYSTEM_HEADERS`, and anything under
``sys/``, ``bits/`` ...) are never read, whatever the flags say: distaff
predefines what programs take from them, so a check needs no C compiler or
system headers on the machine. The Linux kernel's (``linux/``, ``asm/``,
``asm-generic/``) are read when an ``-I`` directory holds them
(:func:`project_kernel_header`): kernel-style code is built with its own
include tree (the kernel with ``-nostdinc``), never with the system's.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from functools import lru_cache

# <name.h> headers distaff does not read (see the module docstring)
SYSTEM_HEADERS = frozenset("""
assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h
setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h
stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h
pthread.h semaphore.h sched.h unistd.h fcntl.h strings.h alloca.h malloc.h memory.h
dirent.h dlfcn.h getopt.h libgen.h netdb.h poll.h pwd.h grp.h regex.h search.h spawn.h
syslog.h termios.h utime.h features.h endian.h byteswap.h err.h error.h execinfo.h
""".split())
_SYSTEM_DIRS = ("sys/", "bits/", "gnu/", "netinet/", "arpa/", "net/")
_KERNEL_DIRS = ("linux/", "asm/", "asm-generic/")

COMPILE_COMMANDS = "compile_commands.json"


def is_system_header(name: str) -> bool:
    return name in SYSTEM_HEADERS or name.startswith(_SYSTEM_DIRS + _KERNEL_DIRS)


def project_kernel_header(name: str) -> bool:
    """Is ``<name>`` one of the kernel's headers, which a program's own
    ``-I`` directories (not ``-isystem``'s) may hold?"""
    return name.startswith(_KERNEL_DIRS)


@dataclass(frozen=True, slots=True)
class BuildFlags:
    """``quote_dirs`` are searched for ``#include "x.h"`` after the including
    file's directory, ``include_dirs`` then for both forms, ``system_dirs``
    last; ``macros`` are ``(name, value)`` in command-line order, value None
    for ``-U``; ``forced_includes`` are read before the file's first line.
    ``source`` says where the flags came from (for a log line)."""

    quote_dirs: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    system_dirs: tuple[str, ...] = ()
    macros: tuple[tuple[str, str | None], ...] = ()
    forced_includes: tuple[str, ...] = ()
    source: str = ""

    def search(self, angle: bool) -> tuple[str, ...]:
        """The directories an include searches after the including file's own
        (none for ``<x.h>``)."""
        return (() if angle else self.quote_dirs) + self.include_dirs + self.system_dirs

    def merged(self, other: "BuildFlags") -> "BuildFlags":
        """These flags, then ``other``'s (a later -D of a name wins, as in cc)."""
        return BuildFlags(self.quote_dirs + other.quote_dirs, self.include_dirs + other.include_dirs,
                          self.system_dirs + other.system_dirs, self.macros + other.macros,
                          self.forced_includes + other.forced_includes,
                          ", ".join(s for s in (self.source, other.source) if s))


_WITH_VALUE = {"-I": "include_dirs", "-iquote": "quote_dirs", "-isystem": "system_dirs",
               "-idirafter": "system_dirs", "-D": "D", "-U": "U", "-include": "forced_includes"}


def parse_args(args: list[str], directory: str = ".", source: str = "") -> BuildFlags:
    """The build flags of a compiler's arguments ``args`` (``-I dir`` and
    ``-Idir`` alike); relative paths are taken from ``directory``. Raises
    ValueError for a flag missing its value."""
    parts: dict[str, list] = {"quote_dirs": [], "include_dirs": [], "system_dirs": [], "macros": [],
                              "forced_includes": []}
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        flag = next((f for f in sorted(_WITH_VALUE, key=len, reverse=True) if a.startswith(f)), None)
        if flag is None:
            continue
        if a == flag:
            if i >= len(args):
                raise ValueError(f"{flag} needs a value")
            value = args[i]
            i += 1
        elif flag in ("-I", "-D", "-U"):
            value = a[len(flag):]
        else:
            continue  # -includeX, -isystemX: not a flag we know
        where = _WITH_VALUE[flag]
        if where == "D":
            name, eq, body = value.partition("=")
            parts["macros"].append((name, body if eq else "1"))
        elif where == "U":
            parts["macros"].append((value, None))
        else:
            parts[where].append(os.path.normpath(os.path.join(directory, value)))
    return BuildFlags(tuple(parts["quote_dirs"]), tuple(parts["include_dirs"]), tuple(parts["system_dirs"]),
                      tuple(parts["macros"]), tuple(parts["forced_includes"]), source)


def find_compile_commands(path: str) -> str | None:
    """The nearest ``compile_commands.json`` for the file ``path``: in its
    directory or one above, or in a ``build/`` directory beside one of them."""
    d = os.path.dirname(os.path.abspath(path))
    while True:
        for candidate in (os.path.join(d, COMPILE_COMMANDS), os.path.join(d, "build", COMPILE_COMMANDS)):
            if os.path.isfile(candidate):
                return candidate
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


@lru_cache(maxsize=8)
def _entries(database: str, mtime_ns: int) -> tuple:
    """The entries of a database, read once per version of the file (the
    language server asks on every edit)."""
    try:
        with open(database, encoding="utf-8") as fh:
            entries = json.load(fh)
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{database}: {e}") from None
    if not isinstance(entries, list):
        raise ValueError(f"{database}: not a list of compile commands")
    return tuple(entries)


def flags_for(path: str, database: str | None = None) -> BuildFlags | None:
    """The flags of ``path``'s entry in ``database`` (default: the nearest
    one, :func:`find_compile_commands`), or None when there is no database or
    no entry for the file. Raises ValueError for a database that is not a
    list of entries."""
    database = database or find_compile_commands(path)
    if database is None:
        return None
    try:
        entries = _entries(database, os.stat(database).st_mtime_ns)
    except OSError as e:
        raise ValueError(f"{database}: {e}") from None
    want = os.path.realpath(path)
    for k, entry in enumerate(entries):
        if not isinstance(entry, dict) or "file" not in entry:
            continue
        # relative directories (not in the format, but written by hand) are the database's own
        directory = os.path.join(os.path.dirname(os.path.abspath(database)), str(entry.get("directory", ".")))
        if os.path.realpath(os.path.join(directory, str(entry["file"]))) != want:
            continue
        args = entry.get("arguments")
        if not isinstance(args, list):
            args = shlex.split(str(entry.get("command", "")))
        return parse_args([str(a) for a in args[1:]], directory, f"{database} (entry {k + 1})")
    return None
