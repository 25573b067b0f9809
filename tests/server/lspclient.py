"""A pytest-lsp client that records every publishDiagnostics (with its
version) and helpers to wait for what a test expects."""

from __future__ import annotations

import asyncio
import sys
import time

from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

SERVER = [sys.executable, "-m", "distaff.server"]


def fake_server(check_fn: str) -> list[str]:
    """The server with the engine replaced by ``tests.server.fake_engine.<check_fn>``."""
    return [sys.executable, "-m", "distaff.server.app", "--check-fn", f"tests.server.fake_engine:{check_fn}"]


class RecordingClient(LanguageClient):
    published: list[lsp.PublishDiagnosticsParams]
    lens_refreshes: int

    def latest(self, uri: str) -> lsp.PublishDiagnosticsParams | None:
        for p in reversed(self.published):
            if p.uri == uri:
                return p
        return None


def recording_client() -> RecordingClient:
    client = RecordingClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features.pop(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    register_lsp_features(client, features)
    client.published = []
    client.lens_refreshes = 0

    @client.feature(lsp.WORKSPACE_CODE_LENS_REFRESH)
    def refresh(ls: RecordingClient, params):
        ls.lens_refreshes += 1

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(ls: RecordingClient, params: lsp.PublishDiagnosticsParams):
        ls.diagnostics[params.uri] = params.diagnostics
        ls.published.append(params)

    return client


def capabilities(related: bool = True, config: bool = True) -> lsp.ClientCapabilities:
    return lsp.ClientCapabilities(
        window=lsp.WindowClientCapabilities(work_done_progress=True,
                                            show_document=lsp.ShowDocumentClientCapabilities(support=True)),
        workspace=lsp.WorkspaceClientCapabilities(
            configuration=config, code_lens=lsp.CodeLensWorkspaceClientCapabilities(refresh_support=True)),
        text_document=lsp.TextDocumentClientCapabilities(
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(
                related_information=related, version_support=True),
        ),
    )


async def wait_for(predicate, timeout: float = 30.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.02)


def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "c", version, text)))


def replace_text(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [lsp.TextDocumentContentChangeWholeDocument(text)],
    ))


def distaff(diags, source: str = "distaff", code: str | None = None):
    return [d for d in diags if d.source == source and (code is None or d.code == code)]


def line_of(text: str, needle: str) -> int:
    """0-based line of the first line containing ``needle``."""
    for n, line in enumerate(text.splitlines()):
        if needle in line:
            return n
    raise ValueError(needle)
