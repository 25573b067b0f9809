"""End to end over stdio with the real server, front end and engine
(``python -m distaff.server``): verdicts as diagnostics with their traces, hover,
"Check from here", and an edit cancelling a long check."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path
import time

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

from tests.server.lspclient import (
    SERVER, RecordingClient, capabilities, distaff, line_of, open_doc, recording_client, replace_text,
    wait_for,
)

# One assertion fails when the writer runs before main reads x and the input
# is not positive; the other holds on every interleaving.
FAIL_AND_HOLD = """#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int x;
int y;

void *writer(void *arg) {
    x = 1;
    y = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    int n = __VERIFIER_nondet_int();
    pthread_create(&t, 0, writer, 0);
    int seen = x;
    assert(seen == 0 || n > 0);
    pthread_join(t, 0);
    assert(y == 1);
    return 0;
}
"""

# Three threads racing on a counter: far too many interleavings to finish.
LONG = """#include <pthread.h>
#include <assert.h>

int c;

void *inc(void *arg) {
    for (int i = 0; i < 4; i++) {
        int t = c;
        c = t + 1;
    }
    return 0;
}

int main(void) {
    pthread_t a, b, d;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_create(&d, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(d, 0);
    assert(c <= 12);
    return 0;
}
"""

# Lock-order inversion: each thread holds one mutex and waits for the other.
DEADLOCK = """#include <pthread.h>
#include <assert.h>

pthread_mutex_t a, b;
int shared;

void *one(void *arg) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    shared = 1;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return 0;
}

void *two(void *arg) {
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    shared = 2;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, one, 0);
    pthread_create(&t2, 0, two, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(shared != 0);
    return 0;
}
"""

# The assertion-guided paper's Figure 2 kind of program: two writes, two
# reads, one symbolic input; the reads never see the writes out of order.
REORDER = """#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int g;

void *store_twice(void *arg) {
    g = 5;
    g = 15;
    return 0;
}

void *load_twice(void *arg) {
    int first, second;
    first = g;
    second = g;
    assert(first <= second);
    return 0;
}

