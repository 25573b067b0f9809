"""The VS Code extension: its unit tests (against a stand-in ``vscode``
module), its settings against the server's, and the packaged .vsix.

``editors/ci-setup.sh`` runs ``npm ci``; when node_modules is missing these
tests run it themselves rather than skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import fields

import pytest

from distaff.server.settings import Settings, parse_settings
from tests.editors.conftest import VSCODE

CLIENT_ONLY = {"distaff.server.command", "distaff.server.pythonPath", "distaff.trace.server"}


def _npm(*args, timeout=600, env=None) -> subprocess.CompletedProcess:
    npm = shutil.which("npm")
    assert npm is not None, "npm is not installed (Node 20 is on every machine of this project)"
    if not (VSCODE / "node_modules" / ".package-lock.json").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=VSCODE,
                       check=True, timeout=600, stdin=subprocess.DEVNULL)
    return subprocess.run([npm, *args], cwd=VSCODE, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=env)


def _manifest() -> dict:
    return json.loads((VSCODE / "package.json").read_text())


def test_extension_unit_tests_pass():
    proc = _npm("test")
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "# fail 0" in output, output
    passed = [int(line.split()[-1]) for line in output.splitlines() if line.startswith("# pass ")]
    assert passed and passed[0] >= 20, output


def test_extension_with_the_real_client_and_server():
    """test/integration/server.test.ts: the extension and the real
    vscode-languageclient, in a headless stand-in for VS Code, start this
    checkout's server and get its diagnostics, hover, code actions and
    progress."""
    env = dict(os.environ, DISTAFF_TEST_PYTHON=sys.executable)
    proc = _npm("run", "test:server", env=env, timeout=900)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "# pass 1" in output and "# fail 0" in output, output


def _server_keys() -> dict[str, dict]:
    props = _manifest()["contributes"]["configuration"]["properties"]
    return {k.removeprefix("distaff."): v for k, v in props.items() if k not in CLIENT_ONLY}


def test_contributed_settings_are_exactly_the_servers_with_its_defaults():
    keys = _server_keys()
    settings, problems = parse_settings({k: v["default"] for k, v in keys.items()})
    assert problems == ()
    assert settings == Settings()
    # One contributed key per server setting (no unknown key was reported above).
    assert len(keys) == len(fields(Settings))


@pytest.mark.parametrize("key", sorted(_server_keys()))
def test_contributed_constraints_accept_and_reject_what_the_server_does(key):
    spec = _server_keys()[key]
    accepted = lambda value: parse_settings({key: value})[1] == ()  # noqa: E731
    for choice in spec.get("enum", []):
        assert accepted(choice), choice
    if "enum" in spec:
        assert not accepted("no-such-" + key)
    if "minimum" in spec:
        assert accepted(spec["minimum"])
        assert not accepted(spec["minimum"] - 1)
    if "maximum" in spec:
        assert accepted(spec["maximum"])
        assert not accepted(spec["maximum"] + 1)
    types = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    assert accepted(None) == ("null" in types)
    if "integer" in types and "minimum" in spec:
        assert not accepted(spec["minimum"] + 0.5)


def _vsix(tmp_path):
    """The .vsix that ci-setup.sh built, when nothing it is made from is
    newer; else a fresh one."""
    built = VSCODE / "distaff.vsix"
    sources = [VSCODE / name for name in ("package.json", "README.md", ".vscodeignore", "esbuild.mjs")]
    sources += list((VSCODE / "src").rglob("*.ts"))
    if built.exists() and built.stat().st_mtime >= max(p.stat().st_mtime for p in sources):
        return built
    out = tmp_path / "distaff.vsix"
    proc = _npm("exec", "--", "vsce", "package", "--no-dependencies", "--skip-license",
                "--allow-missing-repository", "-o", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_vsix_holds_the_bundle_and_no_dependencies(tmp_path):
    out = _vsix(tmp_path)
    with zipfile.ZipFile(out) as vsix:
        names = set(vsix.namelist())
        packaged = json.loads(vsix.read("extension/package.json"))
    assert {"extension/package.json", "extension/dist/extension.js", "extension/readme.md"} <= {
        n.lower() if n.lower().endswith("readme.md") else n for n in names}, names
    assert not [n for n in names if "node_modules" in n or n.endswith(".ts") or "/src/" in n or "/test/" in n]
    assert len(names) <= 8, names
    assert out.stat().st_size < 512 * 1024
    assert packaged["main"] == "./dist/extension.js"
    assert packaged["contributes"] == _manifest()["contributes"]
