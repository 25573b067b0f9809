"""Engine benchmark: runs, runs per second and the solver's share of time per
program and exploration mode.

    python bench/engine_bench.py [--modes baseline,dpor,dpor-ag] [--timeout S] [--unwind N]
                                 [--spurious-wakeups] [--out bench/results/engine.md] [PROGRAM.c ...]

Without programs it takes the bundled examples (examples/*.c), the test
programs (tests/programs/**/*.c) and, when present, ../shared/examples/*.c.
Each program is checked in this process, one assertion after the other
(workers=1), once per mode. It prints a markdown table and writes it to
``--out``. Not a test: timings depend on the machine and its load.

Columns: assertions by verdict and findings; runs (full + pruned) summed over
the assertions' sub-checks; runs/s = runs / wall time; steps (instructions
the engine ran) and events (the visible operations among them), each with
its rate per second of exploration (``Stats.rate``); solver share =
solver_time_s / time_s and static share = static_time_s / time_s, summed over
the sub-checks; wall = seconds for the whole file's check.

``--spurious-wakeups`` checks with ``Options.spurious_wakeups``; its cost:
``bench/results/spurious.md`` has the condition-variable programs with it
(``engine.md`` has them without).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from distaff.analysis.check import MODES, Options, check_text  # noqa: E402
from distaff.analysis.report import AssertionResult, Stats  # noqa: E402


def default_programs() -> list[Path]:
    found = sorted((ROOT / "examples").glob("*.c"))
    found += sorted((ROOT / "tests" / "programs").rglob("*.c"))
    found += sorted((ROOT.parent / "shared" / "examples").glob("*.c"))
    return found


def label(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return f"shared/{path.parent.name}/{path.name}" if "shared" in path.parts else str(path)


def measure(path: Path, options: Options) -> dict:
    """One check of one file: verdicts, summed statistics, wall time."""
    text = path.read_text(errors="replace")
    verdicts: Counter[str] = Counter()
    findings: Counter[str] = Counter()
    stats = Stats()
    start = time.perf_counter()
    try:
        for item in check_text(text, str(path), options):
            if isinstance(item, AssertionResult):
                verdicts[item.status.label] += 1
                stats = stats + item.stats
            else:
                findings[item.kind.value] += 1
        error = ""
    except Exception as e:  # a benchmark row, not a crash of the whole table
        error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    wall = time.perf_counter() - start
    return {"verdicts": verdicts, "findings": findings, "stats": stats, "wall": wall, "error": error}


def row(name: str, mode: str, m: dict) -> str:
    if m["error"]:
        return f"| {name} | {mode} | crashed: {m['error']} | | | | | | | | |"
    s: Stats = m["stats"]
    verdicts = ", ".join(f"{n} {k}" for k, n in sorted(m["verdicts"].items())) or "none"
    if m["findings"]:
        verdicts += "; " + ", ".join(f"{n} {k}" for k, n in sorted(m["findings"].items()))
    rate = s.runs / m["wall"] if m["wall"] > 0 else 0.0
    return (f"| {name} | {mode} | {verdicts} | {s.runs} ({s.full_runs} + {s.pruned_runs}) | "
            f"{rate:.1f} | {s.steps} | {s.rate(s.steps):.0f} | {s.events} | {s.rate(s.events):.0f} | "
            f"{_percent(s.share(s.solver_time_s))} | {_percent(s.share(s.static_time_s))} | {m['wall']:.2f} |")


def _percent(x: float) -> str:
    return f"{100 * x:.0f} %"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per assertion")
    parser.add_argument("--unwind", type=int, default=Options().unwind)
    parser.add_argument("--spurious-wakeups", action="store_true")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "engine.md"))
    parser.add_argument("programs", nargs="*", type=Path)
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    programs = args.programs or default_programs()

    import z3

    lines = [
        "# Engine benchmark",
        "",
        f"`python bench/engine_bench.py --timeout {args.timeout:g} --unwind {args.unwind}"
        f"{' --spurious-wakeups' if args.spurious_wakeups else ''}` on "
        f"{platform.machine()} {platform.system()}, Python {platform.python_version()}, "
        f"z3 {z3.get_version_string()}, {time.strftime('%Y-%m-%d')}; one worker, "
        f"timeout {args.timeout:g} s per assertion; load average at start "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (the machine is shared: rates vary).",
        "",
        "| program | mode | verdicts | runs (full + pruned) | runs/s | steps | steps/s | events | events/s "
        "| solver share | static share | wall s |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    print("\n".join(lines), flush=True)
    for path in programs:
        for mode in modes:
            options = Options(mode=mode, unwind=args.unwind, timeout_s=args.timeout, workers=1,
                              spurious_wakeups=args.spurious_wakeups)
            line = row(label(path), mode, measure(path, options))
            lines.append(line)
            print(line, flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