int main(void) {
    pthread_t w, r;
    g = __VERIFIER_nondet_int();
    if (g > 5)
        return 0;
    pthread_create(&w, 0, store_twice, 0);
    pthread_create(&r, 0, load_twice, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
"""

FAIL_LINE = line_of(FAIL_AND_HOLD, "assert(seen == 0")
HOLD_LINE = line_of(FAIL_AND_HOLD, "assert(y == 1)")

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: RecordingClient):
    lsp_client.set_configuration({"distaff": {"checkOn": "save", "timeout": 60, "mode": "dpor-ag"}})
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=True)))
    yield
    await lsp_client.shutdown_session()


def verdicts(params):
    return [d for d in distaff(params.diagnostics) if d.code in ("violated", "holds")]


async def open_and_check(client, uri, text):
    open_doc(client, uri, text, 1)
    return await wait_for(lambda: (p := client.latest(uri)) and len(verdicts(p)) == 2 and p, 60, "both verdicts")


async def test_failing_and_holding_assertions_with_their_trace(client):
    uri = "file:///tmp/e2e_fail_hold.c"
    final = await open_and_check(client, uri, FAIL_AND_HOLD)
    assert final.version == 1
    fail = next(d for d in final.diagnostics if d.range.start.line == FAIL_LINE)
    hold = next(d for d in final.diagnostics if d.range.start.line == HOLD_LINE)
    assert fail.severity == lsp.DiagnosticSeverity.Error and fail.code == "violated"
    assert fail.message.startswith("assertion `seen == 0 || n > 0` can fail with ")
    the_input = fail.related_information[0]  # the failing input, where it is read
    assert the_input.message.startswith("input nondet_int = ")
    assert the_input.location.range.start.line == line_of(FAIL_AND_HOLD, "nondet_int()")
    steps = [r.message for r in fail.related_information]
    assert any(m.endswith("write x = 1") and "writer" in m for m in steps)
    assert any(m.endswith("read x == 1") and "main" in m for m in steps)
    write_step = next(r for r in fail.related_information if r.message.endswith("write x = 1"))
    assert write_step.location.range.start.line == line_of(FAIL_AND_HOLD, "x = 1;")
    assert "\n" not in fail.message  # the steps are related information, not text
    assert hold.severity == lsp.DiagnosticSeverity.Information and hold.code == "holds"
    assert hold.message.startswith("assertion `y == 1` holds for all interleavings under sequential consistency: ")

    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    titles = {lens.range.start.line: lens.command.title for lens in lenses}
    assert titles[FAIL_LINE] == "fails"
    assert titles[HOLD_LINE].startswith("holds under SC · ")
    assert titles[line_of(FAIL_AND_HOLD, "void *writer")] == "Check from here"

    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(HOLD_LINE, 6)))
    assert "holds for all interleavings" in hover.contents.value and "runs (" in hover.contents.value
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line_of(FAIL_AND_HOLD, "int seen = x;"), 15)))
    assert "global `x`" in hover.contents.value
    assert "read by `main`; written by `writer`" in hover.contents.value


async def test_hover_shows_the_predicate_summaries_of_a_statement(client):
    uri = "file:///tmp/e2e_summaries.c"
    open_doc(client, uri, REORDER, 1)
    final = await wait_for(lambda: (p := client.latest(uri)) and verdicts(p) and p, 60, "the verdict")
    holds = verdicts(final)[0]
    assert holds.code == "holds" and "pruned" in holds.message  # mode dpor-ag pruned runs
    lines = REORDER.splitlines()
    summaries = {}
    for n, text in enumerate(lines):
        if not text.strip():
            continue
        hover = await client.text_document_hover_async(lsp.HoverParams(
            lsp.TextDocumentIdentifier(uri), lsp.Position(n, len(text) - len(text.lstrip()))))
        if hover is not None and "Predicate summary for `first <= second`" in hover.contents.value:
            summaries[n] = hover.contents.value
    assert summaries, "some statement shows a summary"
    # a summary over program variables, printed as C in a code block, with the runs it pruned
    shown = [v for v in summaries.values() if "```c\n" in v]
    assert shown and all(re.search(r"\(pruned \d+ runs?\)", v) for v in summaries.values())
    assert any(re.search(r"```c\n.*\b(first|g)\b.*\n```", v) for v in shown)
    assert sum(int(m) for v in summaries.values() for m in re.findall(r"pruned (\d+) run", v)) > 0


BOUNDED_AND_UNREACHED = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int count(int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s++;
    return s;
}
int main(void) {
    int n = __VERIFIER_nondet_int();
    int s = count(n);
    assert(s >= 0);
    __VERIFIER_assume(n == 20);
    assert(s == 20);
    return 0;
}
"""


async def test_a_bounded_answer_is_a_warning_that_says_it_is_not_a_proof(client):
    # the loop's trip count is an input: the bound stops it, so the first
    # assertion has no violation within the bound (runs with a short count
    # check it) and the second, past an assumption of 20 rounds, is never
    # reached within the bound: neither is shown like a proof
    uri = "file:///tmp/e2e_bounded.c"
    open_doc(client, uri, BOUNDED_AND_UNREACHED, 1)
    final = await wait_for(lambda: (p := client.latest(uri)) and len(
        [d for d in distaff(p.diagnostics) if d.code in ("bounded", "bound-reached", "holds")]) == 2
        and p, 60, "both verdicts")
    by_line = {d.range.start.line: d for d in distaff(final.diagnostics)}
    first = by_line[line_of(BOUNDED_AND_UNREACHED, "assert(s >= 0)")]
    assert first.code == "bounded" and first.severity == lsp.DiagnosticSeverity.Warning
    assert first.message.startswith("assertion `s >= 0` has no violation within unwind 8, not a proof (unwind 8 "
                                    "stopped count's loop at line 6; checked on ")
    second = by_line[line_of(BOUNDED_AND_UNREACHED, "assert(s == 20)")]
    assert second.code == "bound-reached" and second.severity == lsp.DiagnosticSeverity.Warning
    assert "not reached within the bound" in second.message and "holds" not in first.message + second.message
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    titles = {lens.range.start.line: lens.command.title for lens in lenses}
    assert titles[first.range.start.line].startswith("no violation within unwind 8 · ")
    assert titles[second.range.start.line] == "undecided: not reached within the bound"


async def test_deadlock_is_a_warning_with_its_schedule(client):
    uri = "file:///tmp/e2e_deadlock.c"
    open_doc(client, uri, DEADLOCK, 1)
    final = await wait_for(lambda: (p := client.latest(uri)) and distaff(p.diagnostics, code="deadlock")
                           and verdicts(p) and p, 60, "the deadlock and the verdict")
    deadlock = distaff(final.diagnostics, code="deadlock")[0]
    assert deadlock.severity == lsp.DiagnosticSeverity.Warning
    assert deadlock.message.startswith("deadlock: ") and "waits for" in deadlock.message
    steps = [r.message for r in deadlock.related_information]
    assert any("one#1: lock a" in m for m in steps) and any("two#1: lock b" in m for m in steps)
    # the assertion holds on every run that reaches it (deadlocked runs do not)
    assert verdicts(final)[0].code == "holds"


async def test_check_from_here_publishes_context_results_apart_and_clears(client):
    uri = "file:///tmp/e2e_context.c"
    await open_and_check(client, uri, FAIL_AND_HOLD)
    line = line_of(FAIL_AND_HOLD, "int seen = x;")
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(line, 4), lsp.Position(line, 4)),
        lsp.CodeActionContext(diagnostics=[])))
    titles = [a.title for a in actions]
    assert titles[:2] == ["Check from here", "Pin this thread here"]
    command = actions[0]
    summary = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command.command, command.arguments))
    assert summary["outcome"] == "done"
    latest = client.latest(uri)
    context = distaff(latest.diagnostics, "distaff (context)")
    assert context, "context results are published"
    # which ingredients the initial state had, in the engine's words; all of them: not approximate
    full = (f"from line {line + 1}, context (reaching definitions, synchronization invariants; "
            "invariants for any number of threads): ")
    assert all(d.message.startswith(full) for d in context), [d.message for d in context]
    # main starts at its read of x while the writer may run: the first assertion still fails
    assert any(d.code == "violated" and d.range.start.line == FAIL_LINE for d in context)
    assert any(d.code == "holds" and d.range.start.line == HOLD_LINE for d in context)
    assert len(verdicts(latest)) == 2  # the whole-program results stay

    # pin the writer at its second store, then check from main's read again
    pin_line = line_of(FAIL_AND_HOLD, "y = 1;")
    pinned = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        "distaff.pinThread", [{"uri": uri, "line": pin_line, "character": 4}]))
    assert pinned["pins"] == [[pin_line + 1, 5]]
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert any(lens.command.title.startswith("thread pinned here") and lens.range.start.line == pin_line
               for lens in lenses)
    summary = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command.command, command.arguments))
    assert summary["outcome"] == "done"
    context = distaff(client.latest(uri).diagnostics, "distaff (context)")
    assert context and all(d.message.startswith(f"from line {line + 1} with 1 pinned thread, context (")
                           for d in context)

    await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams("distaff.clearContext", [{"uri": uri}]))
    latest = client.latest(uri)
    assert not distaff(latest.diagnostics, "distaff (context)") and len(verdicts(latest)) == 2
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert not any(lens.command.title.startswith("thread pinned here") for lens in lenses)


