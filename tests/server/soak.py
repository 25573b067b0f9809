"""A day of editing in minutes: the language server driven by a real client.

:func:`soak` starts ``python -m distaff.server`` over stdio and, from a seed,
opens several C files and applies random steps to them: edits as an editor
sends them (incremental ranges: insertions, deletions, pasted garbage with
non-ASCII text, half-typed statements, undo), saves, hovers, code lenses, code
actions, "Check from here" (some cancelled at once), setting changes, close
and reopen. After every step it checks what a user relies on:

* every request is answered (within ``REQUEST_TIMEOUT_S``);
* no diagnostics are published for an older version of a document than the
  latest one the server published for, nor for a version the client never
  sent;
* the server process is alive and logs no error.

At the end each document is undone back to its first text and checked; its
diagnostics must equal those of a fresh open of that text under another name.
Then every document is closed: the server must be left with at most its one
idle spare worker. Throughout, the memory of the server and its workers is
sampled (resident set sizes of the process tree), and the server's log says
how long each stopped check's worker took to exit after the stop (an edit,
a close or a cancel that made it unneeded).

``tests/server/test_soak.py`` runs a short soak; ``bench/lsp_soak.py`` a long
one that writes ``bench/results/soak.md``.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[2]
# quick checks, and one (szymanski) whose check runs to its timeout, so edits stop running checks
PROGRAMS = [ROOT / "examples" / "racy_counter.c", ROOT / "bench" / "table2" / "programs" / "szymanski.c",
            ROOT / "examples" / "deadlock.c", ROOT / "examples" / "reorder.c", ROOT / "tests" / "programs" / "prodcons.c"]
REQUEST_TIMEOUT_S = 30.0
BASE_SETTINGS = {"checkOn": "change", "debounceMs": 100, "timeout": 3, "unwind": 4, "maxMemoryMB": 2048}

HALF_TYPED = ["if (x", "for (int i = 0; i <", "assert(", "pthread_create(&t, 0, ", "while (1) {", "int y = ",
              "pthread_mutex_lock(&", "return", "x = x +", "struct s { int a;", "#include <", "/* ", "\"abc",
              "'", "{", "}", ");", "#define F(x) ((x) +", "__VERIFIER_nondet_int(", "goto "]
GARBAGE = ["\x00\x01\x02", "é😀€", "))))]]]}}}", "{{{{{{{{", "\\\n", "#if 0\n", "#endif\n", "??=", "\t\t\t",
           "0x7fffffffffffffffffff", "1e99999", "L\"wide\"", "'\\x'", "@$`", "\r\n", "int int int;"]
STEPS = {  # kind -> weight; undo often enough that the text is valid (and checked) much of the time
    "insert": 22, "delete": 18, "garbage": 8, "undo": 30, "undo_all": 6, "save": 6, "hover": 8, "lens": 5,
    "action": 4, "from_here": 3, "from_here_cancel": 3, "settings": 2, "reopen": 2, "wait": 2,
}
FINDING_CODES = ("data-race", "deadlock", "error")
STOP_LINE = re.compile(r"run \d+ stopped: its worker exited (\d+\.\d+) s after the stop")


@dataclass
class Doc:
    uri: str
    original: str
    text: str
    version: int = 1
    history: list = field(default_factory=list)
    open: bool = True


@dataclass
class SoakReport:
    steps: int = 0
    requests: dict = field(default_factory=dict)  # kind -> latencies (s)
    unanswered: list = field(default_factory=list)
    stale: list = field(default_factory=list)
    crashes: int = 0
    errors_logged: list = field(default_factory=list)
    peak_rss_mb: float = 0.0
    stop_latencies: list = field(default_factory=list)
    final_mismatches: list = field(default_factory=list)
    # findings in the same places but in other words (another run met another interleaving of the same race or
    # deadlock first): reported, not counted as a mismatch
    final_finding_words: list = field(default_factory=list)
    workers_left: int = 0
    publishes: int = 0
    shown: list = field(default_factory=list)  # the server's window/showMessage (type, text)
    seconds: float = 0.0

    def latency_table(self) -> list[tuple[str, int, float, float, float]]:
        """(kind, count, p50, p95, max) in seconds."""
        rows = []
        for kind, xs in sorted(self.requests.items()):
            xs = sorted(xs)
            rows.append((kind, len(xs), statistics.median(xs), xs[min(len(xs) - 1, int(0.95 * (len(xs) - 1) + 0.5))],
                         xs[-1]))
        return rows


class _Client(LanguageClient):
    def __init__(self):
        super().__init__("distaff-soak", "1")
        self.settings = dict(BASE_SETTINGS)
        self.stderr = bytearray()
        self.sent: dict[str, int] = {}  # uri -> the latest version sent
        self.published: dict[str, int] = {}  # uri -> the latest version published for
        self.latest: dict[str, lsp.PublishDiagnosticsParams] = {}
        self.stale: list = []
        # a close is answered by an unversioned empty publish: until then a
        # publish of the last version sent may still be on its way
        self.closing: set = set()
        self.closed: set = set()  # closed, and the server has answered the close
        self.publishes = 0
        self.shown: list = []  # window/showMessage: (type, message)

    async def drain_stderr(self):
        while self._server and (chunk := await self._server.stderr.read(65536)):
            self.stderr += chunk


def _client() -> _Client:
    client = _Client()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: lsp.PublishDiagnosticsParams):
        client.publishes += 1
        v = params.version
        if v is None and params.uri in client.closing:
            client.closing.discard(params.uri)
            client.closed.add(params.uri)
        if v is not None:
            last = client.published.get(params.uri, 0)
            # older than one published, never sent, or after the server took the close
            if v < last or v > client.sent.get(params.uri, 0) or params.uri in client.closed:
                client.stale.append((params.uri, v, last, client.sent.get(params.uri)))
            client.published[params.uri] = max(v, last)
        client.latest[params.uri] = params

    @client.feature(lsp.WORKSPACE_CONFIGURATION)
    def configuration(params):
        return [dict(client.settings)]

    @client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def create(params):
        return None

    @client.feature(lsp.PROGRESS)
    def progress(params):
        pass

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def log(params):
        pass

    @client.feature(lsp.WINDOW_SHOW_MESSAGE)
    def show(params: lsp.ShowMessageParams):
        client.shown.append((params.type, params.message))

    @client.feature(lsp.WORKSPACE_CODE_LENS_REFRESH)
    def refresh(params):
        return None

    return client


# --------------------------------------------------------------------------
# positions


def _position(text: str, offset: int) -> lsp.Position:
    """The LSP position (UTF-16 columns) of a character offset."""
    before = text[:offset]
    line = before.count("\n")
    start = before.rfind("\n") + 1
    return lsp.Position(line, len(before[start:].encode("utf-16-le")) // 2)


def _tree_pids(root: int) -> list[int]:
    """``root`` and its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(d))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


