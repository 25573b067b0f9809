"""The predicate summaries the hover shows on the bundled examples, end to
end over stdio with the real server (mode dpor-ag): simplified for reading,
the same text as the JSON's ``expr``, never the learned form it keeps as
``raw``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from distaff.server import cli
from tests.server.lspclient import SERVER, RecordingClient, capabilities, distaff, open_doc, recording_client, wait_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# example -> {1-based line: the summary its hover shows}, "1" for true.
# Simplified from the form as learned (in the JSON's raw), e.g. reorder.c:
# `int after = level;` learns (before <= level) || ((before <= 20) && (before
# <= level)) || ...: every later disjunct implies the first. The `if` learns
# (level > 10) || ((level <= 10) && (level <= 20)), which always holds.
SHOWN = {
    "reorder.c": {24: "1", 30: "before <= level", 38: "1", 40: "level <= 10", 41: "level <= 10"},
    # the consumer's wait returns at the schedule's choice (free waits): its
    # lock learns that it either waits (full == 0) or finds the slot filled;
    # the wait itself, whose first round through the loop is one the thread
    # awaits in, learns true. At line 27 the summary is left as learned: its
    # `nondet`s print alike but are not one term, so `nondet <= 0 || nondet > 0`
    # does not fold to true (it did when waits waited for a signal; to be mended)
    "producer_consumer.c": {
        27: "1", 32: "(full != 0) && (slot > 0)", 38: "(slot > 0) || (full == 0)", 40: "1",
    },
    "locked_counter.c": {30: "1", 31: "hits == 2", 32: "hits == 2"},
    "deadlock.c": {46: "1", 47: "transfers == 2", 48: "transfers == 2", 49: "1"},
    "racy_counter.c": {28: "hits == 2", 29: "hits == 2"},
}

SUMMARY = re.compile(r"Predicate summary for `(?P<assertion>.+?)` \(pruned \d+ runs?\)"
                     r"(?::\n```c\n(?P<expr>.*?)\n```|: true, no explored run through here violates it)")

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {"checkOn": "save", "timeout": 60, "mode": "dpor-ag"}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


def shown(hover: lsp.Hover | None) -> list[tuple[str, str]]:
    """(assertion, summary) of each predicate summary in a hover, "1" for true."""
    if hover is None:
        return []
    return [(m["assertion"], m["expr"] or "1") for m in SUMMARY.finditer(hover.contents.value)]


async def hover_at(client, uri: str, line: int, col: int) -> list[tuple[str, str]]:
    return shown(await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line, col))))


def json_report(path: Path, capsys) -> dict:
    capsys.readouterr()
    cli.main(["check", "--format", "json", "--summaries", "--mode", "dpor-ag", "--workers", "1", str(path)])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", sorted(SHOWN))
async def test_hover_shows_the_simplified_summaries_of_an_example(client, capsys, name):
    path = EXAMPLES / name
    text = path.read_text()
    uri = f"file:///tmp/hover_summaries_{name}"
    open_doc(client, uri, text, 1)
    await wait_for(lambda: (p := client.latest(uri)) and distaff(p.diagnostics, code="holds")
                   + distaff(p.diagnostics, code="violated"), 60, "the verdict")
    # every statement, hovered where it starts
    by_line = {}
    for n, row in enumerate(text.splitlines()):
        if row.strip():
            if found := await hover_at(client, uri, n, len(row) - len(row.lstrip())):
                by_line[n + 1] = found
    assert {line: [expr for _, expr in by_line.get(line, [])] for line in SHOWN[name]} == \
        {line: [expr] for line, expr in SHOWN[name].items()}

    # each summary the JSON reports, hovered at its statement: the simplified
    # text, and not the learned form where that differs
    (assertion,) = json_report(path, capsys)["files"][0]["assertions"]
    assert assertion["summaries"]
    assert {expr for found in by_line.values() for _, expr in found} <= {s["expr"] for s in assertion["summaries"]}
    for s in assertion["summaries"]:
        found = await hover_at(client, uri, s["line"] - 1, s["column"] - 1)
        exprs = [expr for a, expr in found if a == assertion["text"]]
        assert s["expr"] in exprs, (s, found)
        if "raw" in s:
            assert s["raw"] != s["expr"] and s["raw"] not in exprs


async def test_an_example_reads_shorter_simplified(capsys):
    """reorder.c is the example whose summaries simplification changes."""
    (assertion,) = json_report(EXAMPLES / "reorder.c", capsys)["files"][0]["assertions"]
    changed = {s["line"]: (s["expr"], s["raw"]) for s in assertion["summaries"] if "raw" in s}
    assert changed[30] == ("before <= level", "(before <= level) || ((before <= 20) && (before <= level)) || "
                                              "((before <= 20) && (before <= 10) && (before <= level))")
    assert changed[38] == ("1", "(level > 10) || ((level <= 10) && (level <= 20))")
    assert changed[40] == ("level <= 10", "(level <= 20) && (level <= 10)")
