"""Bounds that keep the bugs: time to the first violation and verdicts within a budget.

    python bench/bounds_bench.py [--budget S] [--unwind N] [--out bench/results/bounds.md] [PROGRAM.c ...]

For each program (by default the bound-shaped programs of ``tests/programs``
and every program of ``bench/table2/programs``) and two configurations --

* *before*: a thread at the unwind bound cuts the whole run, no deepening
  (``thread_cuts``, ``deepening`` and ``concrete_loops`` off: how distaff
  bounded loops before);
* *after*: the defaults (the thread stops, the others go on; deepening 1, 2,
  4, ...; loops only concrete locals decide run free) --

it runs ``check`` in mode dpor-ag with one wall-clock budget for the whole
check (``total_timeout_s``, the CLI's ``--timeout``) and reports the time
until the first violation was yielded, and how many of the assertions got a
verdict (holds, holds within the bound, violated, unreachable) rather than
"undecided". Times are wall seconds of this process on a shared machine:
compare the two columns of one run, not runs of different days.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from distaff.analysis.check import Options, check  # noqa: E402
from distaff.analysis.frontend import parse_program  # noqa: E402
from distaff.analysis.report import AssertionResult, Status  # noqa: E402

SHAPES = ["early_bug_long_loop.c", "constant_loops.c", "thread_factory.c", "spin_error_call.c",
          "spin_holding_lock.c", "error_sites.c", "loop_cut.c", "prodcons_if.c"]
BEFORE = (("thread_cuts", False), ("deepening", False), ("concrete_loops", False))


def measure(path: Path, options: Options) -> tuple[float | None, int, int, float]:
    """(seconds to the first violation or None, assertions decided, assertions, seconds in all)."""
    program = parse_program(path.read_text(), str(path))
    t0 = time.monotonic()
    first = None
    decided = total = 0
    for item in check(program, options):
        if not isinstance(item, AssertionResult):
            continue
        total += 1
        if item.status is Status.VIOLATED and first is None:
            first = time.monotonic() - t0
        if item.status is not Status.UNKNOWN:
            decided += 1
    return first, decided, total, time.monotonic() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=30.0, help="wall seconds per program and configuration")
    ap.add_argument("--unwind", type=int, default=8)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "bounds.md"))
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args(argv)
    if args.programs:
        paths = [Path(p) for p in args.programs]
    else:
        paths = [ROOT / "tests" / "programs" / n for n in SHAPES]
        paths += sorted((ROOT / "bench" / "table2" / "programs").glob("*.c"))
    rows = []
    totals = {"before": [0, 0, 0], "after": [0, 0, 0]}  # decided, assertions, programs all decided
    for path in paths:
        cells = []
        for name, opts in (("before", BEFORE), ("after", ())):
            options = Options(mode="dpor-ag", unwind=args.unwind, total_timeout_s=args.budget, optimisations=opts)
            first, decided, total, elapsed = measure(path, options)
            t = totals[name]
            t[0] += decided
            t[1] += total
            t[2] += decided == total
            cells.append(("-" if first is None else f"{first:.2f}") + f" | {decided}/{total} | {elapsed:.1f}")
            print(f"{path.name} {name}: first violation {first}, decided {decided}/{total}, {elapsed:.1f} s",
                  file=sys.stderr, flush=True)
        label = path.resolve().relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    head = [
        "# Bounds: time to the first violation, verdicts within the budget",
        "",
        f"`python bench/bounds_bench.py --budget {args.budget:g} --unwind {args.unwind}` on "
        f"{platform.machine()} / Python {platform.python_version()}, mode dpor-ag, one wall-clock budget of "
        f"{args.budget:g} s per program and configuration. *before*: a thread at the bound cuts the whole "
        "run, no deepening, every loop iteration counted (`thread_cuts`, `deepening`, `concrete_loops` off); "
        "*after*: the defaults. *first*: wall seconds until the first violation was reported (- when none "
        "was); *decided*: assertions with a verdict other than undecided; *total*: wall seconds of the check.",
        "",
        "| program | before: first | decided | total | after: first | decided | total |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    foot = ["", f"Decided: before {totals['before'][0]}/{totals['before'][1]} assertions "
                f"({totals['before'][2]}/{len(paths)} programs fully decided); after {totals['after'][0]}/"
                f"{totals['after'][1]} ({totals['after'][2]}/{len(paths)})."]
    Path(args.out).write_text("\n".join(head + rows + foot) + "\n")
    print("\n".join(foot).strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
