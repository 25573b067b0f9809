"""What ``pip install distaff`` puts into an environment: one package, distaff.

The wheel is built from the checkout as pip builds it for a user; nothing named
``analysis`` or ``server`` may be installed (another project's modules of those
names would collide with ours), and the code must run from the wheel alone.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True, timeout=600)
    (built,) = out.glob("distaff-*.whl")
    return built


def test_the_wheel_installs_one_package_with_every_module(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"distaff"}
    ours = {f"distaff/{p.relative_to(ROOT).as_posix()}" for top in ("analysis", "server")
            for p in (ROOT / top).rglob("*.py")}
    assert ours <= set(names), sorted(ours - set(names))[:5]
    (entry,) = [n for n in names if n.endswith("entry_points.txt")]
    assert "distaff = distaff.server.cli:entry" in zipfile.ZipFile(wheel).read(entry).decode()


def test_the_code_runs_from_the_wheel_and_analysis_is_not_a_module(wheel, tmp_path):
    program = tmp_path / "t.c"
    program.write_text("#include <assert.h>\nint main(void) { int x = 1; assert(x == 1); return 0; }\n")
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(wheel)!r})\n"
        "import distaff.analysis.check as c, distaff.server.cli as cli\n"
        f"assert c.__file__.startswith({str(wheel)!r}), c.__file__\n"
        f"status = cli.main(['check', {str(program)!r}])\n"
        "for name in ('analysis', 'server'):\n"
        "    try:\n"
        "        __import__(name)\n"
        "    except ModuleNotFoundError:\n"
        "        continue\n"
        "    raise SystemExit(f'{name} is importable')\n"
        "raise SystemExit(status)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 assertion: 1 holds" in run.stdout
