"""Fuzzing the command line at length (not a test): ``tests/fuzz/mutate.py``'s
mutants of every example and test program through ``distaff check`` and
``distaff ir``, each in its own process as a user runs them.

Usage: ``python bench/fuzz_bench.py [--per-kind 60] [--seed 0] [--workers 2]``.
Writes ``bench/results/fuzz.md``: inputs tried per mutation and the exit
statuses they got (0 nothing found, 1 found, 2 bad input, 3 undecided, 4
internal error: must be 0), tracebacks seen (must be 0), and any failing
input, saved under ``bench/out/fuzz/`` to be kept in tests/fuzz/regressions.
"""

from __future__ import annotations

import argparse
import collections
import platform
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzz.mutate import CORPUS, INTERNAL, MUTATIONS, mutant  # noqa: E402

OUT = ROOT / "bench" / "out" / "fuzz"
COMMANDS = {"check": ["check", "--timeout", "5", "--unwind", "2"], "ir": ["ir"]}


def one(kind: str, index: int, seed: int) -> list[tuple[str, int, bool, Path]]:
    path = OUT / f"{kind}_{index}_{seed}.c"
    path.write_bytes(mutant(kind, index, seed))
    rows = []
    for name, argv in COMMANDS.items():
        p = subprocess.run([sys.executable, "-m", "distaff", *argv, str(path)], capture_output=True, text=True,
                           errors="replace", timeout=300, cwd=ROOT)
        bad = p.returncode == 4 or "Traceback" in p.stdout + p.stderr or bool(INTERNAL.search(p.stdout + p.stderr))
        rows.append((name, p.returncode, bad, path))
    if not any(bad for _, _, bad, _ in rows):
        path.unlink()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-kind", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "fuzz.md"))
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    draw = random.Random(args.seed)
    jobs = [(kind, draw.randrange(len(CORPUS)), draw.randrange(2**32))
            for kind in sorted(MUTATIONS) for _ in range(args.per_kind)]
    table: dict = collections.defaultdict(collections.Counter)
    failures = []
    with ThreadPoolExecutor(args.workers) as pool:
        for (kind, _, _), rows in zip(jobs, pool.map(lambda j: one(*j), jobs)):
            for name, status, bad, path in rows:
                table[(kind, name)][status] += 1
                table[(kind, name)]["bad"] += bad
                if bad:
                    failures.append((kind, name, status, path))
    lines = ["# Fuzzing the command line", "",
             f"`python bench/fuzz_bench.py --per-kind {args.per_kind} --seed {args.seed}` on {platform.machine()}, "
             f"Python {platform.python_version()}: {len(jobs)} mutants of {len(CORPUS)} programs (examples/, "
             "tests/programs/), each through `distaff check --timeout 5 --unwind 2` and `distaff ir` in a process "
             "of its own.", "",
             "| mutation | command | inputs | exit 0 | exit 1 | exit 2 | exit 3 | exit 4 | traceback or internal |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for (kind, name), c in sorted(table.items()):
        total = sum(v for k, v in c.items() if k != "bad")
        lines.append(f"| {kind} | {name} | {total} | " + " | ".join(str(c[s]) for s in range(5)) + f" | {c['bad']} |")
    lines += ["", f"Failing inputs: {len(failures)}."]
    lines += [f"- {kind} through {name}: exit {status}, `{path.relative_to(ROOT)}`" for kind, name, status, path in failures]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
