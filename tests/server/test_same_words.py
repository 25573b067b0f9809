"""The command line and the editor say the same thing about the same result.

Every bundled example and every single-file test program is checked twice,
by ``python -m distaff check`` and by the language server (over stdio, with
the same options), and each problem and verdict line of the command line --
``file:line:col: severity: message`` -- must be a diagnostic at that position
with that severity and exactly that message, and the editor may show nothing
the command line does not.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from tests.server.lspclient import SERVER, RecordingClient, capabilities, open_doc, recording_client, wait_for

ROOT = Path(__file__).resolve().parents[2]
# Left out: programs whose check runs into its time limit, where two runs of
# the same check may report different run counts.
TIME_LIMITED = {"early_bug_long_loop.c", "hard_solver.c", "thread_factory.c"}
PROGRAMS = sorted(ROOT.glob("examples/*.c")) + sorted(
    p for p in (ROOT / "tests" / "programs").glob("*.c") if p.name not in TIME_LIMITED)
pytestmark = pytest.mark.asyncio(loop_scope="module")
OPTIONS = {"mode": "dpor-ag", "unwind": 8, "timeout": 30}

GCC_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): (?P<msg>.*)$")
SEVERITY = {lsp.DiagnosticSeverity.Error: "error", lsp.DiagnosticSeverity.Warning: "warning",
            lsp.DiagnosticSeverity.Information: "note"}


def command_line_messages() -> dict[str, set]:
    """file -> {(line, col, severity, message)} of the problem and verdict
    lines (not the trace's ``note`` lines) of one check of every program."""
    # the editor learns the summaries its hover shows, so it explores guided
    # from the start; the command line, which shows none, tries plain DPOR
    # first (plain_first: other runs, so other counts in the same words)
    argv = [sys.executable, "-m", "distaff", "check", "--mode", OPTIONS["mode"], "--unwind", str(OPTIONS["unwind"]),
            "--timeout", str(OPTIONS["timeout"]), "--disable", "plain_first", *map(str, PROGRAMS)]
    out = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=600).stdout
    messages: dict[str, set] = {str(p): set() for p in PROGRAMS}
    for line in out.splitlines():
        m = GCC_LINE.match(line)
        if m is None or (m["sev"] == "note" and not m["msg"].startswith("assertion")):
            continue  # a summary line, a trace's input or step
        messages[m["path"]].add((int(m["line"]), int(m["col"]), m["sev"], m["msg"]))
    return messages


def editor_messages(params: lsp.PublishDiagnosticsParams | None) -> set:
    if params is None:
        return set()
    return {(d.range.start.line + 1, d.range.start.character + 1, SEVERITY[d.severity], d.message)
            for d in params.diagnostics}


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {**OPTIONS, "checkOn": "manual"}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


async def test_the_command_line_and_the_editor_use_the_same_words(client):
    expected = command_line_messages()
    assert all(expected.values())  # every program has a verdict or a problem to compare
    kinds = {sev for found in expected.values() for _, _, sev, _ in found}
    assert kinds == {"error", "warning", "note"}  # violations, findings and verdicts all compared
    differ = []
    for path in PROGRAMS:
        uri = path.as_uri()
        open_doc(client, uri, path.read_text())
        await client.workspace_execute_command_async(lsp.ExecuteCommandParams("distaff.checkFile", [{"uri": uri}]))
        want = expected[str(path)]
        try:
            await wait_for(lambda: editor_messages(client.latest(uri)) == want, 20, f"the diagnostics of {path.name}")
        except AssertionError:
            got = editor_messages(client.latest(uri))
            differ.append((path.name, sorted(want - got), sorted(got - want)))
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    assert not differ, "\n".join(f"{name}:\n  only on the command line: {a}\n  only in the editor: {b}"
                                 for name, a, b in differ)
