"""Programs of several files at scale: a generated project of 50 files and
10,000 lines (bench/link_project.py), checked as the program its
compile_commands.json links (not a test).

Measures, on one machine, in this order:

* the linking's phases in one process: lowering every file cold (the unit
  cache empty), the plan and the link (escape analysis over the linked
  program included) and the cache digest; then the same after an edit of one
  file's text (one file lowered again) and with nothing changed;
* ``distaff check --workers 1 mod_25.c`` from the command line, cold;
* the check of one assertion in one process, with and without the predicate
  summaries printed (the language server prints them for its hovers);
* the language server over stdio (``checkOn: change``, its default debounce of
  500 ms): from opening ``main.c`` to its first diagnostics, its first verdict
  and every verdict of the program (10, in 10 files); then from an edit of
  ``mod_25.c``'s buffer (its assertion made to fail) to the first diagnostics of
  the edited file, ``main.c``'s diagnostics renewed (the program linked again),
  the first verdict after the edit, the edited file's violation and every
  verdict; and the same for the edit undone.

Writes ``bench/results/link.md``. Usage: ``python bench/link_bench.py
[--files 50] [--lines 10000] [--repeat 3] [--no-lsp]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.link_project import generate  # noqa: E402
from bench.lsp_bench import make_client, wait  # noqa: E402
from distaff import core  # noqa: E402
from distaff.analysis.check import check, disk_includes  # noqa: E402
from distaff.analysis.frontend.unit_cache import UnitCache  # noqa: E402
from distaff.analysis.link import link  # noqa: E402
from distaff.analysis.options import Options  # noqa: E402
from distaff.analysis.project import program_of  # noqa: E402
from distaff.server.cache import program_digest  # noqa: E402
from distaff.server.linked import link_program  # noqa: E402

EDITED = "mod_25.c"
DECIDED = ("holds", "violated", "unreachable")  # with mod_25.c's assertion failing, main's is not reached
BROKEN = ("assert(v >= 0 && calls > 0);", "assert(v < 0 && calls > 0);")


def phases(root: Path, repeat: int) -> dict:
    """Times (s) of the linking's phases, medians over ``repeat`` rounds."""
    database = str(root / "compile_commands.json")
    target = str(root / EDITED)
    texts = {str(p): p.read_text() for p in root.glob("*.c")}
    rows: dict[str, list[float]] = {}

    def once(cache: UnitCache, label: str) -> None:
        lowered = [0.0]

        def unit_of(source):
            t = time.perf_counter()
            unit = cache.unit(texts[source.path], source.path, read_include=disk_includes, flags=source.flags())
            lowered[0] += time.perf_counter() - t
            units[source.path] = unit
            return unit

        units: dict = {}
        gc.collect()  # a collection the rounds before left due would land in this one's times
        t0 = time.perf_counter()
        plan = program_of(target, database, unit_of)
        t1 = time.perf_counter()
        linked = link([units[f] for f in plan.files])
        t2 = time.perf_counter()
        program_digest(linked.program)
        t3 = time.perf_counter()
        for name, value in ((f"{label}: lowering", lowered[0]), (f"{label}: plan (less lowering)", t1 - t0 - lowered[0]),
                            (f"{label}: link and escape analysis", t2 - t1), (f"{label}: cache digest", t3 - t2),
                            (f"{label}: total", t3 - t0)):
            rows.setdefault(name, []).append(value)

    original = texts[target]
    for k in range(repeat):
        cache = UnitCache()
        texts[target] = original
        once(cache, "cold, every file lowered")
        texts[target] = original.replace(BROKEN[0], BROKEN[1]) + f"/* edit {k} */\n"
        once(cache, "after an edit of one file")
        once(cache, "nothing changed")
    texts[target] = original
    return {name: statistics.median(v) for name, v in rows.items()}


