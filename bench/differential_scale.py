"""The differential test at scale: thousands of generated programs, every mode.

    python bench/differential_scale.py --programs 10000 [--workers 2] [--out bench/out/differential.jsonl]
                                       [--first-seed K] [--spurious]

Draws programs from the differential test's generator (``tests/differential/gen.py``)
and checks each against the oracle in every mode, exactly as
``tests/differential/test_differential.py`` does, but in shards of ``--per-shard``
programs that run in parallel (``--workers`` processes) and are each drawn from a
fixed seed (the shard's number): a shard is the same programs on every run, so the
run is reproducible (``--first-seed`` draws other programs: shard *i* then
uses seed *K + i*), and resumable: each finished shard is a line of ``--out``, and a
later run with the same ``--out`` skips the shards it holds. Every discrepancy is
kept with its C text. ``--spurious`` checks, as the test's second
comparison does, only programs that wait on a condition variable, with
spurious wake-ups on both sides. At the end a table goes to stdout and, with ``--results``, to
that Markdown file. Not a test: it is meant to run for tens of minutes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import sys
import time
from pathlib import Path

from distaff.analysis.options import MODES

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def run_shard(job: tuple[int, int, int]) -> dict:
    """Check ``count`` programs drawn from seed ``shard``; programs the oracle
    rejects (too many states or schedules) are drawn again, not counted."""
    from hypothesis import HealthCheck, assume, given, seed, settings

    from tests.differential import compare, gen, oracle, regression_files
    from tests.differential import cprog as C

    shard, count, max_runs, first_seed, spurious = job
    open_programs = regression_files.open_programs()
    checked, problems = [0], []
    start = time.process_time()

    @seed(first_seed + shard)
    @settings(max_examples=count, deadline=None, phases=gen.PHASES, database=None,
              suppress_health_check=list(HealthCheck))
    @given(program=gen.programs())
    def draw(program):
        assume(regression_files.normalised(C.to_c(program)) not in open_programs)
        if spurious:
            assume(any(isinstance(s, C.CondWait) for s in C.all_statements(program)))
        try:
            outcome = oracle.explore(program, spurious=spurious)
        except (oracle.StateSpaceTooLarge, oracle.OutsideContract):
            assume(False)
        assume(outcome.widest <= max_runs)
        checked[0] += 1
        found = compare.discrepancies(program, outcome=outcome, spurious=spurious)
        if found:
            problems.append(C.to_c(program) + "\n" + "\n".join(found))

    draw()
    return {"shard": shard, "programs": checked[0], "discrepancies": problems,
            "cpu_s": round(time.process_time() - start, 1)}


def done_shards(out: Path) -> dict[int, dict]:
    if not out.exists():
        return {}
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return {r["shard"]: r for r in rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=10_000)
    ap.add_argument("--per-shard", type=int, default=250)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--max-runs", type=int, default=300, help="the test's cap on schedules per input")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "differential.jsonl"))
    ap.add_argument("--results", default=None, help="also write the table to this Markdown file")
    ap.add_argument("--first-seed", type=int, default=0, help="shard i draws from seed K + i")
    ap.add_argument("--spurious", action="store_true",
                    help="programs with a condition wait, spurious wake-ups on both sides")
    args = ap.parse_args(argv)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    shards = -(-args.programs // args.per_shard)
    have = done_shards(out)
    todo = [(i, args.per_shard, args.max_runs, args.first_seed, args.spurious)
            for i in range(shards) if i not in have]
    wall = time.monotonic()
    print(f"{shards} shards of {args.per_shard}; {len(have)} done before, {len(todo)} to run "
          f"on {args.workers} workers", flush=True)
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool, out.open("a") as sink:
        for row in pool.imap_unordered(run_shard, todo):
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            have[row["shard"]] = row
            print(f"shard {row['shard']}: {row['programs']} programs, {len(row['discrepancies'])} "
                  f"discrepancies, {row['cpu_s']} CPU s", flush=True)
    rows = [have[i] for i in range(shards) if i in have]
    programs = sum(r["programs"] for r in rows)
    found = [d for r in rows for d in r["discrepancies"]]
    cpu = sum(r["cpu_s"] for r in rows)
    command = "python bench/differential_scale.py " + " ".join(argv if argv is not None else sys.argv[1:])
    lines = [
        "# The differential test at scale",
        "",
        f"`{command}` on {platform.machine()} {platform.system()}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}; {args.workers} workers, {time.monotonic() - wall:.0f} s of wall time "
        "in this run (shards from an earlier run with the same --out are counted, not re-run).",
        "",
        "Each program is drawn by the differential test's generator and checked against the oracle in "
        f"every mode ({', '.join(MODES)}), with the test's definition of a discrepancy "
        "(`tests/differential/compare.py`)"
        + (", spurious wake-ups on both sides, programs with a condition wait only" if args.spurious else "")
        + f". Shard *k* draws its programs from seed {args.first_seed} + *k*.",
        "",
        "| shards | programs checked | discrepancies | CPU s |",
        "|---:|---:|---:|---:|",
        f"| {len(rows)} | {programs} | {len(found)} | {cpu:.0f} |",
    ]
    if found:
        lines += ["", "## Discrepancies", ""] + [f"```c\n{d}\n```" for d in found]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.results:
        Path(args.results).write_text(text)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
