"""What a small check costs before and after its one run, as a user runs it.

    python bench/startup_bench.py [--before REV] [--rounds 15] [--pycache] [--out bench/results/startup.md]

The program is ``examples/one_run.c`` (one assertion, one run). Each round
runs, in fresh processes, one after another:

* ``python -c pass``: the interpreter's own start;
* ``python -c "import distaff.server.cli"``: the command line's imports;
* ``python -m distaff check --timeout 30 examples/one_run.c``: the whole
  command, with the memory cap (the default) and a time budget in force,
  from its start to its exit.

The split is the medians: interpreter, imports beyond it, and the rest (the
front end, the static phase, the run, the sub-check's process and the
output). With ``--before REV`` the revision (its compiled core built in
place) is measured in the same rounds, alternating with this checkout, so
load on the machine falls on both alike. Where ``PYTHONDONTWRITEBYTECODE``
is set (this workplace sets it) no byte code is cached and every import
compiles its module's source; ``--pycache`` measures with the cache an
installed package has (pip compiles it at install). Not a test: timings
depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regress_bench import remove_trees  # noqa: E402
from regress_bench import trees as compared  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "examples" / "one_run.c"
STEPS = {
    "interpreter": ["-c", "pass"],
    "imports": ["-c", "import distaff.server.cli"],
    "check": ["-m", "distaff", "check", "--timeout", "30", str(PROGRAM)],
}


def wall(tree: Path | None, args: list[str], pycache: bool = False) -> float:
    env = dict(os.environ)
    if pycache:  # byte code cached, as an installed package has it
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, *args], env=env, cwd=str(tree or ROOT), capture_output=True, text=True)
    took = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return took


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default=None, help="git revision to measure beside this checkout")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--pycache", action="store_true",
                    help="let Python cache byte code (warmed once per tree), whatever PYTHONDONTWRITEBYTECODE says")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "startup.md")
    args = ap.parse_args(argv)
    trees = compared(args.before)
    times = {label: {step: [] for step in STEPS} for label, _, _ in trees}
    if args.pycache:
        for _, tree, _ in trees:
            wall(tree, STEPS["check"], True)
    for _ in range(args.rounds):
        for label, tree, _ in trees:
            for step, step_args in STEPS.items():
                times[label][step].append(wall(tree, step_args, args.pycache))
    lines = [
        "# A small check's cost: start-up, imports, the check",
        "",
        f"`python bench/startup_bench.py{' --before ' + args.before if args.before else ''} --rounds {args.rounds}"
        f"{' --pycache' if args.pycache else ''}`"
        f" on {platform.node()} ({os.cpu_count()} cores), {time.strftime('%Y-%m-%d %H:%M')};"
        f" `{PROGRAM.relative_to(ROOT)}`, medians of {args.rounds} rounds, wall seconds; byte code "
        + ("cached (PYTHONDONTWRITEBYTECODE unset, one warm-up run per tree)."
           if args.pycache else
           f"{'not cached: PYTHONDONTWRITEBYTECODE is set, every import compiles its source' if os.environ.get('PYTHONDONTWRITEBYTECODE') else 'cached as Python does by default'}."),
        "",
        *[f"- {label}: {core}" for label, _, core in trees],
        "",
        "| tree | `python -c pass` | imports beyond it | the rest of the check | `distaff check --timeout 30` |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, _, _ in trees:
        med = {step: statistics.median(v) for step, v in times[label].items()}
        lines.append(f"| {label} | {med['interpreter']:.3f} | {med['imports'] - med['interpreter']:.3f} | "
                     f"{med['check'] - med['imports']:.3f} | {med['check']:.3f} |")
    text = "\n".join(lines) + "\n"
    args.out.write_text(text)
    print(text)
    remove_trees(trees)
    return 0


if __name__ == "__main__":
    sys.exit(main())
