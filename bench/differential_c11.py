"""The C11 differential test: generated litmus tests, distaff's execution
counts against a brute-force oracle of RC11's axioms.

    python bench/differential_c11.py --programs 5000 [--first-seed K] [--workers 2]
                                     [--out bench/out/differential_c11.jsonl]
                                     [--results bench/results/differential_c11.md]

Program *i* is drawn from seed *K + i* by ``tests/c11/litmus.py``'s
``generate`` (two to four threads, at most six atomic operations: loads,
stores, fetch-and-adds and fences with every valid memory order on two or
three locations); one whose candidate executions (every reads-from for
every read, every modification order) exceed ``--max-candidates`` is drawn
again from the next seed past the range, so the count is of programs
checked. Each is checked with ``--count-executions`` under ``rc11`` and
``sc``; the oracle (``tests.c11.litmus.count``: every candidate, kept when
RC11's axioms, or sequential consistency's, hold) must give the same
number, and the exploration must be complete. With ``--genmc N`` the
first N programs are counted by GenMC too (``--rc11``/``--sc``, race
detection and estimation off), a second opinion on the oracle. Every
disagreement is kept with the program. Not a test: it runs for tens of
minutes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.litmus_bench import GENMC, genmc_count  # noqa: E402  (after the path above)


def check(job: tuple[int, int, bool]) -> dict:
    from distaff.analysis.executions import count_executions
    from distaff.analysis.frontend import parse_program
    from distaff.analysis.options import Options
    from tests.c11.litmus import c_text, candidates, count, generate

    seed, max_candidates, with_genmc = job
    rnd = random.Random(seed)
    test = generate(rnd)
    tries = 0
    while candidates(test) > max_candidates:
        tries += 1
        test = generate(random.Random(f"{seed}/{tries}"))
    program = parse_program(c_text(test), f"c11_{seed}.c")
    row = {"seed": seed, "test": test, "runs": {}, "executions": {}, "oracle": {}, "problems": []}
    t0 = time.monotonic()
    for model in ("rc11", "sc"):
        got = count_executions(program, Options(memory_model=model))
        want = count(test, model)
        row["runs"][model] = got.stats.runs
        row["executions"][model] = got.executions
        row["oracle"][model] = want
        if not got.complete:
            row["problems"].append(f"{model}: incomplete ({got.stop_message})")
        elif got.executions != want:
            row["problems"].append(f"{model}: {got.executions} executions, the oracle {want}")
    row["time_s"] = round(time.monotonic() - t0, 3)
    if with_genmc:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"c11_{seed}.c"
            path.write_text(c_text(test))
            row["genmc"] = {m: genmc_count(GENMC, path, m)[0] for m in ("rc11", "sc")}
        for m, n in row["genmc"].items():
            if n is not None and n != row["oracle"][m]:
                row["problems"].append(f"{m}: GenMC {n}, the oracle {row['oracle'][m]}")
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--programs", type=int, default=5000)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-candidates", type=int, default=4000)
    ap.add_argument("--out", default="bench/out/differential_c11.jsonl")
    ap.add_argument("--results", default=None)
    ap.add_argument("--genmc", type=int, default=0, metavar="N", help="count the first N with GenMC too")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done[row["seed"]] = row
    seeds = [s for s in range(args.first_seed, args.first_seed + args.programs) if s not in done]
    start = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool, out.open("a") as f:
        jobs = [(s, args.max_candidates, s < args.first_seed + args.genmc and os.access(GENMC, os.X_OK))
                for s in seeds]
        for row in pool.imap_unordered(check, jobs, chunksize=8):
            done[row["seed"]] = row
            f.write(json.dumps(row) + "\n")
            f.flush()
            if row["problems"]:
                print(f"seed {row['seed']}: {'; '.join(row['problems'])}: {row['test']}", flush=True)
    wall = time.monotonic() - start
    rows = [done[s] for s in range(args.first_seed, args.first_seed + args.programs)]
    bad = [r for r in rows if r["problems"]]
    execs = {m: sum(r["executions"][m] for r in rows) for m in ("rc11", "sc")}
    runs = {m: sum(r["runs"][m] for r in rows) for m in ("rc11", "sc")}
    weak = sum(1 for r in rows if r["oracle"]["rc11"] > r["oracle"]["sc"])
    genmc = [r for r in rows if r.get("genmc")]
    lines = [
        f"## {time.strftime('%Y-%m-%d')}: {len(rows)} programs, seeds {args.first_seed}-"
        f"{args.first_seed + args.programs - 1}",
        "",
        f"`python bench/differential_c11.py --programs {args.programs} --first-seed {args.first_seed}` on "
        f"{platform.machine()} {platform.system()}, {args.workers} workers, {wall:.0f} s wall.",
        "",
        "| | rc11 | sc |",
        "|---|---:|---:|",
        f"| executions (distaff = oracle) | {execs['rc11']:,} | {execs['sc']:,} |",
        f"| runs | {runs['rc11']:,} | {runs['sc']:,} |",
        f"| runs per execution | {runs['rc11'] / max(1, execs['rc11']):.2f} | {runs['sc'] / max(1, execs['sc']):.2f} |",
        "",
        f"Programs with executions RC11 allows and sequential consistency does not: {weak} of {len(rows)}. "
        f"Disagreements with the oracle (or incomplete counts): {len(bad)}. "
        f"Counted by GenMC too: {len(genmc)} (their disagreements with the oracle are among those).",
        "",
    ]
    for r in bad[:20]:
        lines.append(f"- seed {r['seed']}: {'; '.join(r['problems'])}: `{r['test']}`")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.results:
        with open(args.results, "a") as f:
            f.write(text + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
