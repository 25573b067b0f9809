"""The Neovim plugin in a real headless Neovim (Debian's 0.7.2 in CI).

``editors/ci-setup.sh`` installs Neovim; these tests do not skip when it is
missing, since CI always has it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

from tests.editors.conftest import NVIM_PLUGIN, REPO


def _nvim() -> str:
    nvim = shutil.which("nvim")
    assert nvim is not None, "nvim is not installed: run `bash editors/ci-setup.sh`"
    return nvim


def _headless(script, env, timeout):
    return subprocess.run(
        [_nvim(), "--headless", "-u", "NONE", "-i", "NONE", "--cmd", f"set rtp+={NVIM_PLUGIN}",
         "-c", f"luafile {script}"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
    )


def test_end_to_end_diagnostics_hover_and_check_from_here(nvim_env):
    """e2e.lua opens a program with a failing and a holding assertion; the
    plugin starts this checkout's server; the test waits for the verdicts
    at the marked lines, hovers, runs "Check from here" and clears it."""
    nvim_env["DISTAFF_E2E_PYTHON"] = sys.executable
    nvim_env["DISTAFF_E2E_TIMEOUT"] = "240"
    proc = _headless(NVIM_PLUGIN / "test" / "e2e.lua", nvim_env, timeout=800)
    output = proc.stderr + proc.stdout
    assert proc.returncode == 0, output
    assert "e2e: passed" in output, output


def test_end_to_end_fails_with_the_reason_when_the_verdict_is_wrong(nvim_env):
    """Against a stand-in engine that says every assertion holds, the test
    must not pass: it exits 1 as soon as the wrong verdict arrives, naming it."""
    nvim_env["DISTAFF_E2E_CMD"] = f"{sys.executable} -m distaff.server --check-fn tests.server.fake_engine:slow_check"
    nvim_env["FAKE_CHECK_DELAY"] = "0"
    nvim_env["DISTAFF_E2E_TIMEOUT"] = "60"
    proc = _headless(NVIM_PLUGIN / "test" / "e2e.lua", nvim_env, timeout=240)
    output = proc.stderr + proc.stdout
    assert proc.returncode == 1, output
    assert "e2e: FAIL: the failing assertion got severity 3, not error: assertion `counter == 2` holds" in output, output
    assert "e2e: passed" not in output


def _health(env) -> str:
    proc = _headless(NVIM_PLUGIN / "test" / "health.lua", env, timeout=120)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return proc.stdout


def test_checkhealth_reports_the_server_python_and_z3(nvim_env):
    nvim_env["DISTAFF_HEALTH_PYTHON"] = sys.executable
    nvim_env["DISTAFF_HEALTH_CWD"] = str(REPO)
    report = _health(nvim_env)
    assert "ERROR" not in report, report
    # Neovim 0.7 writes "- OK: text", 0.10+ "- ✅ OK text".
    for line in (f"server command: {sys.executable} -m distaff.server", "Python 3.", "z3 ", "version: distaff ",
                 "setup() has run"):
        assert re.search(r"OK:? " + re.escape(line), report), (line, report)


def test_checkhealth_says_how_to_install_a_missing_server(nvim_env):
    nvim_env["DISTAFF_HEALTH_CMD"] = "/nonexistent/distaff lsp"
    report = _health(nvim_env)
    assert re.search(r"ERROR:? `/nonexistent/distaff` is not an executable", report), report
    assert "pip install distaff" in report, report


def test_checkhealth_finds_an_installed_script_its_python_and_version(nvim_env, tmp_path):
    """A `distaff` console script as pip writes it (a #! line naming its
    Python): health runs `distaff --version` and probes that Python."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "distaff"
    script.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(REPO)!r})\n"
                      "from distaff.server.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    nvim_env["PATH"] = f"{bin_dir}:{nvim_env['PATH']}"
    report = _health(nvim_env)
    assert "ERROR" not in report, report
    assert re.search(r"OK:? server command: distaff lsp \(" + re.escape(str(script)) + r"\)", report), report
    assert re.search(r"OK:? version: distaff \d+\.\d+", report), report
    assert re.search(r"OK:? runs on " + re.escape(sys.executable), report), report
    assert re.search(r"OK:? z3 ", report), report


def test_a_missing_server_is_reported_once_with_the_fix(nvim_env):
    proc = _headless(NVIM_PLUGIN / "test" / "missing_server.lua", nvim_env, timeout=60)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "notifications: 1\nclients: 0\n" in proc.stdout, proc.stdout
    assert "`/nonexistent/distaff` is not an executable" in proc.stdout
    assert "pip install distaff" in proc.stdout and ":checkhealth distaff" in proc.stdout
