"""Engine speed, before and after: one revision against this checkout, in one run.

    python bench/speed_bench.py --before REV [--modes dpor,dpor-ag] [--timeout S] [--repeat N] [--findings]
                                [--out bench/results/speed.md] [PROGRAM.c ...]

``REV`` is checked out into a temporary git worktree; each program is then
checked in a fresh process by the old tree and by this one, one after the
other (so both meet the same load), once per mode, with one worker; with
``--repeat N`` a row both trees finished is measured N times, alternating,
and each tree's fastest measurement is kept (the machine is shared: a
single measurement may meet another job's load). Without
programs it takes Table 2's corpus (``bench/table2/programs``, with each
header's UNWIND), the bundled examples and ``bench/speed/programs`` (8 to 16
threads, loops over constants).

Without ``--findings`` the checks run no search for findings after the
assertions; with it they do, as the command line does (how it ended and its
runs are then part of what must agree).

Per row: whether the two agree (every assertion's verdict and run count),
CPU seconds of the check before and after (parse, static analyses and
exploration, without printing summaries, as the command line's text output;
a small two-thread check runs first so that imports and first-use set-up are
not measured), and steps per second of the
sub-checks' own time (``Stats.time_s``; the steps are the new tree's count:
with identical runs both trees execute the same instructions, and an old
tree that does not count steps still has its time measured). A row whose
sub-check ran out of its budget in either tree (within 5 % of it) has no
speed-up: the two trees did different work in the same time. The summary
gives the median speed-up in steps per second over the other rows, and the
ratio of total CPU time over Table 2's programs, without and with the rows
that ran out of budget.

This checkout runs its compiled core (distaff/core.py) when `pip install -e .`
built it from the sources as they are, and its sources otherwise; the last
line names the core each tree ran.

Not a test: timings depend on the machine and its load; ratios measured in
one run are what to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def default_programs() -> list[Path]:
    found = sorted((ROOT / "bench" / "table2" / "programs").glob("*.c"))
    found += sorted((ROOT / "examples").glob("*.c"))
    found += sorted((ROOT / "bench" / "speed" / "programs").glob("*.c"))
    return found


def unwind_of(text: str, default: int) -> int:
    for line in text.splitlines()[:20]:
        line = line.strip(" */")
        if line.startswith("UNWIND:"):
            return int(line.split(":")[1].split()[0])
    return default


# run in a child process with the tree under test first on sys.path
_MEASURE = r"""
import importlib, json, os, sys, time
sys.path.insert(0, sys.argv[1])
# trees from before the code was installed as distaff.* name it analysis.*
pkg = "distaff.analysis" if os.path.isdir(os.path.join(sys.argv[1], "distaff")) else "analysis"
check_mod = importlib.import_module(pkg + ".check")
assert os.path.realpath(check_mod.__file__).startswith(os.path.realpath(sys.argv[1])), check_mod.__file__
Options, check_text = check_mod.Options, check_mod.check_text
AssertionResult = importlib.import_module(pkg + ".report").AssertionResult
path, mode, unwind, timeout = sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
search = sys.argv[6] == "findings"
# threads, a mutex, an input, an assumption and an assertion: the engine's
# common paths run once (imports, Python's specialisation of hot code, lazily
# built tables) before the measured check
WARM_UP = "\n".join([
    "#include <pthread.h>", "#include <assert.h>",
    "extern int __VERIFIER_nondet_int(void);", "extern void __VERIFIER_assume(int);",
    "int g;", "pthread_mutex_t m;",
    "void *bump(void *a) { pthread_mutex_lock(&m); g = g + 1; pthread_mutex_unlock(&m); return 0; }",
    "int main(void) {",
    "    int x = __VERIFIER_nondet_int();", "    __VERIFIER_assume(x > 0 && x < 9);", "    g = x;",
    "    pthread_t t;", "    pthread_mutex_init(&m, 0);", "    pthread_create(&t, 0, bump, 0);", "    bump(0);",
    "    pthread_join(t, 0);", "    assert(g == x + 2);", "    return 0;", "}"])
