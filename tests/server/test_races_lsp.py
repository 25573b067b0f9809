"""End to end over stdio: with ``distaff.races`` set, a data race is a
warning at its second access whose related information holds the schedule
with both racing steps; without it, the same program shows no race."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from tests.server.lspclient import (
    SERVER, RecordingClient, capabilities, distaff, line_of, open_doc, recording_client, wait_for,
)

# The assertion holds; main's read of `shared` races with the child's write.
RACY = """#include <pthread.h>
#include <assert.h>

int shared;

void *child(void *arg) {
    shared = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, child, 0);
    int seen = shared;
    pthread_join(t, 0);
    assert(seen == 0 || seen == 1);
    return 0;
}
"""

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {"checkOn": "save", "timeout": 60, "races": True}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


def holds(params):
    return [d for d in distaff(params.diagnostics) if d.code == "holds"]


async def test_a_race_is_a_warning_at_the_second_access_with_both_steps_related(client):
    uri = "file:///tmp/e2e_race.c"
    open_doc(client, uri, RACY, 1)
    final = await wait_for(lambda: (p := client.latest(uri)) and holds(p) and distaff(p.diagnostics, code="data-race")
                           and p, 60, "the verdict and the race")
    (race,) = distaff(final.diagnostics, code="data-race")
    assert race.severity == lsp.DiagnosticSeverity.Warning
    assert race.message == ("data race on `shared`: write at line 7 (thread child#1) "
                            "and read at line 14 (thread main)")
    assert race.range.start.line == line_of(RACY, "int seen = shared;")
    marked = [r for r in race.related_information if r.message.endswith("[data race]")]
    assert [r.location.range.start.line for r in marked] == [line_of(RACY, "shared = 1;"), race.range.start.line]


async def test_switching_races_off_removes_the_warning(client):
    uri = "file:///tmp/e2e_race_off.c"
    client.set_configuration({"distaff": {"checkOn": "save", "timeout": 60, "races": False}})
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await asyncio.sleep(0.3)  # the server pulls the new settings
    open_doc(client, uri, RACY, 1)
    # a check's findings are published before its verdicts, so a verdict without the race
    # means the check did not look for races
    final = await wait_for(lambda: (p := client.latest(uri)) and holds(p)
                           and not distaff(p.diagnostics, code="data-race") and p, 60, "the verdict without race")
    assert final.version == 1


async def test_turning_races_on_checks_the_open_documents_again(client):
    # new settings that change what a check computes apply to the documents
    # already open, without an edit or a save (a client's settings may also
    # arrive just after the first check of a document began)
    uri = "file:///tmp/e2e_race_again.c"
    client.set_configuration({"distaff": {"checkOn": "save", "timeout": 60, "races": False}})
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await asyncio.sleep(0.3)
    open_doc(client, uri, RACY, 1)
    await wait_for(lambda: (p := client.latest(uri)) and holds(p) and not distaff(p.diagnostics, code="data-race"),
                   60, "the verdict without race")
    client.set_configuration({"distaff": {"checkOn": "save", "timeout": 60, "races": True}})
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    final = await wait_for(lambda: (p := client.latest(uri)) and holds(p) and distaff(p.diagnostics, code="data-race")
                           and p, 60, "the race after the settings changed")
    assert final.version == 1
