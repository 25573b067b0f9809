"""Latency of the language server while a long check runs (not a test).

Starts ``python -m distaff.server`` over stdio as an editor would, opens a program
whose check takes minutes, and while it runs measures:

* time from ``didOpen`` of a 1,000-line file with a syntax error to the first
  diagnostic naming it (target: under 200 ms);
* hover latency, p50 and p95 over many requests (target: p95 under 100 ms);
* time from ``didOpen`` of a reorder program in the manner of the
  assertion-guided paper's Figure 2 to its first verdict.

Writes ``bench/results/lsp.md``. Usage:
``python bench/lsp_bench.py [--hovers N] [--program FILE.c ...]``; each
``--program`` is opened too and its time to first verdict reported (e.g.
``../shared/examples/fig2_reorder.c``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent

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

# Two writes in one thread, two reads in another, one symbolic input: the
# reads can never see the writes out of order.
REORDER = """#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int g;

void *store_twice(void *arg) {
    g = LOW;
    g = HIGH;
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
    if (g > LOW)
        return 0;
    pthread_create(&w, 0, store_twice, 0);
    pthread_create(&r, 0, load_twice, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
"""


def thousand_lines(seed: int) -> str:
    """A 1,000-line C file with one syntax error near its end."""
    lines = ["int total;"]
    i = 0
    while len(lines) < 990:
        lines += [f"int f{seed}_{i}(int a) {{", f"    int b = a * {i + seed};", "    if (b > 3)",
                  "        total = total + b;", "    return b;", "}"]
        i += 1
    lines += ["int main(void) {", "    int s = f0_0(1)", "    return s;", "}"]  # missing ';'
    while len(lines) < 1000:
        lines.append("")
    return "\n".join(lines[:1000]) + "\n"


class Client(LanguageClient):
    def __init__(self):
        super().__init__("distaff-bench", "1")
        self.published: list[tuple[float, lsp.PublishDiagnosticsParams]] = []
        self.progress_begun: set = set()
        self.stderr = bytearray()

    async def drain_stderr(self):
        """Read the server's stderr as an editor does; a full pipe would block it."""
        while self._server and (chunk := await self._server.stderr.read(65536)):
            self.stderr += chunk


def make_client() -> Client:
    client = Client()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: lsp.PublishDiagnosticsParams):
        client.published.append((time.perf_counter(), params))

    @client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def create(params):
        return None

    @client.feature(lsp.PROGRESS)
    def progress(params):
        if isinstance(params.value, dict) and params.value.get("kind") == "begin":
            client.progress_begun.add(params.token)

    @client.feature(lsp.WORKSPACE_CONFIGURATION)
    def configuration(params):
        return [{"checkOn": "save", "timeout": 600}]

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def log(params):
        pass

    return client


async def wait(predicate, timeout=120.0):
    deadline = time.perf_counter() + timeout
    while not (value := predicate()):
        if time.perf_counter() > deadline:
            raise TimeoutError
        await asyncio.sleep(0.002)
    return value


def opened(client: Client, uri: str, text: str) -> float:
    t0 = time.perf_counter()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "c", 1, text)))
    return t0


async def first(client: Client, uri: str, t0: float, accept) -> float:
    def hit():
        return next((t for t, p in client.published if p.uri == uri and t >= t0 and accept(p)), None)

    try:
        return (await wait(hit)) - t0
    except TimeoutError:
        seen = [(round(t - t0, 3), p.version, [d.message[:60] for d in p.diagnostics])
                for t, p in client.published if p.uri == uri]
        raise TimeoutError(f"{uri}: no accepted diagnostics; published: {seen}") from None


