"""Builds distaff; the metadata is in pyproject.toml.

The engine's hot modules (distaff/core.py: MODULES) are compiled into C
extensions by mypyc, which makes checks about 1.6 times faster. Without mypyc
or a working C compiler, or with DISTAFF_PURE=1, the build is pure Python and
distaff runs the same, slower (`distaff --version` says which).
"""

import json
import os
import runpy
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
core = runpy.run_path(str(ROOT / "distaff" / "core.py"))

# Checks left to the compiled code, which checks declared types as it runs:
# narrowing of Optional, the IR's instruction unions, values from untyped
# tables. (A variable that changes type, mypy's "assignment", is an error: the
# compiled code would reject its second value.)
LENIENT = ("annotation-unchecked", "union-attr", "index", "arg-type", "return-value",
           "operator", "var-annotated", "misc", "attr-defined", "call-overload")


def _say(message: str) -> None:
    print(f"distaff: {message}", file=sys.stderr)


class BuildCore(build_ext):
    """Compile the core, or fall back to pure Python when compiling fails;
    record the sources a successful build was made from."""

    def run(self):
        if self.inplace:  # an earlier build's module no longer compiled would shadow its source
            for built in (ROOT / "analysis").rglob("*.so"):
                built.unlink()
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - no compiler, missing headers: still installable
            _say(f"the compiled core was not built ({type(e).__name__}: {e}); "
                 "distaff runs as pure Python")
            return
        if not self.extensions:
            return
        package = ROOT / "distaff" if self.inplace else Path(self.build_lib) / "distaff"
        package.mkdir(parents=True, exist_ok=True)
        (package / core["RECORD"]).write_text(json.dumps(core["record"](ROOT / "distaff"), indent=1))


def _extensions():
    if os.environ.get("DISTAFF_PURE"):
        _say("DISTAFF_PURE is set: pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: pure Python")
        return []
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        sources = [str(core["source_of"](m, Path("distaff"))) for m in core["MODULES"]]
        flags = ["--ignore-missing-imports", "--follow-imports=silent"]
        flags += [f"--disable-error-code={c}" for c in LENIENT]
        return mypycify(flags + sources, group_name="distaff._core", opt_level="3")
    except BaseException as e:  # noqa: BLE001 - mypyc's own failure must not stop the install
        _say(f"mypyc could not compile the core ({type(e).__name__}: {e}): pure Python")
        return []
    finally:
        os.chdir(here)


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildCore})
