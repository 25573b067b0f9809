"""The compiled core (distaff/core.py): built where a C compiler is, used only
while it is the build of its sources, and checking as the sources do."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from distaff import core

ROOT = Path(__file__).resolve().parent.parent
HAS_COMPILER = shutil.which("cc") is not None or shutil.which("gcc") is not None
needs_compiled = pytest.mark.skipif(core.STATE != "compiled",
                                    reason=f"the core is not compiled here ({core.STATE})")


def fake_package(root: Path) -> Path:
    """A package directory with every core module's source and a build of each."""
    for m in core.MODULES:
        src = core.source_of(m, root)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"# {m}\n")
        src.with_name(src.stem + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    (root / core.RECORD).write_text(json.dumps(core.record(root)))
    return root


@pytest.mark.skipif(not HAS_COMPILER, reason="no C compiler: the install is pure Python by design")
def test_the_install_compiled_the_core_where_a_compiler_is():
    # (after editing a core module, `pip install -e .` rebuilds it)
    assert core.STATE == "compiled"
    dpor = sys.modules.get("distaff.analysis.explore.dpor") or __import__(
        "distaff.analysis.explore.dpor", fromlist=["x"])
    assert not dpor.__file__.endswith(".py"), dpor.__file__


def test_a_build_is_used_only_while_every_source_is_the_one_built(tmp_path):
    pkg = fake_package(tmp_path)
    assert core.state(pkg, environ={}) == "compiled"
    assert core.state(pkg, environ={"DISTAFF_PURE": "1"}) == "pure Python, DISTAFF_PURE is set"
    dpor = core.source_of("distaff.analysis.explore.dpor", pkg)
    dpor.write_text("# edited\n")
    assert core.state(pkg, environ={}) == (
        "pure Python, dpor.py changed since the build (`pip install -e .` rebuilds it)")
    (pkg / core.RECORD).write_text(json.dumps(core.record(pkg)))
    assert core.state(pkg, environ={}) == "compiled"
    dpor.with_name("dpor" + importlib.machinery.EXTENSION_SUFFIXES[0]).unlink()
    assert core.state(pkg, environ={}) == (
        "pure Python, no build of distaff.analysis.explore.dpor for this Python")
    (pkg / core.RECORD).unlink()
    assert core.state(pkg, environ={}) == "pure Python, not compiled"


def run_python(code: str, **env) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={**os.environ, **env})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@needs_compiled
def test_distaff_pure_imports_every_core_module_from_its_source():
    code = ("import importlib, distaff.core as c\n"
            "print(c.STATE)\n"
            "for m in c.MODULES:\n"
            "    print(importlib.import_module(m).__file__.endswith('.py'))\n")
    pure = run_python(code, DISTAFF_PURE="1").split("\n")
    assert pure[0] == "pure Python, DISTAFF_PURE is set" and set(pure[1:-1]) == {"True"}
    compiled = run_python(code).split("\n")
    assert compiled[0] == "compiled" and set(compiled[1:-1]) == {"False"}


@needs_compiled
@pytest.mark.parametrize("mode", ["baseline", "dpor", "dpor-ag"])
def test_the_compiled_and_the_pure_core_check_alike(mode):
    """Verdicts, run counts, schedules, inputs and learned summaries, on
    examples with violations, deadlocks and holds."""
    programs = [str(ROOT / "examples" / p) for p in ("racy_counter.c", "deadlock.c", "reorder.c",
                                                      "locked_counter.c", "producer_consumer.c")]
    code = (
        "import json, sys\n"
        "from distaff.analysis.check import Options, check_text\n"
        "out = []\n"
        f"for p in {programs!r}:\n"
        f"    o = Options(mode={mode!r}, workers=1, timeout_s=120)\n"
        "    for r in check_text(open(p).read(), p, o):\n"
        "        if hasattr(r, 'status'):\n"
        "            t = r.trace\n"
        "            out.append([p, r.id, r.status.name, r.stats.runs, r.stats.steps, r.stats.events,\n"
        "                        t and [(s.tid, s.span.line, s.action) for s in t.steps], t and [(i.name, i.value) for i in t.inputs],\n"
        "                        [(s.span.line, s.expr, s.pruned_runs) for s in r.summaries]])\n"
        "        else:\n"
        "            out.append([p, r.kind.name, r.message])\n"
        "print(json.dumps(out))\n")
    pure = json.loads(run_python(code, DISTAFF_PURE="1"))
    compiled = json.loads(run_python(code))
    assert compiled == pure
    assert any(row[2] == "VIOLATED" for row in compiled) and any(row[2] == "HOLDS" for row in compiled)
