"""Table 1 of the arbitrary-context paper, on our context cases.

    python bench/table1/run.py [--mode dpor] [--timeout S] [--out bench/results/table1.md] [CASE.c ...]

For each context case of ``tests/programs/context`` (its ``--from``
positions and unwind bound in its header) and each configuration of the
initial state -- Full (reaching definitions and synchronization
invariants), -RD (without reaching definitions), -SI (without
synchronization invariants), N (naive: neither) -- it explores *every*
path from the context up to the case's unwind bound (an exploration with no
target assertion, so a violation does not stop it, as the paper enumerates
all paths to a bounded depth) and reports:

* paths: runs explored (full + pruned; ``>= n`` when the time budget ran
  out first);
* solver share: the part of the exploration's time spent in the solver
  (the paper's "time in isSat");
* the assertion's verdict from that context (its own sub-check), so that a
  smaller path count can be read against what it decided.

Paths that Full does not explore but N does are infeasible paths the
initial state's precision avoided. Not a test: timings depend on the
machine and its load (recorded with the table).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import z3  # noqa: E402

from distaff.analysis.check import Options, check_assertion  # noqa: E402
from distaff.analysis.subcheck import explorer_for  # noqa: E402
from tests.context.cases import CASES_DIR, Case, load  # noqa: E402

CONFIGS = (("Full", "full"), ("-RD", "-RD"), ("-SI", "-SI"), ("N", "naive"))


def measure(case: Case, config: str, options: Options) -> dict:
    program = case.program()
    context = case.context(program, config)
    t0 = time.monotonic()
    ex = explorer_for(program, options, None, None, context).run()
    wall = time.monotonic() - t0
    s = ex.stats
    (site,) = program.assertions()
    verdict, _ = check_assertion(program, site, options, None, context)
    return {
        "paths": s.runs, "cut": ex.stop is not None, "solver": s.solver_time_s / s.time_s if s.time_s else 0.0,
        "wall": wall, "verdict": verdict.status.label,
    }


def row(case: Case, results: dict) -> str:
    def paths(r):
        return f"≥ {r['paths']}" if r["cut"] else str(r["paths"])

    cells = [case.name, str(len(case.lines))]
    cells += [paths(results[c]) for _, c in CONFIGS]
    cells += [f"{100 * results[c]['solver']:.0f} %" for _, c in CONFIGS]
    cells += [" / ".join(results[c]["verdict"] for _, c in CONFIGS)]
    return "| " + " | ".join(cells) + " |"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="dpor")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per exploration (default 60)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "table1.md"))
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args(argv)
    paths = [Path(p) for p in args.cases] or sorted(CASES_DIR.glob("*.c"))
    head = ("| program context | thr | paths Full | paths -RD | paths -SI | paths N "
            "| solver Full | solver -RD | solver -SI | solver N | verdict Full / -RD / -SI / N |")
    lines = [head, "|" + "---|" * 2 + "---:|" * 8 + "---|"]
    total = time.monotonic()
    for p in paths:
        case = load(p)
        # the context alone: no check from main takes a false alarm back
        options = Options(mode=args.mode, unwind=case.unwind, timeout_s=args.timeout,
                          optimisations=(("context_confirm", False),))
        results = {c: measure(case, c, options) for _, c in CONFIGS}
        lines.append(row(case, results))
        print(lines[-1], flush=True)
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    text = "\n".join([
        "# Table 1: paths explored from program contexts",
        "",
        f"`python bench/table1/run.py --mode {args.mode} --timeout {args.timeout:g}` on {platform.machine()} "
        f"{platform.system()}, Python {platform.python_version()}, z3 {z3.get_version_string()}, "
        f"{time.strftime('%Y-%m-%d')}; load average {load_avg:.1f} at the end; {time.monotonic() - total:.0f} s "
        "in all.",
        "",
        "Each row is a context case of `tests/programs/context` (its positions, one thread each, and "
        "its unwind bound are in its header). *paths*: runs of an exploration of every path from the "
        "context within the unwind bound (mode as above; `≥` when the time budget ran out); "
        "*solver*: share of that exploration's time in the solver; *verdict*: the assertion's, "
        "from its own sub-check, with the context alone (`context_confirm` off: no check from `main` confirms or "
        "takes back a possible violation). Full = reaching definitions and synchronization invariants; "
        "-RD = without reaching definitions; -SI = without synchronization invariants; N = naive "
        "(fresh symbols, locks and barrier counts unconstrained; points-to still restricts pointers, "
        "as in the paper).",
        "",
        *lines,
        "",
    ])
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(f"written {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
