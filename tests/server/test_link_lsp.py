"""Programs of several files in the language server, end to end over stdio
with the real engine: a file of a project is checked as part of the program
it belongs to, with the unsaved buffers of its open files; each file gets its
share of the diagnostics (files no editor has open too), cleared when it has
none left; hover works in every file; the log says what was linked."""

from __future__ import annotations

import shutil

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from tests.link.projects import MULTI
from tests.server.lspclient import (
    SERVER, RecordingClient, capabilities, distaff, line_of, open_doc, recording_client, replace_text, wait_for,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {"checkOn": "change", "debounceMs": 100, "timeout": 60}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


def copy(tmp_path, name: str):
    shutil.copytree(MULTI / name, tmp_path / name)
    return tmp_path / name


def codes(params, code: str):
    return distaff(params.diagnostics, code=code) if params is not None else []


def verdict(client, uri, code: str, version="any"):
    """The latest diagnostics of ``uri`` when they hold a ``code`` verdict."""
    p = client.latest(uri)
    if p is None or (version != "any" and p.version != version):
        return None
    return p if codes(p, code) else None


STATS_LOCKED = """#include <pthread.h>
#include "stats.h"

static int total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void stats_add(int amount) {
    pthread_mutex_lock(&lock);
    int seen = total;
    total = seen + amount;
    pthread_mutex_unlock(&lock);
}

int stats_total(void) {
    return total;
}
"""


async def test_an_edit_in_one_buffer_changes_the_verdict_in_another(client, tmp_path):
    root = copy(tmp_path, "tally")
    main, stats, worker = (root / "src" / n for n in ("main.c", "stats.c", "worker.c"))
    main_text = main.read_text()
    open_doc(client, main.as_uri(), main_text, 1)
    failed = await wait_for(lambda: verdict(client, main.as_uri(), "violated"), 90, "main.c's violation")
    (violation,) = codes(failed, "violated")
    assert failed.version == 1 and violation.range.start.line == line_of(main_text, "assert(stats_total()")
    assert violation.message.startswith("assertion `stats_total() == 3` can fail")
    # the steps in other files are locations there
    places = {r.location.uri for r in violation.related_information}
    assert {stats.as_uri(), worker.as_uri(), (root / "src" / "queue.c").as_uri()} <= places
    lost = [r for r in violation.related_information if r.message.endswith("read total == 0")]
    assert len(lost) == 2 and all(r.location.uri == stats.as_uri() for r in lost)
    # worker.c, not open, gets its assertion's verdict too (no version: not open)
    closed = await wait_for(lambda: verdict(client, worker.as_uri(), "holds"), 60, "worker.c's verdict")
    assert closed.version is None
    said = [m.message for m in client.log_messages if "linked" in m.message]
    assert any(f"{main}: its program ({root / 'compile_commands.json'}): linked {main}, " in m for m in said), said

    # the lost update fixed in stats.c's buffer, not on disk: main.c's assertion holds
    open_doc(client, stats.as_uri(), stats.read_text(), 1)
    replace_text(client, stats.as_uri(), STATS_LOCKED, 2)
    held = await wait_for(lambda: verdict(client, main.as_uri(), "holds"), 90, "main.c's assertion to hold")
    assert held.version == 1 and not codes(held, "violated")
    assert "pthread_mutex_lock" not in stats.read_text()  # the saved copy still loses updates

    # hover in a file without main shows the program's verdict of its assertion
    open_doc(client, worker.as_uri(), worker.read_text(), 1)
    line = line_of(worker.read_text(), "assert(job > 0)")
    await wait_for(lambda: verdict(client, worker.as_uri(), "holds", 1), 60, "worker.c open, its verdict")
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(worker.as_uri()), lsp.Position(line, 10)))
    assert "assertion `job > 0` holds for all interleavings" in hover.contents.value
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(worker.as_uri())))
    assert any(lens.range.start.line == line and lens.command.title.startswith("holds") for lens in lenses)

    # main.c no longer starts the workers: worker.c's assertion is in no program main runs
    no_workers = main_text.replace("pthread_create(&a, 0, worker, 0);", "") \
        .replace("pthread_create(&b, 0, worker, 0);", "").replace("pthread_join(a, 0);", "") \
        .replace("pthread_join(b, 0);", "").replace("#include \"worker.h\"", "")
    replace_text(client, main.as_uri(), no_workers, 2)
    await wait_for(lambda: verdict(client, main.as_uri(), "violated", 2), 90, "main.c alone: total 0")
    gone = await wait_for(lambda: verdict(client, worker.as_uri(), "no-entry"), 60, "worker.c undecided")
    (why,) = codes(gone, "no-entry")
    assert "not reached by the linked program: no file of compile_commands.json with a main calls into worker.c" \
        in why.message
    for uri in (main.as_uri(), stats.as_uri(), worker.as_uri()):
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


async def test_statics_of_one_name_in_two_files_and_a_closed_file_cleared(client, tmp_path):
    root = copy(tmp_path, "statics")
    fast, slow, main = root / "fast.c", root / "slow.c", root / "main.c"
    text = fast.read_text()
    open_doc(client, fast.as_uri(), text, 1)
    await wait_for(lambda: verdict(client, fast.as_uri(), "holds"), 90, "fast.c's verdict")
    failing = await wait_for(lambda: verdict(client, main.as_uri(), "violated"), 60, "main.c's violation")
    (violation,) = codes(failing, "violated")
    steps = [r.message for r in violation.related_information]
    assert any(m.endswith("slow_run#1: write count = 4") for m in steps), steps
    assert not any("@" in m for m in steps)
    await wait_for(lambda: verdict(client, slow.as_uri(), "holds"), 60, "slow.c's verdict")
    # hover over the static: its own file's accesses
    line = line_of(text, "count += by;")
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(fast.as_uri()), lsp.Position(line, 5)))
    assert "global `count`" in hover.contents.value and "written by `fast_run`" in hover.contents.value
    assert "slow_run" not in hover.contents.value
    # closing the only open file of the program clears what it published elsewhere
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(fast.as_uri())))
    for uri in (main.as_uri(), slow.as_uri(), fast.as_uri()):
        await wait_for(lambda uri=uri: (p := client.latest(uri)) is not None and not p.diagnostics, 10,
                       f"{uri} cleared")


async def test_a_program_that_does_not_link_says_why_and_the_server_goes_on(client, tmp_path):
    root = copy(tmp_path, "duplicate")
    main = root / "main.c"
    open_doc(client, main.as_uri(), main.read_text(), 1)
    p = await wait_for(lambda: verdict(client, main.as_uri(), "check-failed"), 60, "the link error")
    (problem,) = codes(p, "check-failed")
    assert problem.message == (f"distaff: duplicate definition of `workers`: {root / 'config.c'}:4:5 "
                               f"and {root / 'defaults.c'}:4:5")
    # fix the duplicate in a buffer: the program links and is checked
    defaults = root / "defaults.c"
    open_doc(client, defaults.as_uri(), defaults.read_text(), 1)
    replace_text(client, defaults.as_uri(), "#include \"config.h\"\n", 2)
    done = await wait_for(lambda: verdict(client, main.as_uri(), "holds"), 90, "main.c's verdicts once it links")
    assert not codes(done, "check-failed")
    for uri in (main.as_uri(), defaults.as_uri()):
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
