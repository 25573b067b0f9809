"""End to end over stdio: with ``distaff.memoryModel`` set to ``rc11`` the
editor reads memory as C11 does: message passing through relaxed atomics
fails, with the read that saw an older value in the related information,
and a proof says the model it holds under, in its diagnostic and its code lens."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from tests.server.lspclient import (
    SERVER, RecordingClient, capabilities, distaff, open_doc, recording_client, wait_for,
)

ROOT = Path(__file__).resolve().parents[2]
RELAXED = (ROOT / "tests/programs/c11/mp_relaxed.c").read_text()
RELEASED = (ROOT / "tests/programs/c11/mp_release_acquire.c").read_text()

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {"checkOn": "save", "timeout": 60, "memoryModel": "rc11"}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


async def test_relaxed_message_passing_fails_and_says_which_write_was_not_seen(client):
    uri = "file:///tmp/e2e_mp_relaxed.c"
    open_doc(client, uri, RELAXED, 1)
    final = await wait_for(lambda: (p := client.latest(uri)) and distaff(p.diagnostics, code="violated") and p,
                           60, "the violation")
    (d,) = distaff(final.diagnostics, code="violated")
    related = [r.message for r in d.related_information or ()]
    assert any("read payload == 0 (the initial value, not the latest: the write of 42 at line 15 is not visible here" in m
               for m in related), related


async def test_a_proof_says_it_holds_under_c11(client):
    uri = "file:///tmp/e2e_mp_released.c"
    open_doc(client, uri, RELEASED, 1)
    final = await wait_for(lambda: (p := client.latest(uri)) and distaff(p.diagnostics, code="holds") and p,
                           60, "the proof")
    (d,) = distaff(final.diagnostics, code="holds")
    assert "holds for all executions under C11 (RC11)" in d.message
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    titles = {lens.range.start.line: lens.command.title for lens in lenses}
    assert titles[d.range.start.line].startswith("holds under C11 · "), titles
