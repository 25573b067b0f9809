"""The language server's soak run (not a test): ``tests/server/soak.py`` at length.

Usage: ``python bench/lsp_soak.py [--steps 1200] [--seeds 0 1] [--docs 4]``.
Writes ``bench/results/soak.md``: per seed the steps, requests, the latency of
each request kind (p50/p95/max), peak memory of the server and its workers,
how soon stopped checks' workers exited, and the counts that must be zero
(unanswered requests, stale diagnostics, crashes, errors in the server's log,
documents whose final diagnostics differ from a fresh open's, workers left
over besides the spare).
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.soak import soak  # noqa: E402

MEMORY_CAP_MB = 3072  # the README's stated cap for the server and its workers together


def ms(x: float) -> str:
    return f"{x * 1000:.0f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1200)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--docs", type=int, default=4)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "soak.md"))
    args = ap.parse_args()
    lines = ["# Language server soak", "",
             f"`python bench/lsp_soak.py --steps {args.steps} --seeds {' '.join(map(str, args.seeds))} "
             f"--docs {args.docs}` on {platform.machine()}, {platform.python_version()}; a real client over "
             "stdio (tests/server/soak.py: random incremental edits, garbage, half-typed statements, undo, saves, "
             "hovers, code lenses and actions, check from here and its cancel, setting changes, close and "
             f"reopen). Memory cap: {MEMORY_CAP_MB} MB for the server and its workers together.", ""]
    failed = False
    for seed in args.seeds:
        r = asyncio.run(soak(args.steps, seed, args.docs))
        requests = sum(len(xs) for xs in r.requests.values())
        stop = sorted(r.stop_latencies)
        zero = {"unanswered requests": len(r.unanswered), "stale diagnostics": len(r.stale),
                "crashes": r.crashes, "errors in the server's log": len(r.errors_logged),
                "error messages shown": sum(t == 1 for t, _ in r.shown),
                "final diagnostics unlike a fresh open's": len(r.final_mismatches),
                "workers left besides the spare": max(0, r.workers_left - 1)}
        failed |= any(zero.values()) or r.peak_rss_mb > MEMORY_CAP_MB or (stop and stop[-1] > 1.0)
        lines += [f"## Seed {seed}", "",
                  f"{r.steps} steps in {r.seconds:.0f} s, {requests} requests, {r.publishes} diagnostic publishes, "
                  f"{len(r.shown)} messages shown (refusals such as check from here outside a thread); "
                  f"peak memory {r.peak_rss_mb:.0f} MB; {len(stop)} stopped checks, their workers exited "
                  + (f"after {ms(stop[len(stop) // 2])} ms (median), {ms(stop[-1])} ms at most" if stop else "-")
                  + ".", "",
                  "| request | count | p50 ms | p95 ms | max ms |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {k} | {n} | {ms(a)} | {ms(b)} | {ms(c)} |" for k, n, a, b, c in r.latency_table()]
        lines += ["", "| must be zero | count |", "|---|---:|"] + [f"| {k} | {v} |" for k, v in zero.items()]
        lines.append(f"\nDocuments whose findings (race, deadlock) after the final undo are in the same places as "
                     f"a fresh open's but worded differently: {len(r.final_finding_words)}.")
        for what, items in (("unanswered", r.unanswered), ("stale", r.stale), ("log", r.errors_logged),
                            ("final", r.final_mismatches), ("finding words", r.final_finding_words)):
            for item in items[:5]:
                lines.append(f"\n- {what}: `{str(item)[:3000]}`")
        lines.append("")
        print("\n".join(lines[-30:]), flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
