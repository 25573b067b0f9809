"""Budgets that hold: a check with a 5 s budget on a program whose check
takes minutes, from every way in (not a test).

    python bench/budget_bench.py [--budget 5] [--out bench/results/budget.md]

Measures the wall time from the request to the answer:

* the command line, ``distaff check --timeout B`` (defaults: the memory cap,
  ``--workers auto``), with ``--workers 1``, and with ``--max-memory 0``
  (sub-checks on a thread of the command's own process), each a fresh
  process: from its start (imports included) to its exit;
* the Python API, ``check_source`` with its defaults and ``total_timeout_s``
  B, in a fresh process: from the call to its return;
* the language server with ``distaff.timeout`` B (a budget per assertion):
  from ``didOpen`` to the assertion's undecided diagnostic, and to the end of
  the run's progress (the search for deadlocks after it has a budget of its own).

The target: within B + 1 s for the command line and the API, and for the
assertion's diagnostic in the editor.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_bench import Client, opened, wait  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# Two ways a check takes minutes: one solver call (factoring a product of three
# primes: z3 heeds no interrupt inside it), and an exploration of many runs.
SOLVER = (ROOT / "tests" / "programs" / "hard_solver.c").read_text()
EXPLORATION = """#include <pthread.h>
#include <assert.h>
int n;
void *bump(void *arg) {
    for (int i = 0; i < 5; i++)
        n = n + 1;
    return 0;
}
int main(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, bump, 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    assert(n <= 20);
    return 0;
}
"""
PROGRAMS = {"one solver call (tests/programs/hard_solver.c)": SOLVER,
            "an exploration (four threads, five unprotected increments each; the assertion holds)": EXPLORATION}

API = """
import sys, time
from dataclasses import replace
t0 = time.monotonic()
from distaff import check_source
from distaff.server.api import DEFAULT_OPTIONS
text = open(sys.argv[1]).read()
t1 = time.monotonic()
report = check_source(text, replace(DEFAULT_OPTIONS, total_timeout_s=float(sys.argv[2])), path=sys.argv[1])
print(time.monotonic() - t1, [a.reason.value if a.reason else a.status.label for a in report.assertions])
"""


def command_line(path: Path, budget: float, *extra: str) -> tuple[float, str]:
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "distaff", "check", "--timeout", f"{budget:g}", *extra, str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    took = time.monotonic() - t0
    last = (proc.stdout.strip().splitlines() or [""])[-1]
    return took, last


def api(path: Path, budget: float) -> tuple[float, str]:
    proc = subprocess.run([sys.executable, "-c", API, str(path), f"{budget:g}"], capture_output=True, text=True,
                          cwd=ROOT)
    took, _, answers = proc.stdout.strip().partition(" ")
    return float(took), answers


async def editor(budget: float, text: str) -> tuple[float, float]:
    client = Client()
    done: list[float] = []

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: lsp.PublishDiagnosticsParams):
        client.published.append((time.perf_counter(), params))

    @client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def create(params):
        return None

    @client.feature(lsp.PROGRESS)
    def progress(params):
        if isinstance(params.value, dict) and params.value.get("kind") == "end":
            done.append(time.perf_counter())

    @client.feature(lsp.WORKSPACE_CONFIGURATION)
    def configuration(params):
        return [{"checkOn": "save", "timeout": budget}]

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def log(params):
        pass

    await client.start_io(sys.executable, "-m", "distaff.server", cwd=str(ROOT))
    drain = asyncio.ensure_future(client.drain_stderr())
    caps = lsp.ClientCapabilities(window=lsp.WindowClientCapabilities(work_done_progress=True),
                                  workspace=lsp.WorkspaceClientCapabilities(configuration=True))
    await client.initialize_async(lsp.InitializeParams(capabilities=caps, process_id=os.getpid()))
    client.initialized(lsp.InitializedParams())
    await asyncio.sleep(1.0)  # settings pulled, spare worker warm
    uri = "file:///bench/long.c"
    t0 = opened(client, uri, text)

    def verdict():
        return next((t for t, p in client.published if p.uri == uri and t >= t0
                     and any("undecided" in d.message or "holds" in d.message for d in p.diagnostics)), None)

    first = await wait(verdict, timeout=budget * 10 + 30)
    end = await wait(lambda: done and done[-1], timeout=budget * 10 + 30)
    await client.shutdown_async(None)
    client.exit(None)
    drain.cancel()
    return first - t0, end - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=5.0)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "budget.md")
    args = ap.parse_args(argv)
    B = args.budget
    rows = []
    for what, text in PROGRAMS.items():
        path = Path(tempfile.mkdtemp(prefix="distaff-budget-")) / "long.c"
        path.write_text(text)
        for label, extra in (("command line, defaults (--workers auto, memory cap)", ()),
                             ("command line, --workers 1", ("--workers", "1")),
                             ("command line, --max-memory 0 (sub-checks on a thread)", ("--max-memory", "0"))):
            took, last = command_line(path, B, *extra)
            rows.append((what, label, took, last))
            print(label, round(took, 2), last, flush=True)
        took, answers = api(path, B)
        rows.append((what, "Python API, check_source (defaults, total_timeout_s)", took, answers))
        print(rows[-1], flush=True)
        first, end = asyncio.run(editor(B, text))
        rows.append((what, "editor, the assertion's diagnostic (distaff.timeout per assertion)", first, ""))
        rows.append((what, "editor, the end of the run (the search for deadlocks after it)", end, ""))
        print(rows[-2:], flush=True)
    lines = [
        f"# Budgets: a {B:g} s budget on a check that takes minutes",
        "",
        f"`python bench/budget_bench.py --budget {B:g}` on {platform.machine()} {platform.system()}, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores. Two programs whose checks take minutes: "
        + "; ".join(PROGRAMS) + ". Command lines: wall time of the whole process, "
        "interpreter start and imports included; API: from the call to its return; editor: from `didOpen`.",
        "",
        "| program | way in | seconds | within budget + 1 s | answer |",
        "|---|---|---:|---|---|",
    ]
    for what, label, took, answer in rows:
        answer = answer.split(": ", 1)[-1] if answer.startswith("/") else answer
        lines.append(f"| {what.split(' (')[0]} | {label} | {took:.2f} | {'yes' if took <= B + 1 else 'no'} | {answer} |")
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
