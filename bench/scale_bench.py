"""The scale issue's programs (bench/scale): verdict, runs and wall time of
each assertion in every mode, with twins and free waits on (the default) and
off, in one run. Writes bench/results/scale.md.

    python bench/scale_bench.py [--timeout S] [--modes dpor,dpor-ag,rf] [--out FILE]

Each program runs as the command line runs it (``distaff check FILE --format
json --no-findings``, a project through its compile_commands.json), so the
time is a user's: the process, the front end and the static analyses
included. Compare the columns as ratios: the machines here are shared.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCALE = ROOT / "bench" / "scale"
# (what to check, the directory to run in)
PROGRAMS = [(p.name, SCALE) for p in sorted(SCALE.glob("*.c"))] + [("worker.c", SCALE / "queue3_project")]
OFF = ["--disable", "symmetry", "--disable", "free_waits"]


def run(file: str, cwd: Path, mode: str, extra: list[str], timeout: float) -> list[dict]:
    argv = [sys.executable, "-m", "distaff", "check", file, "--mode", mode, "--no-findings", "--format", "json",
            "--timeout", str(timeout), *extra]
    t0 = time.monotonic()
    out = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout + 60)
    wall = time.monotonic() - t0
    doc = json.loads(out.stdout)
    rows = []
    for f in doc["files"]:
        for a in f["assertions"]:
            rows.append({"assertion": f"{Path(a['path']).name}:{a['line']}", "status": a["status"],
                         "runs": a["stats"]["runs"], "time_s": a["stats"]["time_s"], "wall_s": round(wall, 2)})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--modes", default="dpor,dpor-ag,rf")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "scale.md"))
    args = ap.parse_args()
    lines = [
        "# The scale issue's programs",
        "",
        f"`python bench/scale_bench.py --timeout {args.timeout:g} --modes {args.modes}` on {platform.machine()} "
        f"{platform.system()}, Python {platform.python_version()}, {date.today()}. Each cell: verdict, runs, "
        "the sub-check's time (s); *on* is the default (twins and free waits), *off* is "
        "`--disable symmetry --disable free_waits`. The command's wall time is the last figure.",
        "",
        "| program | assertion | mode | on | off |",
        "|---|---|---|---|---|",
    ]
    for file, cwd in PROGRAMS:
        for mode in args.modes.split(","):
            on = run(file, cwd, mode, [], args.timeout)
            off = run(file, cwd, mode, OFF, args.timeout)
            for a, b in zip(on, off):
                cell = lambda r: f"{r['status']}, {r['runs']:,}, {r['time_s']:.2f} ({r['wall_s']:.1f} wall)"
                lines.append(f"| {cwd.name if cwd != SCALE else ''}{'/' if cwd != SCALE else ''}{file} "
                             f"| {a['assertion']} | {mode} | {cell(a)} | {cell(b)} |")
                print(lines[-1], flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
