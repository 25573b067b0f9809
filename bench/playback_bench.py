"""Concrete playback on programs nobody wrote for it: how many violations of
generated programs (tests/differential's generator, the same programs on every
run) a native reproducer fails at the reported assertion, how many leave the
schedule (and at which kind of step), and how long building and running take.

    python bench/playback_bench.py --programs 400 [--workers 2] [--results bench/results/playback.md]
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.context_precision import draw_programs  # noqa: E402
from distaff.analysis.check import check_text  # noqa: E402
from distaff.analysis.frontend import parse_program  # noqa: E402
from distaff.analysis.options import Options  # noqa: E402
from distaff.analysis.playback import NotReproducible, reproducer_for  # noqa: E402
from distaff.analysis.report import AssertionResult, Status  # noqa: E402

OPTIONS = Options(timeout_s=10, findings=False)


def measure(args: tuple[int, str]) -> list[dict]:
    """Every violation of program ``index``: what its reproducer did."""
    index, text = args
    out = []
    with tempfile.TemporaryDirectory(prefix="distaff-playback-") as tmp:
        src = os.path.join(tmp, f"p{index}.c")
        Path(src).write_text(text)
        program = parse_program(text, src)
        for r in check_text(text, src, OPTIONS):
            if not isinstance(r, AssertionResult) or r.status is not Status.VIOLATED or r.trace is None:
                continue
            row = {"program": index, "line": r.span.line, "steps": len(r.trace.steps)}
            try:
                rep = reproducer_for(program, r, replace(OPTIONS), src, tmp, text)
            except NotReproducible as e:
                out.append(dict(row, outcome="no reproducer", why=str(e)))
                continue
            Path(rep.path).write_text(rep.text)
            t0 = time.monotonic()
            built = subprocess.run(rep.build, shell=True, capture_output=True, text=True, timeout=120)
            t1 = time.monotonic()
            if built.returncode:
                out.append(dict(row, outcome="build failed", why=built.stderr.strip().splitlines()[-1][:120]))
                continue
            env = dict(os.environ, DISTAFF_PLAYBACK_PATIENCE="3")
            try:
                run = subprocess.run([rep.executable], capture_output=True, text=True, timeout=60, env=env)
            except subprocess.TimeoutExpired:
                out.append(dict(row, outcome="hung", why=""))
                continue
            t2 = time.monotonic()
            row.update(cues=len(rep.schedule.cues), build_s=t1 - t0, run_s=t2 - t1)
            at_line = re.search(rf"p{index}\.c:{r.span.line}: .*Assertion", run.stderr) is not None
            if run.returncode == -signal.SIGABRT and "distaff: reproduced" in run.stderr and at_line:
                out.append(dict(row, outcome="reproduced", why=""))
            else:
                m = re.search(r"\] (\w+)", run.stderr.split("it was the turn of", 1)[-1])
                why = run.stderr.strip().splitlines()[0][:160] if run.stderr.strip() else f"exit {run.returncode}"
                out.append(dict(row, outcome="diverged", why=why, kind=m.group(1) if m else ""))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--results", default=None)
    args = ap.parse_args(argv)
    started = time.monotonic()
    texts = draw_programs(args.programs)
    rows: list[dict] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(measure, list(enumerate(texts)), chunksize=4):
            rows += part
    elapsed = time.monotonic() - started
    tally = collections.Counter(r["outcome"] for r in rows)
    done = [r for r in rows if "build_s" in r]
    lines = [
        "# Concrete playback on generated programs",
        "",
        f"`python bench/playback_bench.py --programs {args.programs}` on {platform.machine()} "
        f"{platform.system()}, Python {platform.python_version()}, "
        f"{subprocess.run(['cc', '--version'], capture_output=True, text=True).stdout.splitlines()[0]}, "
        f"{time.strftime('%Y-%m-%d')}; {elapsed:.0f} s with {args.workers} workers.",
        "",
        "Programs: tests/differential's generator (threads, locks, condition variables, atomic blocks, "
        "nondet inputs), the same on every run; every violation distaff reports (mode dpor-ag, 10 s per "
        "assertion) gets a reproducer (`distaff check --playback`), built with the printed command and run. "
        "*Reproduced*: it aborts at the reported assertion's line with distaff's `reproduced` line.",
        "",
        "| outcome | violations |",
        "|---|---:|",
    ]
    for outcome in ("reproduced", "diverged", "no reproducer", "build failed", "hung"):
        lines.append(f"| {outcome} | {tally.get(outcome, 0)} |")
    lines.append(f"| all | {len(rows)} |")
    if done:
        lines += ["", f"Build: median {statistics.median(r['build_s'] for r in done):.2f} s, max "
                      f"{max(r['build_s'] for r in done):.2f} s. Run: median "
                      f"{statistics.median(r['run_s'] for r in done):.3f} s, max {max(r['run_s'] for r in done):.2f} s. "
                      f"Steps held in order: median {statistics.median(r['cues'] for r in done):.0f}, max "
                      f"{max(r['cues'] for r in done)}."]
    odd = [r for r in rows if r["outcome"] != "reproduced"]
    if odd:
        lines += ["", "Not reproduced:", ""]
        lines += [f"- program {r['program']}, line {r['line']}: {r['outcome']}: {r['why']}" for r in odd[:40]]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.results:
        Path(args.results).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
