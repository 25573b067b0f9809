"""The compiled core: the engine's hot modules, built into C extensions by mypyc.

``pip install`` compiles :data:`MODULES` when mypyc and a C compiler are at
hand (``setup.py``; ``DISTAFF_PURE=1`` at install time skips it) and records
each module's source digest in ``distaff/_core.json``. The compiled modules
behave as their sources do; they only run faster.

A compiled module is used only while it is the build of the source beside it.
:func:`install` (run when :mod:`distaff` is imported) checks the record: when
a source has changed since the build (an edit in an editable install), a
module's build is missing, or ``DISTAFF_PURE`` is set, the whole set is
imported from its sources -- all or none, because compiled modules call each
other directly. :data:`STATE` says which and why.

The core's dataclasses write their own ``__init__`` (``init=False``): the one
the dataclasses module generates is Python source made at import time, which
stays interpreted in a compiled module and costs about seven times as much
per object as a compiled one.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

# Each module runs per instruction or per event; the order is the build's.
MODULES = tuple(f"distaff.analysis.{m}" for m in (
    "evaluate", "ir", "record",
    "explore.dependence", "explore.dpor", "explore.explorer", "explore.races",
    "explore.reduction", "explore.steplog", "explore.vclock", "explore.wakeup",
    "summaries.guided", "summaries.keys", "summaries.slicing",
    "symex.awaits", "symex.engine", "symex.intrinsics", "symex.memory", "symex.pivots", "symex.state", "symex.sync",
    "symex.values",
))

RECORD = "_core.json"
_HERE = Path(__file__).resolve().parent


def source_of(module: str, package_dir: Path = _HERE) -> Path:
    """The source file of ``module`` (a name in :data:`MODULES`) under ``package_dir``."""
    return package_dir.joinpath(*module.split(".")[1:]).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def record(package_dir: Path) -> dict:
    """What a build of the sources under ``package_dir`` writes to :data:`RECORD`."""
    return {"modules": {m: digest(source_of(m, package_dir)) for m in MODULES}}


def _built(module: str, package_dir: Path) -> bool:
    stem = source_of(module, package_dir).with_suffix("")
    return any(stem.with_name(stem.name + s).exists() for s in importlib.machinery.EXTENSION_SUFFIXES)


def state(package_dir: Path = _HERE, environ=os.environ) -> str:
    """``"compiled"``, or ``"pure Python, why"``."""
    if environ.get("DISTAFF_PURE"):
        return "pure Python, DISTAFF_PURE is set"
    try:
        built = json.loads((package_dir / RECORD).read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return "pure Python, not compiled"
    for m in MODULES:
        src = source_of(m, package_dir)
        if not _built(m, package_dir):
            return f"pure Python, no build of {m} for this Python"
        if built.get(m) != digest(src):
            return (f"pure Python, {src.name} changed since the build "
                    "(`pip install -e .` rebuilds it)")
    return "compiled"


class _FromSource:
    """A meta path finder that imports :data:`MODULES` from their sources."""

    def __init__(self, package_dir: Path):
        self.package_dir = package_dir

    def find_spec(self, name, path=None, target=None):
        if name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(name, source_of(name, self.package_dir))


_UNCHECKED = "pure Python, not checked"
STATE = _UNCHECKED


def install() -> str:
    """Decide :data:`STATE` once per process; import from sources unless compiled."""
    global STATE
    if STATE == _UNCHECKED:
        STATE = state()
        # (a package run from a zip, as a wheel on sys.path, has no builds to pass over)
        if STATE != "compiled" and any(_built(m, _HERE) for m in MODULES):
            sys.meta_path.insert(0, _FromSource(_HERE))
    return STATE