async def test_check_from_here_labels_what_depends_on_values_the_context_does_not_know(client):
    # three workers from a loop, adding without a lock: one the context does
    # not place may have added to the counters; a check from main finds the
    # assertion fails from main too, and the warning says both
    uri = "file:///tmp/e2e_context_unknown.c"
    text = (Path(__file__).resolve().parent.parent / "programs" / "context_sureness" / "racy_counts.c").read_text()
    open_doc(client, uri, text, 1)
    await wait_for(lambda: (p := client.latest(uri)) and verdicts(p) and p, 60, "the whole-program verdict")
    line = line_of(text, "int c = count;")
    summary = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        "distaff.checkFromHere", [{"uri": uri, "line": line, "character": 2}]))
    assert summary["outcome"] == "done"
    context = distaff(client.latest(uri).diagnostics, "distaff (context)")
    failing = [d for d in context if d.code == "violated"]
    assert failing, [d.message for d in context]
    assert all(d.severity == lsp.DiagnosticSeverity.Warning for d in failing)
    assert all("possible from this context" in d.message and "`count`" in d.message
               and "a run from main violates it too" in d.message for d in failing)


async def test_an_edit_during_a_long_check_cancels_it_and_no_stale_result_follows(client):
    uri = "file:///tmp/e2e_long.c"
    tokens = set(client.progress_reports)
    open_doc(client, uri, LONG, 1)
    token = await wait_for(lambda: next((t for t in client.progress_reports if t not in tokens), None),
                           20, "the long check to start")
    await asyncio.sleep(1.0)  # deep in exploration
    n_before = len(client.published)
    t_edit = time.monotonic()
    replace_text(client, uri, LONG.replace("c <= 12", "c <= 11"), 2)
    await wait_for(lambda: any(isinstance(v, lsp.WorkDoneProgressEnd) for v in client.progress_reports[token]),
                   2, "the long check to end")
    assert time.monotonic() - t_edit < 1.0
    assert client.progress_reports[token][-1].message == "cancelled"
    await asyncio.sleep(1.0)
    after = [p for p in client.published[n_before:] if p.uri == uri]
    assert after and all(p.version == 2 for p in after)
    assert not any(verdicts(p) or distaff(p.diagnostics, code="cancelled") for p in client.published if p.uri == uri)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    await wait_for(lambda: (p := client.latest(uri)).version is None and not p.diagnostics, 5, "close to clear")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def plain_client(lsp_client: RecordingClient):
    """A client that does not declare relatedInformation (Neovim's float and
    many others show only the message)."""
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities(related=False)))
    yield
    await lsp_client.shutdown_session()


