"""How much of the repository's C the front end lowers and the checks decide,
before and after: one revision against this checkout, in one run.

    python bench/frontend_bench.py [--before REV] [--timeout S] [--jobs N]
                                   [--out bench/results/frontend.md] [PROGRAM.c ...]

Without programs it takes every C program of ``tests/programs`` (with its
subfolders), ``examples`` and ``bench`` (Table 2's and the speed programs).
``REV`` is exported with ``git archive`` into a temporary folder (no
worktree is made); each program is then lowered and checked in a fresh
process by the old tree and by this one.

Per program and tree:

* *lowers*: the front end reports no syntax error and no unsupported
  construct (with the flags of the program's compile_commands.json, as
  ``distaff check`` finds them);
* *decided*: its check (mode dpor-ag, the header's UNWIND or 8, one worker,
  ``--timeout`` seconds a sub-check and four times that for the whole)
  leaves no assertion undecided (a proof, a violation or an answer within
  the bound) and the search for deadlocks and run-time errors reports
  nothing it cannot vouch for. A program that does not lower
  is not decided, nor is one whose measurement failed (the process is
  capped at 4 GB and stopped at six times ``--timeout`` and 30 s).

The table gives, per folder, how many programs lower and how many are
decided in each tree; the programs whose row changed are listed. Not a test:
a check that runs out of time is undecided, and time depends on the machine.
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def default_programs() -> list[Path]:
    found = sorted((ROOT / "tests" / "programs").rglob("*.c"))
    found += sorted((ROOT / "examples").glob("*.c"))
    found += sorted((ROOT / "bench").rglob("*.c"))
    return found


def unwind_of(text: str, default: int = 8) -> int:
    for line in text.split("*/", 1)[0].splitlines():
        line = line.strip(" */")
        if line.startswith("UNWIND:"):
            return int(line.split(":")[1].split()[0])
    return default


def group_of(path: Path) -> str:
    rel = path.relative_to(ROOT)
    parts = rel.parts
    if parts[:2] == ("tests", "programs"):
        return "/".join(parts[:3]) if len(parts) > 3 else "tests/programs"
    if parts[0] == "bench":
        return "/".join(parts[:2])
    return parts[0]


# run in a child process with the tree under test first on sys.path
_MEASURE = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
from distaff.analysis.check import Options, check
from distaff.analysis.frontend.build_flags import flags_for
from distaff.analysis.report import AssertionResult, Finding, Status
from distaff.server.api import parse_file
import distaff.analysis.check as check_mod
assert os.path.realpath(check_mod.__file__).startswith(os.path.realpath(sys.argv[1])), check_mod.__file__
path, unwind, timeout = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
text = open(path, encoding="utf-8", errors="replace").read()
try:
    flags = flags_for(path, None)
except Exception:
    flags = None
options = Options(unwind=unwind, timeout_s=timeout, total_timeout_s=4 * timeout, workers=1, summary_text=False)
program = parse_file(path, text, options.data_model, flags)
front = [f"{f.kind.value}: {f.message} (line {f.span.line})" for f in program.findings
         if f.kind.value in ("syntax", "unsupported")]
print(json.dumps({"front": front}), flush=True)  # known even if the check is stopped
undecided, vouchless, decided = [], [], 0
if not front:
    known = {(f.kind.value, f.span, f.message) for f in program.findings}
    for item in check(program, options):
        if isinstance(item, AssertionResult):
            if item.status is Status.UNKNOWN:
                undecided.append(f"line {item.span.line}: {item.reason.value if item.reason else ''}")
            else:
                decided += 1
        elif isinstance(item, Finding) and item.kind.value == "unsupported" \
                and (item.kind.value, item.span, item.message) not in known:
            vouchless.append(f"line {item.span.line}: {item.message}")
print(json.dumps({"undecided": undecided, "vouchless": vouchless, "decided": decided}))
"""


MEMORY_LIMIT = 4 << 30  # bytes of address space a measurement may take


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def measure(tree: Path, path: Path, timeout: float) -> dict:
    """One program in one tree, in a process capped in memory and stopped
    past its budget (a solver phase may ignore the check's own deadline)."""
    unwind = unwind_of(path.read_text(errors="replace"))
    try:
        proc = subprocess.run([sys.executable, "-c", _MEASURE, str(tree), str(path), str(unwind), str(timeout)],
                              capture_output=True, text=True, cwd=tree, timeout=6 * timeout + 30,
                              preexec_fn=_limit_memory)
        out, error = proc.stdout, None
        if proc.returncode != 0:
            error = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    except subprocess.TimeoutExpired as stopped:
        out = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else stopped.stdout or ""
        error = "stopped past its time budget"
    row: dict = {}
    for line in out.strip().splitlines():
        if line.startswith("{"):
            row.update(json.loads(line))
    if error is not None:
        row["error"] = error
    return row