def engine(root: Path) -> dict:
    """Seconds of the check of main.c's assertion in one process, with and
    without the predicate summaries printed (the language server prints
    them for its hovers; the command line only for --format json)."""
    program = link_program(str(root / "main.c"), str(root / "compile_commands.json"), {}).program.linked.program
    out = {}
    for text in (False, True):
        t0 = time.perf_counter()
        next(item for item in check(program, Options(summary_text=text, findings=False)))
        out[f"summaries printed: {'yes' if text else 'no'}"] = time.perf_counter() - t0
    return out


def command_line(root: Path) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "distaff", "check", "--workers", "1", EDITED], cwd=root,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    took = time.perf_counter() - t0
    return took, proc.stdout.strip().splitlines()[-1] if proc.stdout else proc.stderr.strip()[-300:]


def verdicts(client, since: float, uris: set[str]) -> int:
    """Verdicts shown now in ``uris`` by diagnostics published after ``since``."""
    latest: dict[str, lsp.PublishDiagnosticsParams] = {}
    for t, p in client.published:
        if t >= since and p.uri in uris:
            latest[p.uri] = p
    return sum(1 for p in latest.values() for d in p.diagnostics if d.code in DECIDED)


async def language_server(root: Path) -> dict:
    client = make_client()
    await client.start_io(sys.executable, "-m", "distaff.server", cwd=str(ROOT))
    drain = asyncio.ensure_future(client.drain_stderr())
    caps = lsp.ClientCapabilities(
        window=lsp.WindowClientCapabilities(work_done_progress=True),
        workspace=lsp.WorkspaceClientCapabilities(configuration=True),
        text_document=lsp.TextDocumentClientCapabilities(
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(related_information=True)))
    await client.initialize_async(lsp.InitializeParams(capabilities=caps, process_id=os.getpid()))
    client.initialized(lsp.InitializedParams())
    await asyncio.sleep(1.0)  # settings pulled
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"distaff": {"checkOn": "change", "timeout": 600}}))
    await asyncio.sleep(2.0)  # spare worker warm

    uris = {p.resolve().as_uri() for p in root.glob("*.c")}
    total = sum(p.read_text().count("    assert(") for p in root.glob("*.c"))
    main, edited = (root / "main.c").resolve(), (root / EDITED).resolve()
    out: dict = {}

    def first(uri, since, accept):
        return next((t for t, p in client.published if p.uri == uri and t >= since and accept(p)), None)

    t0 = time.perf_counter()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(main.as_uri(), "c", 1, main.read_text())))
    out["open: first diagnostics"] = await wait(lambda: first(main.as_uri(), t0, lambda p: True), 600) - t0
    t_verdict = await wait(lambda: next((t for t, p in client.published if t >= t0 and p.uri in uris and any(
        d.code in DECIDED for d in p.diagnostics)), None), 600)
    out["open: first verdict"] = t_verdict - t0
    await wait(lambda: verdicts(client, t0, uris) >= total, 1200)
    out["open: every verdict"] = time.perf_counter() - t0

    text = edited.read_text()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(edited.as_uri(), "c", 1, text)))
    await asyncio.sleep(3.0)
    for version, (label, new) in enumerate((("edit", text.replace(*BROKEN)), ("undo", text)), start=2):
        t0 = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=edited.as_uri()),
            [lsp.TextDocumentContentChangeWholeDocument(new)]))
        out[f"{label}: first diagnostics of the edited file"] = await wait(
            lambda: first(edited.as_uri(), t0, lambda p: p.version == version), 600) - t0
        out[f"{label}: main.c's diagnostics renewed (linked again)"] = await wait(
            lambda: first(main.as_uri(), t0, lambda p: True), 600) - t0
        out[f"{label}: first verdict"] = await wait(lambda: next((
            t for t, p in client.published if t >= t0 and p.uri in uris and any(d.code in DECIDED for d in p.diagnostics)
            and (p.uri != edited.as_uri() or p.version == version)), None), 600) - t0
        want = "violated" if label == "edit" else "holds"
        out[f"{label}: the edited file's verdict ({want})"] = await wait(lambda: first(
            edited.as_uri(), t0, lambda p: p.version == version and any(d.code == want for d in p.diagnostics)),
            1200) - t0
        await wait(lambda: verdicts(client, t0, uris) >= total, 1200)
        out[f"{label}: every verdict"] = time.perf_counter() - t0
        await asyncio.sleep(2.0)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    drain.cancel()
    return out


