"""The language server's memory limit, end to end: with distaff.maxMemoryMB
set, a check that needs more stops in its worker process and the editor
says the assertion is undecided for that reason, in the command line's
words; the server goes on serving."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from tests.server.lspclient import SERVER, RecordingClient, capabilities, open_doc, recording_client, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="module")
HOG = Path(__file__).resolve().parents[1] / "programs" / "limits" / "memory_hog.c"


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {"checkOn": "save", "timeout": 120, "maxMemoryMB": 300}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


async def test_a_check_over_the_memory_limit_is_undecided_and_says_so(client):
    uri = HOG.as_uri()
    open_doc(client, uri, HOG.read_text())

    def verdict():
        p = client.latest(uri)
        return p is not None and next((d for d in p.diagnostics if d.code == "memory-limit"), None)

    d = await wait_for(verdict, 90, "the memory-limit diagnostic")
    assert d.message == "assertion `y != 12345` undecided (memory limit of 300 MB reached)"
    assert d.severity == lsp.DiagnosticSeverity.Warning
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), d.range.start))
    assert "memory limit of 300 MB reached" in hover.contents.value