text = open(path).read()
# as the command line's text output: the summaries learned are not printed
options = Options(mode=mode, unwind=unwind, timeout_s=timeout, workers=1, findings=search, summary_text=False)
# imports and first-use set-up happen here, outside the measurement
list(check_text(WARM_UP, "warm-up.c", options))
cpu, wall = time.process_time(), time.perf_counter()
out, searched = [], None
for item in check_text(text, path, options):
    if type(item).__name__ == "FindingsSearch":
        searched = [item.end.name, item.runs]
    if isinstance(item, AssertionResult):
        s = item.stats
        out.append([item.span.line, item.status.name, item.reason.name if item.reason else None,
                    s.runs, getattr(s, "steps", 0), getattr(s, "events", 0), s.time_s])
try:  # trees from before the compiled core have none (an installed checkout's may answer)
    core_mod = importlib.import_module("distaff.core")
    core = core_mod.STATE if os.path.realpath(core_mod.__file__).startswith(os.path.realpath(sys.argv[1])) else None
except ImportError:
    core = None
core = core or "pure Python, no compiled core"
print(json.dumps({"assertions": out, "search": searched, "cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
                  "core": core}))
"""


def measure(tree: Path, path: Path, mode: str, unwind: int, timeout: float, findings: bool = False) -> dict:
    proc = subprocess.run([sys.executable, "-c", _MEASURE, str(tree), str(path), mode, str(unwind), str(timeout),
                           "findings" if findings else "none"],
                          capture_output=True, text=True, cwd=tree)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def label(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def finished(m: dict, timeout: float) -> bool:
    """Every sub-check ran to its end: none was stopped by its budget, nor
    answered from a shallower bound when the budget ran out in a deeper one
    ("holds within unwind 2; unwind 4 unfinished", reported with the
    finished pass's runs: its steps per second would compare unlike work)."""
    return "error" not in m and all(a[2] != "TIMEOUT" and a[6] < 0.95 * timeout for a in m["assertions"])


def fastest(x: dict, y: dict) -> dict:
    """Of two measurements of one check by one tree, the one whose
    sub-checks took less time; an error when they disagree (a check is
    deterministic unless a budget cut it short)."""
    if "error" in x:
        return x
    if "error" in y:
        return y
    if not agree(x, y):
        return {"error": "verdicts or runs changed between repeats"}
    return x if sum(v[6] for v in x["assertions"]) <= sum(v[6] for v in y["assertions"]) else y


def agree(b: dict, a: dict) -> bool:
    """Same verdicts and run counts, assertion by assertion."""
    if "error" in b or "error" in a:
        return False
    return [x[:4] for x in b["assertions"]] == [x[:4] for x in a["assertions"]] \
        and b.get("search") == a.get("search")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="git revision to compare with")
    ap.add_argument("--modes", default="dpor,dpor-ag")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per assertion")
    ap.add_argument("--unwind", type=int, default=8, help="unless a program's header sets one")
    ap.add_argument("--repeat", type=int, default=1,
                    help="measure each finished row this many times, alternating the trees, and keep each "
                         "tree's fastest (rows out of budget are measured once)")
    ap.add_argument("--findings", action="store_true",
                    help="also run the search for findings after the assertions, as the command line does "
                         "(its end and runs must agree too)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "speed.md"))
    ap.add_argument("programs", nargs="*", type=Path)
    args = ap.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    programs = args.programs or default_programs()
    rev = subprocess.run(["git", "rev-parse", "--short", args.before], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix="distaff-before-"))
    old = tmp / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(old), rev], cwd=ROOT, check=True)
    import z3

    started = time.time()
    repeated = (f", {args.repeat} times each (alternating; each tree's fastest kept) where both finished"
                if args.repeat > 1 else "")
    lines = [
        "# Engine speed: before and after",
        "",
        f"`python bench/speed_bench.py --before {args.before} --modes {args.modes} --timeout {args.timeout:g}"
        f"{f' --repeat {args.repeat}' if args.repeat > 1 else ''}{' --findings' if args.findings else ''}` "
        f"on {platform.machine()} {platform.system()}, Python {platform.python_version()}, "
        f"z3 {z3.get_version_string()}, {time.strftime('%Y-%m-%d')}: before = {rev}, after = {head} "
        "(with any uncommitted changes); each check in a fresh process, one worker, the two trees "
        f"one after the other{repeated}; load average {os.getloadavg()[0]:.1f} at the start on {os.cpu_count()} cores.",
        "",
        "*same*: every assertion's verdict and run count agree. *CPU s*: process time of the whole "
        "check after a warm-up. *steps/s*: the after tree's steps (instructions the engine ran) per second of "
        "each tree's sub-checks.",
        "",
        "| program | mode | same | runs | steps | before CPU s | after CPU s | before steps/s | after steps/s | speed-up |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    print("\n".join(lines), flush=True)
    ratios, t2_before, t2_after, same, total = [], 0.0, 0.0, 0, 0
    cores: dict[str, set] = {"before": set(), "after": set()}  # which core each tree ran
    all_before = all_after = 0.0  # Table 2's rows that agree, budget-bound ones included
    try:
        for path in programs:
            unwind = unwind_of(path.read_text(errors="replace"), args.unwind)
            for mode in modes:
                b = measure(old, path.resolve(), mode, unwind, args.timeout, args.findings)
                a = measure(ROOT, path.resolve(), mode, unwind, args.timeout, args.findings)
                for _ in range(args.repeat - 1):
                    if not (agree(b, a) and finished(a, args.timeout) and finished(b, args.timeout)):
                        break
                    b = fastest(b, measure(old, path.resolve(), mode, unwind, args.timeout, args.findings))
                    a = fastest(a, measure(ROOT, path.resolve(), mode, unwind, args.timeout, args.findings))
                total += 1
                cores["before"].update([b["core"]] if "core" in b else [])
                cores["after"].update([a["core"]] if "core" in a else [])
                ok = agree(b, a)
                same += ok
                if "error" in a or "error" in b:
                    line = f"| {label(path)} | {mode} | no | crashed: {(a.get('error') or b.get('error'))[:80]} | | | | | | |"
                else:
                    runs = sum(x[3] for x in a["assertions"])
                    steps = sum(x[4] for x in a["assertions"])
                    tb = sum(x[6] for x in b["assertions"])
                    ta = sum(x[6] for x in a["assertions"])
                    rb = steps / tb if tb > 0 else 0.0
                    ra = steps / ta if ta > 0 else 0.0
                    # the old tree's steps are only known to be the new one's when the runs agree
                    both = finished(a, args.timeout) and finished(b, args.timeout) and ok
                    if both and rb > 0:
                        ratios.append(ra / rb)
                    if both and "table2" in path.parts:
                        t2_before += b["cpu"]
                        t2_after += a["cpu"]
                    if ok and "table2" in path.parts:
                        all_before += b["cpu"]
                        all_after += a["cpu"]
                    speed = f"{ra / rb:.2f}x" if both and rb > 0 else ("(out of budget)" if ok else "(runs differ)")
                    line = (f"| {label(path)} | {mode} | {'yes' if ok else 'NO'} | {runs} | {steps} | "
                            f"{b['cpu']:.2f} | {a['cpu']:.2f} | {rb:.0f} | {ra:.0f} | {speed} |")
                lines.append(line)
                print(line, flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT)
        shutil.rmtree(tmp, ignore_errors=True)
    median = statistics.median(ratios) if ratios else 0.0
    t2 = t2_before / t2_after if t2_after > 0 else 0.0
    summary = [
        "",
        f"{same} of {total} rows agree in every verdict and run count. Median speed-up in steps per "
        f"second over the rows that agree and both trees finished: {median:.2f}x ({len(ratios)} rows). Table 2's "
        f"programs, rows that agree and both finished: {t2_before:.1f} CPU s before, {t2_after:.1f} after ({t2:.2f}x); "
        f"every row that agrees, those stopped by their budget included: {all_before:.1f} before, {all_after:.1f} "
        f"after ({(all_before / all_after if all_after > 0 else 0.0):.2f}x). {time.time() - started:.0f} s in all.",
        "",
        f"Core (distaff/core.py): before {'; '.join(sorted(cores['before']))}; "
        f"after {'; '.join(sorted(cores['after']))}.",
    ]
    lines += summary
    print("\n".join(summary), flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
