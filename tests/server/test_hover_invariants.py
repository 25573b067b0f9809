"""A proof for any number of threads in the editor, end to end over stdio
with the real server: the diagnostic says it, and the hover on a shared
variable shows the invariant the proof rests on; the JSON lists it too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from distaff.server import cli
from tests.cli.test_schemas import validator
from tests.server.lspclient import SERVER, RecordingClient, capabilities, distaff, open_doc, recording_client, wait_for

PROGRAM = Path(__file__).resolve().parents[1] / "programs" / "modular" / "tickets_capped.c"

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {"checkOn": "save", "timeout": 30}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


async def test_the_hover_on_a_shared_variable_shows_its_invariant(client):
    text = PROGRAM.read_text()
    uri = "file:///tmp/hover_invariants_tickets_capped.c"
    open_doc(client, uri, text, 1)
    await wait_for(lambda: (p := client.latest(uri)) and len(distaff(p.diagnostics, code="holds")) == 2, 60,
                   "both proofs")
    holds = distaff(client.latest(uri).diagnostics, code="holds")
    assert all("holds for any number of threads" in d.message and "issued in [0, 4]" in d.message for d in holds)
    row = next(n for n, line in enumerate(text.splitlines()) if line.startswith("atomic_int issued"))
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(row, len("atomic_int "))))
    assert hover is not None
    assert "Invariant for any number of threads: `issued` in [0, 4] (proves " in hover.contents.value
    # each object the proofs rest on has its own
    row = next(n for n, line in enumerate(text.splitlines()) if "seat_taken[SEATS]" in line)
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(row, len("int "))))
    assert hover is not None and "`seat_taken` in [0, 1]" in hover.contents.value


async def test_the_json_lists_the_invariants_as_its_schema_says(capsys):
    capsys.readouterr()
    cli.main(["check", "--format", "json", "--no-findings", "--workers", "1", str(PROGRAM)])
    report = json.loads(capsys.readouterr().out)
    validator("result").validate(report)
    for a in report["files"][0]["assertions"]:
        assert a["status"] == "holds"
        assert {"object": "issued", "invariant": "in [0, 4]"} in a["invariants"]