async def test_trace_is_folded_into_the_message_without_related_information(plain_client):
    uri = "file:///tmp/e2e_folded.c"
    final = await open_and_check(plain_client, uri, FAIL_AND_HOLD)
    fail = next(d for d in final.diagnostics if d.range.start.line == FAIL_LINE)
    assert fail.related_information is None
    first, *rest = fail.message.splitlines()
    assert first.startswith("assertion `seen == 0 || n > 0` can fail with ")
    assert rest[0] == "Schedule:"
    assert rest[1].startswith("input nondet_int = ") and rest[1].endswith(f"(line {line_of(FAIL_AND_HOLD, 'nondet_int()') + 1})")
    steps = rest[2:]
    assert [s.split(".", 1)[0] for s in steps] == [str(n) for n in range(1, len(steps) + 1)]
    assert any(s.endswith(f"writer#1 (line {line_of(FAIL_AND_HOLD, 'x = 1;') + 1}): write x = 1") for s in steps)


PROJECT = Path(__file__).resolve().parents[1] / "programs" / "project"


async def test_a_project_file_gets_its_flags_from_compile_commands_json(client, tmp_path):
    # the project's headers are under include/ and WORKERS comes from -D,
    # both only in compile_commands.json: without it the file does not
    # even preprocess
    shutil.copytree(PROJECT, tmp_path / "project")
    path = tmp_path / "project" / "src" / "pool.c"
    uri = path.as_uri()
    open_doc(client, uri, path.read_text(), 1)
    final = await wait_for(lambda: (p := client.latest(uri)) and verdicts(p) and p, 60, "a verdict")
    [verdict] = verdicts(final)
    assert verdict.code == "holds", verdict.message
    assert not [d for d in distaff(final.diagnostics) if d.code == "unsupported"]
    said = [m.message for m in client.log_messages if "build flags from" in m.message]
    assert any(str(tmp_path / "project" / "compile_commands.json") in m and "entry 1" in m for m in said), said


async def test_write_a_reproducer_from_a_violation(client, tmp_path):
    """The code action on a violated assertion writes the reproducer beside
    the file (.distaff/); built and run, it fails at that assertion. It needs
    the file saved: the reproducer includes it."""
    src = tmp_path / "fail_hold.c"
    src.write_text(FAIL_AND_HOLD)
    uri = src.as_uri()
    await open_and_check(client, uri, FAIL_AND_HOLD)

    async def titles_at(line):
        actions = await client.text_document_code_action_async(lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(line, 4), lsp.Position(line, 4)),
            lsp.CodeActionContext(diagnostics=[])))
        return actions

    assert "Write a reproducer" not in [a.title for a in await titles_at(HOLD_LINE)]
    (action,) = [a for a in await titles_at(FAIL_LINE) if a.title == "Write a reproducer"]
    done = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(action.command, action.arguments))
    written = Path(done["path"])
    assert written.parent == tmp_path / ".distaff" and written.is_file()
    assert any(m.message.startswith(f"Wrote {written}") for m in client.messages)
    assert written.as_uri() in [d.uri for d in client.shown_documents]  # opened beside the program
    if shutil.which("cc") or os.environ.get("CI"):
        built = subprocess.run(done["build"], shell=True, capture_output=True, text=True, timeout=120)
        assert built.returncode == 0, built.stderr[-2000:]
        run = subprocess.run([done["run"]], capture_output=True, text=True, timeout=60)
        assert run.returncode == -signal.SIGABRT and f"fail_hold.c:{FAIL_LINE + 1}:" in run.stderr, run.stderr

    src.write_text(FAIL_AND_HOLD + "\n/* edited elsewhere */\n")
    refused = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(action.command, action.arguments))
    assert "save the file first" in refused["error"]
