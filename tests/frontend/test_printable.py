"""Messages quoting source text never carry its raw control bytes: a syntax
error's unexpected text, an ``#error`` line and an asserted expression are
escaped, so the CLI's output (and an editor's) cannot be hijacked by the
buffer it reports on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from distaff.analysis.frontend import parse_program
from distaff.analysis.frontend.printable import printable

ROOT = Path(__file__).resolve().parent.parent.parent


def raw_controls(text: str) -> set[str]:
    return {ch for ch in text if not ch.isprintable() and ch != "\n"}


@pytest.mark.parametrize("text, shown", [
    ("abc", "abc"),
    ("a\\b", "a\\b"),
    ("\x01\x1b[31m", "\\x01\\x1b[31m"),
    ("x\ty\r\x7f", "x\\ty\\r\\x7f"),
    ("\\\x00", "\\\\\\x00"),
    ("h\u00e9\u202e", "h\u00e9\\u202e"),
])
def test_printable_escapes_only_what_cannot_be_shown(text: str, shown: str) -> None:
    assert printable(text) == shown
    assert not raw_controls(printable(text))


@pytest.mark.parametrize("source, quoted", [
    ("int main(void) {\n  int x = 1 \x01\x1b[2J;\n  return 0;\n}\n", "\\x01\\x1b[2J"),
    ("#error stop\x07here\nint main(void) { return 0; }\n", "stop\\x07here"),
])
def test_findings_quote_source_text_escaped(source: str, quoted: str) -> None:
    program = parse_program(source, "t.c")
    assert program.findings
    for f in program.findings:
        assert not raw_controls(f.message), f.message
    assert any(quoted in f.message for f in program.findings), program.findings


def test_an_asserted_expression_is_escaped() -> None:
    program = parse_program("int main(void) { char c = 1; assert(c != '\x01'); return 0; }\n", "t.c")
    (site,) = program.assertions()
    assert site.text == "c != '\\x01'"


def test_the_cli_reports_a_control_byte_as_one_escaped_error_line(tmp_path: Path) -> None:
    path = tmp_path / "ctl.c"
    path.write_bytes(b"int main(void) {\n  int x = 1 \x01\x1b[31m;\n  return 0;\n}\n")
    done = subprocess.run([sys.executable, "-m", "distaff.server.cli", "check", str(path)], cwd=ROOT,
                          capture_output=True, timeout=120)
    out = done.stdout.decode("utf-8") + done.stderr.decode("utf-8")
    assert done.returncode == 2, out
    errors = [line for line in out.splitlines() if "error:" in line]
    assert len(errors) == 1 and "\\x01\\x1b[31m" in errors[0], out
    assert not raw_controls(out), out
    assert "Traceback" not in out
