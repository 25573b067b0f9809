"""`distaff ir` and the wiring of `distaff lsp` / `python -m distaff.server`."""

import os
import socket
import subprocess
import sys
import time

from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import DataModel
from distaff.analysis.irtext import format_program
from distaff.server import cli
from tests.cli.test_cli import ROOT
from tests.cli.test_render import GCC_LINE

EXAMPLE = "examples/racy_counter.c"


def test_ir_prints_the_lowered_program(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / EXAMPLE).read_text()
    for flags, model in (([], DataModel.LP64), (["--data-model", "ilp32"], DataModel.ILP32)):
        assert cli.main(["ir", *flags, EXAMPLE]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        assert out == format_program(parse_program(text, EXAMPLE, data_model=model))
    assert "ilp32" in out


def test_ir_of_a_file_with_syntax_errors_exits_2_with_findings_on_stderr(capsys, tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("int x;\nint main( { return 0 }\n")
    assert cli.main(["ir", str(bad)]) == 2
    out, err = capsys.readouterr()
    rows = [GCC_LINE.match(line) for line in err.splitlines()]
    assert rows and all(rows)
    assert any(r["sev"] == "error" and "syntax error" in r["msg"] for r in rows)
    assert "global x" in out  # what could be lowered still is


def _env():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISTAFF_DEBUG", None)
    return env


def test_python_m_server_is_the_language_server_command():
    proc = subprocess.run([sys.executable, "-m", "distaff.server", "--help"], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.startswith("usage: distaff lsp")


def test_lsp_tcp_listens_on_loopback():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "distaff.server.cli", "lsp", "--tcp", str(port)], cwd=ROOT,
                            env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline, connected = time.monotonic() + 30, False
        while time.monotonic() < deadline and proc.poll() is None and not connected:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                connected = True
            except OSError:
                time.sleep(0.2)
        assert connected, proc.stderr.read().decode() if proc.poll() is not None else "no listener"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stderr.close()
