"""What simplifying the predicate summaries shown on hover costs (mode dpor-ag).

    python bench/summary_bench.py [--timeout S] [--unwind N] [--out bench/results/summaries.md]
                                  [PROGRAM.c ...]

Without programs: the bundled examples and Table 2's corpus
(``bench/table2/programs``, with each header's UNWIND). Every program is
checked in this process (``check_text``, one worker, no findings search) in
mode dpor-ag with the summaries printed, as the language server and the JSON
do. Each statement whose summary is not simply true has its parts'
disjunction simplified once (``Printer.text`` with ``readable_ms``, z3's
tactics bounded in steps and conflicts, ``READABLE_STEPS`` and
``READABLE_CONFLICTS``, with ``READABLE_MS`` of z3 per statement as a safety
net, in ``AssertionGuided.statement_summaries``); those calls are timed here.

The time is the whole call (the span the reduction counts as
``summary_simplify_ms``), of which only z3's tactics (``readable``) are
bounded. Per program: the statements shown with a summary (over all assertions),
how many were simplified and how many of those read differently (the JSON
keeps the learned form as ``raw``), the total and the largest time of one
statement's simplification, and the total as a share of the check's wall
time (parse, static analyses, exploration and printing; imports are warmed
up first).

Not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from speed_bench import label, unwind_of  # noqa: E402

from distaff.analysis.check import check_text  # noqa: E402
from distaff.analysis.options import Options  # noqa: E402
from distaff.analysis.report import AssertionResult  # noqa: E402
from distaff.analysis.summaries import cprint  # noqa: E402
from distaff.analysis.summaries.cprint import READABLE_CONFLICTS, READABLE_MS, READABLE_STEPS  # noqa: E402


def default_programs() -> list[Path]:
    return sorted((ROOT / "examples").glob("*.c")) + sorted((ROOT / "bench" / "table2" / "programs").glob("*.c"))


class Timings:
    """Seconds of each ``Printer.text`` call that simplifies (one per statement)."""

    def __init__(self):
        self.calls: list[float] = []
        self._text = cprint.Printer.text

    def __enter__(self):
        text = self._text
        calls = self.calls

        def timed(printer, phi, budget=400, readable_ms=0):
            if not readable_ms:
                return text(printer, phi, budget, readable_ms)
            t0 = time.perf_counter()
            try:
                return text(printer, phi, budget, readable_ms)
            finally:
                calls.append(time.perf_counter() - t0)

        cprint.Printer.text = timed
        return self

    def __exit__(self, *exc):
        cprint.Printer.text = self._text


def measure(path: Path, options: Options) -> dict:
    text = path.read_text(errors="replace")
    options = replace(options, unwind=unwind_of(text, options.unwind))
    with Timings() as t:
        wall = time.perf_counter()
        results = [r for r in check_text(text, str(path), options) if isinstance(r, AssertionResult)]
        wall = time.perf_counter() - wall
    shown = [s for r in results for s in r.summaries]
    return {
        "assertions": len(results),
        "statements": len(shown),
        "simplified": len(t.calls),
        "changed": sum(1 for s in shown if s.raw),
        "total_ms": 1000 * sum(t.calls),
        "max_ms": 1000 * max(t.calls, default=0.0),
        "wall_s": wall,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per assertion")
    ap.add_argument("--unwind", type=int, default=8, help="unless a program's header sets one")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "summaries.md"))
    ap.add_argument("programs", nargs="*", type=Path)
    args = ap.parse_args(argv)
    programs = args.programs or default_programs()
    options = Options(mode="dpor-ag", unwind=args.unwind, timeout_s=args.timeout, workers=1, findings=False,
                      summary_text=True)
    import z3

    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip() or "?"
    lines = [
        "# Simplifying the predicate summaries shown on hover",
        "",
        f"`python bench/summary_bench.py --timeout {args.timeout:g}` on {platform.machine()} {platform.system()}, "
        f"Python {platform.python_version()}, z3 {z3.get_version_string()}, {time.strftime('%Y-%m-%d')}, "
        f"at {head} (with any uncommitted changes); mode dpor-ag, one process, one worker, no findings search, "
        f"{args.timeout:g} s per assertion; z3's simplification bounded at {READABLE_STEPS} steps and "
        f"{READABLE_CONFLICTS} conflicts per statement (`READABLE_STEPS`, `READABLE_CONFLICTS`), "
        f"{READABLE_MS} ms as a safety net (`READABLE_MS`); "
        f"load average {os.getloadavg()[0]:.1f} at the start on {os.cpu_count()} cores.",
        "",
        "*statements*: statements shown with a summary, over all assertions. *simplified*: those whose summary "
        "was simplified (a summary that is simply true is not). *changed*: those that read differently "
        "simplified (the JSON keeps `raw`). *total ms*, *max ms*: time of the simplifications, over the program "
        "and of one statement: the whole `Printer.text` call (dropping the conjuncts printing hides, z3's "
        "rewriting, `readable` and printing), of which only `readable` is bounded. *share*: total ms over the "
        "check's wall time.",
        "",
        "| program | assertions | statements | simplified | changed | total ms | max ms | check s | share |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    print("\n".join(lines), flush=True)
    list(check_text("int main(void) { return 0; }", "warm-up.c", options))  # imports and first use
    rows = []
    for path in programs:
        m = measure(path, options)
        rows.append(m)
        share = m["total_ms"] / 1000 / m["wall_s"] if m["wall_s"] > 0 else 0.0
        line = (f"| {label(path)} | {m['assertions']} | {m['statements']} | {m['simplified']} | {m['changed']} "
                f"| {m['total_ms']:.1f} | {m['max_ms']:.1f} | {m['wall_s']:.2f} | {100 * share:.1f} % |")
        lines.append(line)
        print(line, flush=True)
    total_ms = sum(m["total_ms"] for m in rows)
    wall = sum(m["wall_s"] for m in rows)
    simplified = sum(m["simplified"] for m in rows)
    shares = [m["total_ms"] / 1000 / m["wall_s"] for m in rows if m["simplified"] and m["wall_s"] > 0]
    summary = (f"{len(rows)} programs: {simplified} statements simplified "
               f"({sum(m['changed'] for m in rows)} changed) in {total_ms:.0f} ms in all, "
               f"at most {max((m['max_ms'] for m in rows), default=0):.1f} ms per statement "
               f"(mean {total_ms / simplified if simplified else 0:.1f} ms), "
               f"{100 * total_ms / 1000 / wall if wall else 0:.1f} % of the checks' {wall:.1f} s "
               f"(median share per program with a simplified summary {100 * statistics.median(shares or [0]):.1f} %).")
    lines += ["", summary, ""]
    print("\n" + summary)
    Path(args.out).write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
