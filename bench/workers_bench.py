"""``--workers 1`` against ``--workers auto``: wall time of ``distaff check``.

    python bench/workers_bench.py [--assertion-timeout S] [--out bench/results/workers.md] [PROGRAM.c ...]

Each program is checked by ``python -m distaff check --format json`` in a
fresh process, once with each setting, one right after the other (the order
alternating from program to program, so both meet the same load), and timed
from outside: start-up, parsing, every sub-check, the search for deadlocks
and the pool's processes included, as a user waits for it. Without programs
it takes those with two assertions or more of Table 2's corpus
(``bench/table2/programs``), the examples and ``tests/programs`` (a file with
one assertion is checked in this process whatever ``--workers`` says).

Every assertion gets ``--assertion-timeout`` seconds in both settings, so both
do the same work (a whole-command ``--timeout`` would give the parallel run
more checking in the same time). *same*: every assertion's verdict (status
and reason) agrees. The summary gives the ratio of the total times, the
median per-program ratio (``workers 1`` time over ``auto`` time: above 1 is
auto faster), and the ratios of programs by how long one worker takes.

Not a test: timings depend on the machine, its cores and its load; ratios
measured in one run are what to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from distaff.analysis.check import POOL_AFTER_S  # noqa: E402
from distaff.analysis.ir import DataModel  # noqa: E402
from distaff.server.cli import cores, parse_file  # noqa: E402


SIZES = {"under 1 s": 1.0, "1 to 5 s": 5.0, "5 s or more": float("inf")}


def assertions_of(path: Path) -> int:
    return len(parse_file(str(path), path.read_text(errors="replace"), DataModel.LP64).assertions())


def default_programs() -> list[Path]:
    found = sorted((ROOT / "bench" / "table2" / "programs").glob("*.c"))
    found += sorted((ROOT / "examples").glob("*.c"))
    found += sorted((ROOT / "tests" / "programs").glob("*.c"))
    return [p for p in found if assertions_of(p) >= 2]


def measure(path: Path, workers: str, timeout: float) -> dict:
    """Wall seconds of one check in a fresh process, and its verdicts."""
    argv = [sys.executable, "-m", "distaff", "check", "--format", "json", "--workers", workers,
            "--assertion-timeout", f"{timeout:g}", str(path)]
    started = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - started
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        return {"error": (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1], "wall": wall}
    verdicts = sorted((a["line"], a["column"], a["status"], a.get("reason")) for f in doc["files"]
                      for a in f["assertions"])
    return {"wall": wall, "verdicts": verdicts, "workers": doc["options"]["workers"]}


def label(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--assertion-timeout", type=float, default=10.0, help="seconds per assertion")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "workers.md"))
    ap.add_argument("programs", nargs="*", type=Path)
    args = ap.parse_args(argv)
    programs = args.programs or default_programs()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    started = time.time()
    lines = [
        "# Workers: one against one per core",
        "",
        f"`python bench/workers_bench.py --assertion-timeout {args.assertion_timeout:g}` on {platform.machine()} "
        f"{platform.system()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}, at {head} "
        f"(with any uncommitted changes): {cores()} cores usable (auto is {cores()} workers), load average "
        f"{os.getloadavg()[0]:.1f} at the start. Each check in a fresh process, `--workers 1` and `--workers auto` "
        "one right after the other, in alternating order, timed from outside (start-up and imports included).",
        "",
        "*same*: every assertion's verdict (status and reason) agrees. *speed-up*: the `--workers 1` time "
        "over the `auto` time (above 1: auto is faster).",
        "",
        "With workers this process checks one assertion after another while the other processes take those it "
        f"has not started; they start only once a check has run {POOL_AFTER_S:g} s (`POOL_AFTER_S` in "
        "analysis/check.py: about what a process takes to start, Python and z3), so a program checked sooner "
        "never starts one and pays only a thread and a pipe. A file with one assertion is checked in this process "
        "whatever `--workers` says.",
        "",
        "| program | assertions | same | workers 1 s | auto s | speed-up |",
        "|---|---:|---|---:|---:|---:|",
    ]
    print("\n".join(lines), flush=True)
    ratios, total_one, total_auto, same = [], 0.0, 0.0, 0
    sizes: dict = {size: [] for size in SIZES}  # (one, auto) times by how long one worker takes
    for i, path in enumerate(programs):
        order = ("1", "auto") if i % 2 == 0 else ("auto", "1")
        got = {w: measure(path.resolve(), w, args.assertion_timeout) for w in order}
        one, auto = got["1"], got["auto"]
        if "error" in one or "error" in auto:
            line = f"| {label(path)} | | no | crashed: {(one.get('error') or auto.get('error'))[:80]} | | |"
        else:
            agree = one["verdicts"] == auto["verdicts"]
            same += agree
            ratio = one["wall"] / auto["wall"]
            ratios.append(ratio)
            total_one += one["wall"]
            total_auto += auto["wall"]
            sizes[next(size for size, below in SIZES.items() if one["wall"] < below)].append((one["wall"], auto["wall"]))
            line = (f"| {label(path)} | {len(one['verdicts'])} | {'yes' if agree else 'NO'} | {one['wall']:.2f} | "
                    f"{auto['wall']:.2f} | {ratio:.2f}x |")
        lines.append(line)
        print(line, flush=True)
    total = total_one / total_auto if total_auto > 0 else 0.0
    median = statistics.median(ratios) if ratios else 0.0
    by_size = "; ".join(
        f"{size}: {len(pairs)}, median {statistics.median(o / a for o, a in pairs):.2f}x, "
        f"{min(o / a for o, a in pairs):.2f}x to {max(o / a for o, a in pairs):.2f}x"
        for size, pairs in sizes.items() if pairs)
    summary = [
        "",
        f"{len(programs)} programs, {same} with the same verdicts. Total wall time {total_one:.1f} s with "
        f"--workers 1, {total_auto:.1f} s with auto ({cores()} cores): {total:.2f}x; median per program "
        f"{median:.2f}x. By the time one worker takes: {by_size}. Load average {os.getloadavg()[0]:.1f} at the "
        f"end. {time.time() - started:.0f} s in all.",
    ]
    lines += summary
    print("\n".join(summary), flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0 if same == len(programs) else 1


if __name__ == "__main__":
    sys.exit(main())