def report(args, written: dict, times: dict, cli: tuple[float, str], first_assertion: dict,
           server: dict | None) -> str:
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        "# A project of 50 files, checked as the program its compile_commands.json links",
        "",
        f"`python bench/link_bench.py --files {args.files} --lines {args.lines} --repeat {args.repeat}` "
        f"on {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, core: {core.STATE}; "
        f"load average {load} at the end "
        "(the machine is shared: other work ran at the same time).",
        "",
        f"The project (bench/link_project.py): {written['files']} C files, {written['lines']} lines "
        f"(and a header of {written['header_lines']}), one database entry each with its own -D; every module has "
        "static helpers, a counter and a lock of the same names as the others' (renamed apart when linked), a "
        "setup main calls (every fifth module's with an assertion), and a total two threads add to under "
        f"its lock. {written['assertions']} assertions, all holding.",
        "",
        "## Linking, in one process (medians of the rounds)",
        "",
        "| phase | time |",
        "|---|---|",
    ]
    lines += [f"| {name} | {ms(v)} |" for name, v in times.items()]
    lines += ["", "Lowering is cached per file, text, flags and headers read (analysis/frontend/unit_cache.py): "
              "after an edit of one file only that file is lowered again; the plan reads the database and every "
              "file's symbols, the link rewrites and merges the units and runs the escape analysis over the "
              "whole program.", "",
              "## The command line", "",
              f"`distaff check --workers 1 {EDITED}` (a fresh process, every file lowered; each sub-check in a "
              f"forked process under the default memory cap): {cli[0]:.1f} s; it printed `{cli[1][:160]}…`",
              "",
              "## One assertion's check, in one process", "",
              "main.c's assertion of the linked program, the same options but for printing the predicate "
              "summaries learned (`Options.summary_text`: the language server prints them for its hovers, the "
              "command line only for `--format json`):", "",
              "| summaries printed | time |", "|---|---|"]
    lines += [f"| {name.split(': ')[1]} | {v:.2f} s |" for name, v in first_assertion.items()]
    lines += ["", "Printing is where the language server's check of this program spends most of its time "
              "(profiled: the z3 tactic that simplifies each statement's summary for reading); the linking "
              "itself is the table above.", ""]
    if server is not None:
        lines += ["## The language server", "",
                  "Over stdio as an editor drives it; `checkOn: change` with the default 500 ms debounce, one "
                  f"check at a time of the whole program ({written['assertions']} assertions, `workers: 1`). Times from the "
                  "notification sent to the diagnostics received.", "",
                  "| measure | time |", "|---|---|"]
        lines += [f"| {name} | {ms(v) if v < 1 else f'{v:.1f} s'} |" for name, v in server.items()]
        lines += ["", "Every verdict after the edit comes from a new check of every assertion: the result cache "
                  "keys an assertion by all the code a run can execute (server/cache.py), and an edit of a "
                  "reached file changes it. The undo restores a text whose results are cached: they are shown "
                  "as soon as the program is linked again, as after an edit that leaves the code the same "
                  "(a comment, blank lines)."]
    return "\n".join(lines) + "\n"


def ms(x: float) -> str:
    return f"{x * 1000:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-lsp", action="store_true")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "link.md"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="distaff-link-") as tmp:
        root = Path(tmp) / "project"
        written = generate(root, args.files, args.lines)
        times = phases(root, args.repeat)
        for name, v in times.items():
            print(f"{name}: {ms(v)}", flush=True)
        cli = command_line(root)
        print(f"command line: {cli[0]:.1f} s", flush=True)
        first_assertion = engine(root)
        print(first_assertion, flush=True)
        server = None if args.no_lsp else asyncio.run(language_server(root))
        if server:
            for name, v in server.items():
                print(f"{name}: {v:.2f} s", flush=True)
    Path(args.out).write_text(report(args, written, times, cli, first_assertion, server))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