# --------------------------------------------------------------------------
# the soak


async def soak(steps: int, seed: int = 0, docs: int = 4) -> SoakReport:
    rng = random.Random(seed)
    report = SoakReport()
    client = _client()
    await client.start_io(sys.executable, "-m", "distaff.server", "--log-level", "INFO", cwd=str(ROOT))
    drain = asyncio.ensure_future(client.drain_stderr())
    server_pid = client._server.pid
    caps = lsp.ClientCapabilities(
        window=lsp.WindowClientCapabilities(work_done_progress=True),
        workspace=lsp.WorkspaceClientCapabilities(
            configuration=True, code_lens=lsp.CodeLensWorkspaceClientCapabilities(refresh_support=True)),
        text_document=lsp.TextDocumentClientCapabilities(
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(related_information=True,
                                                                         version_support=True)),
    )
    t_start = time.monotonic()
    await client.initialize_async(lsp.InitializeParams(capabilities=caps, process_id=os.getpid()))
    client.initialized(lsp.InitializedParams())

    async def request(kind: str, coro):
        t0 = time.monotonic()
        try:
            result = await asyncio.wait_for(coro, REQUEST_TIMEOUT_S)
        except asyncio.TimeoutError:
            report.unanswered.append(kind)
            return None
        except Exception as e:  # an error response is an answer; a cancelled request answers with one
            result = e
        report.requests.setdefault(kind, []).append(time.monotonic() - t0)
        return result

    def send_open(doc: Doc) -> None:
        client.sent[doc.uri] = doc.version
        client.published.pop(doc.uri, None)
        client.closing.discard(doc.uri)
        client.closed.discard(doc.uri)
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(doc.uri, "c", doc.version, doc.text)))

    def send_edit(doc: Doc, start: int, end: int, new: str) -> None:
        doc.history.append(doc.text)
        rng_ = lsp.Range(_position(doc.text, start), _position(doc.text, end))
        doc.text = doc.text[:start] + new + doc.text[end:]
        doc.version += 1
        client.sent[doc.uri] = doc.version
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=doc.version, uri=doc.uri),
            [lsp.TextDocumentContentChangePartial(range=rng_, text=new)]))

    def send_whole(doc: Doc, text: str) -> None:
        doc.text = text
        doc.version += 1
        client.sent[doc.uri] = doc.version
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=doc.version, uri=doc.uri),
            [lsp.TextDocumentContentChangeWholeDocument(text)]))

    def ident(doc: Doc) -> lsp.TextDocumentIdentifier:
        return lsp.TextDocumentIdentifier(doc.uri)

    opened: list[Doc] = []
    for k in range(docs):
        path = PROGRAMS[k % len(PROGRAMS)]
        text = path.read_text()
        doc = Doc(f"file:///soak/{k}_{path.name}", text, text)
        send_open(doc)
        opened.append(doc)

    kinds, weights = zip(*STEPS.items())
    for step in range(steps):
        report.steps += 1
        doc = rng.choice(opened)
        kind = rng.choices(kinds, weights)[0]
        n = len(doc.text)
        if not doc.open and kind != "reopen":
            kind = "reopen"
        if kind == "insert":
            at = rng.randint(0, n)
            snippet = rng.choice(HALF_TYPED) if rng.random() < 0.7 else rng.choice(doc.original.splitlines() or [""])
            send_edit(doc, at, at, snippet + ("\n" if rng.random() < 0.3 else ""))
        elif kind == "delete" and n:
            a = rng.randint(0, n - 1)
            send_edit(doc, a, min(n, a + rng.randint(1, 40)), "")
        elif kind == "garbage":
            at = rng.randint(0, n)
            send_edit(doc, at, at, "".join(rng.choice(GARBAGE) for _ in range(rng.randint(1, 4))))
        elif kind == "undo" and doc.history:
            send_whole(doc, doc.history.pop())
        elif kind == "undo_all":
            doc.history.clear()
            send_whole(doc, doc.original)
        elif kind == "save":
            client.text_document_did_save(lsp.DidSaveTextDocumentParams(ident(doc)))
        elif kind == "hover":
            pos = _position(doc.text, rng.randint(0, n))
            await request("hover", client.text_document_hover_async(lsp.HoverParams(ident(doc), pos)))
        elif kind == "lens":
            await request("codeLens", client.text_document_code_lens_async(lsp.CodeLensParams(ident(doc))))
        elif kind == "action":
            pos = _position(doc.text, rng.randint(0, n))
            await request("codeAction", client.text_document_code_action_async(lsp.CodeActionParams(
                ident(doc), lsp.Range(pos, pos), lsp.CodeActionContext(diagnostics=[]))))
        elif kind in ("from_here", "from_here_cancel"):
            pos = _position(doc.text, rng.randint(0, n))
            args = [{"uri": doc.uri, "line": pos.line, "character": pos.character}]
            params = lsp.ExecuteCommandParams("distaff.checkFromHere", args)
            if kind == "from_here":
                await request("checkFromHere", client.workspace_execute_command_async(params))
            else:
                msg_id = f"soak-{step}"
                fut = client.protocol.send_request(lsp.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)
                await asyncio.sleep(rng.uniform(0, 0.3))
                client.protocol.notify("$/cancelRequest", lsp.CancelParams(id=msg_id))
                await request("checkFromHere (cancelled)", asyncio.wrap_future(fut))
        elif kind == "settings":
            client.settings = {**BASE_SETTINGS, "timeout": rng.choice([1, 2, 3, 5]), "unwind": rng.choice([2, 4, 8]),
                               "checkOn": rng.choice(["change", "save"]), "races": rng.random() < 0.3}
            client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams({"distaff": client.settings}))
        elif kind == "reopen":
            if doc.open:
                client.text_document_did_close(lsp.DidCloseTextDocumentParams(ident(doc)))
                doc.open = False
                client.closing.add(doc.uri)
            else:
                doc.version += 1
                doc.open = True
                send_open(doc)
        elif kind == "wait":
            await asyncio.sleep(rng.uniform(0.2, 1.5))
        await asyncio.sleep(rng.uniform(0, 0.05))  # typing speed
        if client._server.returncode is not None:
            report.crashes += 1
            break
        if step % 5 == 0:
            report.peak_rss_mb = max(report.peak_rss_mb, _rss_mb(_tree_pids(server_pid)))

    # the end of the day: every document back to its first text, checked, compared with a fresh open
    client.settings = dict(BASE_SETTINGS, checkOn="save", timeout=30, unwind=2)  # every check decided
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams({"distaff": client.settings}))
    for k, doc in enumerate(opened):
        if not doc.open:
            doc.version += 1
            doc.open = True
            send_open(doc)
        send_whole(doc, doc.original)
        fresh = Doc(f"file:///soak/fresh_{k}.c", doc.original, doc.original)
        send_open(fresh)
        for d in (doc, fresh):
            await request("checkFile", client.workspace_execute_command_async(
                lsp.ExecuteCommandParams("distaff.checkFile", [{"uri": d.uri}])))
        await asyncio.sleep(0.5)  # the publish after the run's end

        def shown(d: Doc, words: bool):
            """The diagnostics of ``d``'s latest version: verdicts whole; findings
            (races, deadlocks, run-time errors) by place and kind, and with their
            words when ``words``."""
            p = client.latest.get(d.uri)
            if p is None or p.version != d.version:
                return ("no diagnostics for the latest version", p.version if p else None)
            return sorted({(x.range.start.line, x.range.start.character, x.severity, x.code,
                            x.message if words or x.code not in FINDING_CODES else "") for x in p.diagnostics})
        if shown(doc, False) != shown(fresh, False):
            report.final_mismatches.append((doc.uri, shown(doc, False), shown(fresh, False)))
        elif shown(doc, True) != shown(fresh, True):
            report.final_finding_words.append((doc.uri, shown(doc, True), shown(fresh, True)))
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(ident(fresh)))
        report.peak_rss_mb = max(report.peak_rss_mb, _rss_mb(_tree_pids(server_pid)))
    for doc in opened:
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(ident(doc)))
    await asyncio.sleep(2.0)
    report.workers_left = len(_tree_pids(server_pid)) - 1  # the spare worker may stay
    report.seconds = time.monotonic() - t_start

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    drain.cancel()
    log = client.stderr.decode(errors="replace")
    report.stop_latencies = [float(m.group(1)) for m in STOP_LINE.finditer(log)]
    report.errors_logged = [line for line in log.splitlines() if " ERROR " in line or "Traceback" in line]
    report.stale = client.stale
    report.publishes = client.publishes
    report.shown = client.shown
    if client._server.returncode not in (0, None):
        report.crashes += 1
    return report
