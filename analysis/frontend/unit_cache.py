"""Translation units kept across checks, so an edit re-lowers one file.

Linking a project lowers every file of its program; the language server does
it again after each edit of any of them. :class:`UnitCache` keeps the
:class:`~distaff.analysis.frontend.TranslationUnit` of each file keyed by what
decides it: the path, the text, the build flags and the data model, and the
headers the file read. Each header read is recorded with a digest of what it
gave; a unit is reused only when every one of them reads the same again (a
header edited on disk, or one that appeared where the search found none,
lowers the file anew). The least recently used units go first; a lock makes it
safe for the server's parse threads.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from distaff.analysis.frontend import TranslationUnit, translation_unit
from distaff.analysis.frontend.preprocess import _default_read_include as default_read_include
from distaff.analysis.ir import DataModel


def _digest(text) -> str | None:
    if text is None:
        return None
    if isinstance(text, bytes):
        return hashlib.sha256(text).hexdigest()
    return hashlib.sha256(str(text).encode("utf-8", "surrogatepass")).hexdigest()


class _Reads:
    """A ``read_include`` that records what each call gave."""

    def __init__(self, read_include):
        self.read_include = read_include
        self.seen: dict[tuple[str, str], str | None] = {}

    def __call__(self, name: str, from_path: str):
        text = self.read_include(name, from_path)
        self.seen[(name, from_path)] = _digest(text)
        return text


class UnitCache:
    """Units by (path, text, flags, data model), at most ``keep`` of them;
    ``hits`` and ``misses`` count lookups."""

    def __init__(self, keep: int = 512):
        self.keep = keep
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def unit(self, text: str, path: str, *, data_model: DataModel = DataModel.LP64, read_include=None,
             flags=None) -> TranslationUnit:
        """The unit of ``text`` named ``path`` (as :func:`translation_unit`),
        lowered again only when the text, flags or a header read changed."""
        read_include = read_include or default_read_include
        key = (path, _digest(text), flags, data_model)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is not None:
            unit, reads = entry
            if all(_digest(_read(read_include, name, frm)) == d for (name, frm), d in reads.items()):
                with self._lock:
                    self.hits += 1
                return unit
        reads = _Reads(read_include)
        unit = translation_unit(text, path, data_model=data_model, read_include=reads, flags=flags)
        with self._lock:
            self.misses += 1
            self._entries[key] = (unit, reads.seen)
            self._entries.move_to_end(key)
            while len(self._entries) > self.keep:
                self._entries.popitem(last=False)
        return unit

    def __len__(self) -> int:
        return len(self._entries)


def _read(read_include, name: str, from_path: str):
    try:
        return read_include(name, from_path)
    except Exception:  # noqa: BLE001 - unreadable now: differs from what was read
        return "\0unreadable"


UNITS = UnitCache()  # the process's cache (the language server's parse threads share it)

__all__ = ["UNITS", "UnitCache"]