def verdict(row: dict) -> tuple[bool, bool]:
    """(lowers, decided) of a measurement (one that failed is not decided;
    it lowers when the front end had answered)."""
    lowers = "front" in row and not row["front"]
    if "error" in row:
        return lowers, False
    return lowers, lowers and not row["undecided"] and not row["vouchless"]


def export(rev: str, into: Path) -> None:
    data = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="tar")


def why(row: dict) -> str:
    if row.get("front"):
        return row["front"][0] + (f" (+{len(row['front']) - 1} more)" if len(row["front"]) > 1 else "")
    if "error" in row:
        return f"check {row['error']}"
    if row["undecided"]:
        return "undecided: " + ", ".join(row["undecided"][:2])
    if row["vouchless"]:
        return "a finding not vouched for: " + row["vouchless"][0]
    return "decided"


def table(paths: list[Path], before: dict | None, after: dict) -> list[str]:
    groups: dict[str, list[Path]] = {}
    for p in paths:
        groups.setdefault(group_of(p), []).append(p)
    head = "| programs | count | lower (before) | lower (after) | decided (before) | decided (after) |"
    lines = [head, "|---|---:|---:|---:|---:|---:|"]
    totals = [0, 0, 0, 0, 0]
    for name in sorted(groups):
        ps = groups[name]
        b = [verdict(before[p]) for p in ps] if before else [(False, False)] * len(ps)
        a = [verdict(after[p]) for p in ps]
        row = [len(ps), sum(x[0] for x in b), sum(x[0] for x in a), sum(x[1] for x in b), sum(x[1] for x in a)]
        totals = [t + r for t, r in zip(totals, row)]
        shown = [str(row[0])] + [str(v) if before or k % 2 == 1 else "" for k, v in enumerate(row[1:])]
        lines.append(f"| {name} | " + " | ".join(shown) + " |")
    shown = [str(totals[0])] + [str(v) if before or k % 2 == 1 else "" for k, v in enumerate(totals[1:])]
    lines.append("| **all** | " + " | ".join(f"**{s}**" if s else "" for s in shown) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default=None, metavar="REV")
    ap.add_argument("--timeout", type=float, default=20.0, metavar="S")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None)
    ap.add_argument("programs", nargs="*", type=Path)
    args = ap.parse_args(argv)
    paths = [p.resolve() for p in args.programs] or default_programs()
    with tempfile.TemporaryDirectory() as tmp:
        trees = [("after", ROOT)]
        if args.before:
            old = Path(tmp) / "before"
            export(args.before, old)
            trees.insert(0, ("before", old))
        results: dict[str, dict] = {name: {} for name, _ in trees}
        jobs = [(name, tree, p) for p in paths for name, tree in trees]
        with ThreadPoolExecutor(args.jobs) as pool:
            for (name, _, p), row in zip(jobs, pool.map(lambda j: measure(j[1], j[2], args.timeout), jobs)):
                results[name][p] = row
                print(f"{name:6} {p.relative_to(ROOT)}: {why(row)}", file=sys.stderr, flush=True)
    before = results.get("before")
    lines = [f"Front-end coverage and decided checks over {len(paths)} programs "
             f"(`python bench/frontend_bench.py{' --before ' + args.before if args.before else ''}"
             f" --timeout {args.timeout:g}`).", "",
             "*lower*: no syntax error and no unsupported construct; *decided*: no assertion undecided (an "
             "answer within the unwind bound counts) and no finding left unvouched, mode dpor-ag, the header's "
             f"UNWIND or 8, {args.timeout:g} s a sub-check.", ""]
    lines += table(paths, before, results["after"])
    if before:
        changed = [p for p in paths if verdict(before[p]) != verdict(results["after"][p])]
        lines += ["", f"Programs whose row changed ({len(changed)}):", ""]
        lines += [f"- `{p.relative_to(ROOT)}`: {why(before[p])} -> {why(results['after'][p])}" for p in changed]
    left = [p for p in paths if not verdict(results["after"][p])[1]]
    lines += ["", f"Not decided after ({len(left)}):", ""]
    lines += [f"- `{p.relative_to(ROOT)}`: {why(results['after'][p])}" for p in left]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