async def run(hovers: int, programs: list[Path]) -> dict:
    client = make_client()
    await client.start_io(sys.executable, "-m", "distaff.server", cwd=str(ROOT))
    drain = asyncio.ensure_future(client.drain_stderr())
    caps = lsp.ClientCapabilities(
        window=lsp.WindowClientCapabilities(work_done_progress=True),
        workspace=lsp.WorkspaceClientCapabilities(configuration=True),
        text_document=lsp.TextDocumentClientCapabilities(
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(related_information=True)),
    )
    await client.initialize_async(lsp.InitializeParams(capabilities=caps, process_id=os.getpid()))
    client.initialized(lsp.InitializedParams())
    await asyncio.sleep(1.0)  # settings pulled, spare worker warm

    out: dict = {}
    opened(client, "file:///bench/long.c", LONG)
    await wait(lambda: client.progress_begun)
    await asyncio.sleep(1.0)

    syntax = []
    for seed in range(5):
        uri = f"file:///bench/thousand_{seed}.c"
        t0 = opened(client, uri, thousand_lines(seed))
        syntax.append(await first(client, uri, t0, lambda p: any(d.code == "syntax" for d in p.diagnostics)))
        await asyncio.sleep(1.5)  # let its full parse end: each open is measured on its own
    out["syntax"] = syntax

    verdicts = []
    for n, (low, high) in enumerate([(10, 20), (11, 21), (12, 22)]):
        uri = f"file:///bench/reorder_{n}.c"
        text = REORDER.replace("LOW", str(low)).replace("HIGH", str(high))
        t0 = opened(client, uri, text)
        verdicts.append(await first(client, uri, t0, lambda p: any(d.code in ("holds", "violated")
                                                                    for d in p.diagnostics)))
        await asyncio.sleep(3.0)  # the next spare worker warms up, as between two real opens
        final = next(p for _, p in reversed(client.published) if p.uri == uri)
        out.setdefault("verdict_text", [d.message for d in final.diagnostics if d.code in ("holds", "violated")])
    out["verdict"] = verdicts

    out["programs"] = []
    for path in programs:
        uri = path.resolve().as_uri()
        t0 = opened(client, uri, path.read_text())
        took = await first(client, uri, t0, lambda p: any(d.code in ("holds", "violated") for d in p.diagnostics))
        await asyncio.sleep(3.0)
        final = next(p for _, p in reversed(client.published) if p.uri == uri)
        out["programs"].append((path.name, took, [d.message for d in final.diagnostics
                                                  if d.code in ("holds", "violated")]))

    uri = "file:///bench/reorder_0.c"
    text = REORDER.replace("LOW", "10").replace("HIGH", "20")
    targets = [text.splitlines().index("    assert(first <= second);"), text.splitlines().index("    first = g;")]
    latencies = []
    for k in range(hovers):
        line = targets[k % 2]
        t0 = time.perf_counter()
        await client.text_document_hover_async(lsp.HoverParams(
            lsp.TextDocumentIdentifier(uri), lsp.Position(line, 12)))
        latencies.append(time.perf_counter() - t0)
    out["hover"] = latencies
    out["long_still_running"] = not any(p.uri == "file:///bench/long.c" and any(
        d.code in ("holds", "violated") for d in p.diagnostics) for _, p in client.published)

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    drain.cancel()
    out["stderr_bytes"] = len(client.stderr)
    if client.stderr:
        print(client.stderr.decode(errors="replace")[-2000:], file=sys.stderr)
    return out


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def ms(x: float) -> str:
    return f"{x * 1000:.0f} ms"


def report(out: dict, hovers: int, programs: list[Path]) -> str:
    load = os.getloadavg()
    s, v, h = out["syntax"], out["verdict"], out["hover"]
    lines = [
        "# Language server latency while a long check runs",
        "",
        f"`python bench/lsp_bench.py --hovers {hovers}"
        + "".join(f" --program {p}" for p in programs) + f"` on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; "
        f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end "
        "(the machine is shared: other work ran at the same time).",
        "",
        "A three-thread counter program is being checked (minutes of exploration) in one worker "
        "process the whole time; it was "
        + ("still running" if out["long_still_running"] else "**finished**") + " when the measurements ended.",
        "",
        "| measure | target | result |",
        "|---|---|---|",
        f"| first syntax diagnostic, 1,000-line file (5 files) | < 200 ms | median {ms(statistics.median(s))}, "
        f"max {ms(max(s))} ({', '.join(ms(x) for x in s)}) |",
        f"| hover latency ({len(h)} requests) | p95 < 100 ms | p50 {ms(percentile(h, 0.5))}, "
        f"p95 {ms(percentile(h, 0.95))}, max {ms(max(h))} |",
        "| first verdict, reorder program like Figure 2 (3 variants) | — | "
        + ", ".join(ms(x) for x in v) + " |",
        *[f"| first verdict, `{name}` | — | {ms(took)} |" for name, took, _ in out["programs"]],
        "",
        "The first verdict: " + "; ".join(f"`{t}`" for t in out["verdict_text"]),
        *[f"`{name}`: " + "; ".join(f"`{t}`" for t in texts) for name, _, texts in out["programs"]],
        "",
        "Each time runs from the client sending the notification or request to it receiving the "
        "diagnostics or the answer, over stdio. Files are opened a few seconds apart; the server keeps "
        "one idle worker process warm (engine imported, solver started), and a check opened before "
        "the next one has warmed up pays for a cold worker (about 2-3 s on this loaded machine).",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hovers", type=int, default=200)
    parser.add_argument("--program", type=Path, action="append", default=[])
    args = parser.parse_args()
    out = asyncio.run(run(args.hovers, args.program))
    text = report(out, args.hovers, args.program)
    dest = ROOT / "bench" / "results" / "lsp.md"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
