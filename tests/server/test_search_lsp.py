"""The editor hears how the search for deadlocks and run-time errors ended:
one that stopped at its budget (the ``distaff.findingsTimeout`` setting) says
so on the file's first line, after the assertion's own diagnostic, so a
missing deadlock warning is not read as "there is none"."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from tests.server.lspclient import SERVER, RecordingClient, capabilities, open_doc, recording_client, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="module")
QUEUE = Path(__file__).resolve().parents[1] / "programs" / "scale" / "ifwait_queue4.c"


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {"checkOn": "save", "findingsTimeout": 1}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


async def test_a_search_cut_at_its_budget_is_said_on_the_first_line(client):
    uri = QUEUE.as_uri()
    open_doc(client, uri, QUEUE.read_text())

    def said():
        p = client.latest(uri)
        return p is not None and next((d for d in p.diagnostics if d.code == "findings-search-unfinished"), None)

    d = await wait_for(said, 90, "the unfinished-search diagnostic")
    assert d.severity == lsp.DiagnosticSeverity.Information
    assert d.range.start.line == 0
    assert d.message.startswith("The search for deadlocks and run-time errors stopped at its time budget of 1.0 s")
    [violated] = [x for x in client.latest(uri).diagnostics if x.code == "violated"]
    assert violated.message.startswith("assertion `job > 0` can fail")
