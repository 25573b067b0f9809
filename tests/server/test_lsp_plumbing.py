"""End to end over stdio, with the real front end and the engine replaced by
the fakes of :mod:`tests.server.fake_engine` (through the server's
``--check-fn`` seam): versions, cancellation, crashes, settings, robustness.
Verdict-level behaviour with the real engine is in ``test_lsp.py``."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from tests.server.lspclient import (
    RecordingClient, capabilities, distaff, fake_server, open_doc, recording_client, replace_text,
    line_of, wait_for,
)

FOUR_ASSERTS = """#include <assert.h>
int x;
int fake_delay_ms = 400;
int main(void) {
    x = 1;
    assert(x == 1);
    assert(x > 0);
    assert(x < 2);
    assert(x != 5);
    return 0;
}
"""
STUBBORN = FOUR_ASSERTS.replace("int x;", "int x, fake_stubborn;")
CRASHING = FOUR_ASSERTS.replace("int x;", "int x, fake_crash;")

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=fake_server("scripted_check"), client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities()))
    yield
    await lsp_client.shutdown_session()


async def use_settings(client, **settings):
    """Set distaff.* on the client and tell the server, which pulls them."""
    client.set_configuration({"distaff": {"checkOn": "save", **settings}})
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await asyncio.sleep(0.3)


def close(client, uri):
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


def progress_ended(client, token):
    return any(isinstance(v, lsp.WorkDoneProgressEnd) for v in client.progress_reports.get(token, ()))


def new_token(client, before):
    return next((t for t in client.progress_reports if t not in before), None)


def results(params, source="distaff"):
    return [d for d in params.diagnostics if d.source == source and d.code in ("holds", "violated", "cancelled")]


async def test_edit_cancels_the_check_and_no_stale_result_follows(client):
    await use_settings(client)
    tokens = set(client.progress_reports)
    uri = "file:///tmp/plumb_cancel.c"
    open_doc(client, uri, FOUR_ASSERTS, 1)
    await wait_for(lambda: any(p.version == 1 and results(p) for p in client.published), what="a first v1 result")
    n_before = len(client.published)
    t_edit = time.monotonic()
    replace_text(client, uri, FOUR_ASSERTS.replace("x != 5", "x != 6"), 2)
    # the v1 check's progress ends (cancelled) promptly
    token = new_token(client, tokens)
    await wait_for(lambda: progress_ended(client, token), 5, "the v1 progress to end")
    assert client.progress_reports[token][-1].message == "cancelled"
    assert time.monotonic() - t_edit < 1.0
    await asyncio.sleep(1.5)  # several fake assertion delays: a v1 result would have arrived
    after = client.published[n_before:]
    assert after and all(p.version == 2 for p in after)
    assert all(not results(p) for p in after)  # checkOn save: v2 is not checked before a save
    # save: v2 is checked, its results arrive tagged v2
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    final = await wait_for(lambda: (p := client.latest(uri)) and len(results(p)) == 4 and p, 20, "v2 results")
    assert final.version == 2
    close(client, uri)


async def test_cancel_request_of_check_file_cancels_the_check(client):
    uri = "file:///tmp/plumb_cancelreq.c"
    await use_settings(client, checkOn="manual")
    open_doc(client, uri, FOUR_ASSERTS.replace("x != 5", "x != 9"), 1)  # not in the cache
    await wait_for(lambda: client.latest(uri), what="the parse's publish")
    await asyncio.sleep(0.5)
    assert not any(results(p) for p in client.published if p.uri == uri)  # manual: nothing checked
    request = asyncio.ensure_future(client.protocol.send_request_async(
        lsp.WORKSPACE_EXECUTE_COMMAND, lsp.ExecuteCommandParams("distaff.checkFile", [{"uri": uri}]),
        msg_id="check-1"))
    await wait_for(lambda: any(results(p) for p in client.published if p.uri == uri), what="a first result")
    client.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id="check-1"))
    with pytest.raises(Exception, match="cancel"):
        await asyncio.wait_for(request, 5)
    final = await wait_for(
        lambda: (p := client.latest(uri)) and any(d.code == "cancelled" for d in p.diagnostics) and p,
        5, "cancelled assertions")
    codes = sorted(d.code for d in distaff(final.diagnostics))
    assert "cancelled" in codes and "holds" in codes and len(codes) == 4
    cancelled = [d for d in final.diagnostics if d.code == "cancelled"]
    assert all(d.severity == lsp.DiagnosticSeverity.Warning and "holds" not in d.message for d in cancelled)
    # checking again decides what the cancelled check left open
    summary = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams("distaff.checkFile", [{"uri": uri}]))
    assert summary["outcome"] == "done" and summary["counts"] == {"holds": 4}
    assert sorted(d.code for d in distaff(client.latest(uri).diagnostics)) == ["holds"] * 4
    close(client, uri)


async def test_unchanged_assertions_reuse_cached_results_without_a_check(client):
    await use_settings(client)
    text = FOUR_ASSERTS.replace("x != 5", "x != 11")
    first = "file:///tmp/plumb_cache1.c"
    open_doc(client, first, text, 1)
    await wait_for(lambda: (p := client.latest(first)) and len(results(p)) == 4, 20, "the first check")
    await use_settings(client, checkOn="manual")
    tokens = set(client.progress_reports)
    second = "file:///tmp/plumb_cache2.c"
    moved = "/* moved down by a comment */\n\n" + text
    open_doc(client, second, moved, 1)
    final = await wait_for(lambda: (p := client.latest(second)) and len(results(p)) == 4 and p, 10, "cached")
    assert [d.range.start.line for d in results(final)] == [7, 8, 9, 10]
    summary = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams("distaff.checkFile", [{"uri": second}]))
    assert summary["outcome"] == "done" and summary["counts"] == {"holds": 4}
    assert new_token(client, tokens) is None  # no check ran
    close(client, first)
    close(client, second)


async def test_check_on_change_waits_for_quiet_and_checks_only_the_last_text(client):
    await use_settings(client, checkOn="change", debounceMs=400)
    uri = "file:///tmp/plumb_debounce.c"
    text = FOUR_ASSERTS.replace("fake_delay_ms = 400", "fake_delay_ms = 20")
    open_doc(client, uri, text, 1)
    await wait_for(lambda: (p := client.latest(uri)) and len(results(p)) == 4, 20, "the check on open")
    tokens = set(client.progress_reports)
    for v in range(2, 7):
        replace_text(client, uri, text.replace("x != 5", f"x != {v + 20}"), v)
        await asyncio.sleep(0.1)  # typing: less than the debounce apart
    final = await wait_for(lambda: (p := client.latest(uri)) and len(results(p)) == 4 and p, 20, "the last check")
    assert final.version == 6
    assert len([t for t in client.progress_reports if t not in tokens]) == 1  # one check, not five
    close(client, uri)


async def test_lenses_say_checking_until_each_verdict_and_the_client_is_told_to_refresh(client):
    await use_settings(client)
    uri = "file:///tmp/plumb_lens.c"
    refreshes = client.lens_refreshes
    open_doc(client, uri, FOUR_ASSERTS.replace("x != 5", "x != 41"), 1)
    await wait_for(lambda: (p := client.latest(uri)) and len(results(p)) == 1, 20, "a first verdict")
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    titles = [lens.command.title for lens in lenses]
    assert titles[0] == "holds under SC · 3 runs" and titles[-1] == "checking…"
    assert all(lens.command.command == "distaff.checkFile" for lens in lenses)
    await wait_for(lambda: (p := client.latest(uri)) and len(results(p)) == 4, 20, "all verdicts")
    await wait_for(lambda: client.lens_refreshes > refreshes + 1, 5, "code lens refreshes")
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert [lens.command.title for lens in lenses] == ["holds under SC · 3 runs"] * 4
    close(client, uri)


async def test_cancelling_the_progress_cancels_the_check(client):
    await use_settings(client)
    uri = "file:///tmp/plumb_progress_cancel.c"
    tokens = set(client.progress_reports)
    open_doc(client, uri, FOUR_ASSERTS.replace("x != 5", "x != 31"), 1)
    token = await wait_for(lambda: (t := new_token(client, tokens)) and client.progress_reports[t] and t,
                           20, "the progress to begin")
    begin = client.progress_reports[token][0]
    assert begin.cancellable and begin.message == "0/4 assertions"
    client.window_work_done_progress_cancel(lsp.WorkDoneProgressCancelParams(token=token))
    final = await wait_for(
        lambda: (p := client.latest(uri)) and any(d.code == "cancelled" for d in p.diagnostics) and p,
        5, "cancelled assertions")
    assert len(distaff(final.diagnostics, code="cancelled")) >= 3
    assert progress_ended(client, token)
    close(client, uri)


async def test_a_check_stuck_in_native_code_is_killed_on_edit_and_close_clears(client):
    await use_settings(client)
    uri = "file:///tmp/plumb_stuck.c"
    tokens = set(client.progress_reports)
    open_doc(client, uri, STUBBORN, 1)
    await wait_for(lambda: new_token(client, tokens), what="the check to start")
    token = new_token(client, tokens)
    await asyncio.sleep(0.3)
    t_edit = time.monotonic()
    replace_text(client, uri, STUBBORN + "\n", 2)
    await wait_for(lambda: progress_ended(client, token), 2, "the stuck check to end")
    assert time.monotonic() - t_edit < 1.0
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line_of(STUBBORN, "assert(x == 1)"), 6)))
    assert hover is not None and "not checked yet" in hover.contents.value
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    await wait_for(lambda: (p := client.latest(uri)).version is None and not p.diagnostics, 5,
                   "close to clear diagnostics")


async def test_worker_crash_becomes_a_diagnostic(client):
    await use_settings(client)
    uri = "file:///tmp/plumb_crash.c"
    open_doc(client, uri, CRASHING, 1)
    final = await wait_for(
        lambda: (p := client.latest(uri)) and any(d.code == "check-failed" for d in p.diagnostics) and p,
        20, "the crash diagnostic")
    problem = next(d for d in final.diagnostics if d.code == "check-failed")
    assert "exit status 7" in problem.message
    codes = sorted(d.code for d in final.diagnostics if d.code != "check-failed")
    assert codes == ["crashed", "crashed", "crashed", "holds"]
    # the server still answers
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert [lens.command.title for lens in lenses][:2] == ["holds under SC · 3 runs", "not checked: crashed"]
    close(client, uri)


def _garbage_texts():
    rng = random.Random(7)
    binary = bytes(rng.randrange(256) for _ in range(20000)).decode("latin-1")
    big = "\n".join(  # 20,000 lines
        f"int f{i}(int a) {{\n    int b = a + {i};\n    if (b > 3)\n        b = b * 2;\n    return b;\n}}\n"
        for i in range(2857)
    ) + "int main(void) { return f1(2); }\n"
    return [
        ("garbage", "}{)(*&^%$#@!~ int int int (((( " * 500),
        ("binary", binary),
        ("nul", "int main(void) {\x00\x00 return 0; }"),
        ("surrogates", 'int main(void) { char *s = "\ud800"; /* \udfff */ return 0 }'),
        ("unterminated", '#include "nowhere.h"\nint main(void) { char *s = "abc'),
        ("huge", big),
    ]


async def test_garbage_binary_huge_files_and_rapid_edits_leave_the_server_answering(client):
    await use_settings(client)
    for name, text in _garbage_texts():
        uri = f"file:///tmp/plumb_{name}.c"
        open_doc(client, uri, text, 1)
    uri = "file:///tmp/plumb_rapid.c"
    open_doc(client, uri, FOUR_ASSERTS, 1)
    for v in range(2, 60):
        cut = random.Random(v).randrange(len(FOUR_ASSERTS))
        replace_text(client, uri, FOUR_ASSERTS[:cut] + "@" + FOUR_ASSERTS[cut:], v)
    replace_text(client, uri, FOUR_ASSERTS, 60)
    t0 = time.monotonic()
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line_of(FOUR_ASSERTS, "assert(x == 1)"), 6)))
    assert hover is not None and time.monotonic() - t0 < 15
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    final = await wait_for(lambda: (p := client.latest(uri)) and len(results(p)) == 4 and p, 30, "final results")
    assert final.version == 60
    versions = [p.version for p in client.published if p.uri == uri]
    assert versions == sorted(versions)  # never an older version after a newer one
    assert all(p.version == 60 for p in client.published[client.published.index(final):] if p.uri == uri)
    for name, _ in _garbage_texts()[:5]:
        p = client.latest(f"file:///tmp/plumb_{name}.c")
        assert p is not None and any(d.code == "syntax" for d in p.diagnostics), name
    huge = await wait_for(lambda: client.latest("file:///tmp/plumb_huge.c"), 60, "the huge file's parse")
    assert huge.version == 1
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert len(lenses) == 4
    for name, _ in _garbage_texts():
        close(client, f"file:///tmp/plumb_{name}.c")
    close(client, uri)
