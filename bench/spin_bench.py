"""Spin loops explored once: the programs of ``tests/programs/spin`` (Peterson's,
Dekker's, Szymanski's and Lamport's locks, a ticket lock of three threads,
test-and-test-and-set, an MCS queue lock, a sense-reversing barrier, a
seqlock, each with a broken variant, and two threads spinning on each other)
in every mode, as a user runs them, this checkout against a git revision.

    python bench/spin_bench.py [--before REV] [--timeout 30] [--modes baseline,dpor,dpor-ag]
                               [--out bench/results/spin.md]

Each program is checked by ``python -m distaff check --mode M --timeout T
--format json`` in a fresh process (wall time from start to exit, imports
included). The answer is the program's: ``false`` (an assertion violated),
``stuck`` or ``deadlock`` (a finding of that kind), ``true`` (every assertion
proven), ``bounded`` (no violation within the unwind bound), ``unknown``
(anything else); runs are the sum over its assertions. The header's
``VERDICT``/``FINDING`` lines give the expected answer. Not a test: the
figures depend on the machine; ``tests/symex/test_awaits.py`` checks the
answers.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regress_bench import answer_of as regress_answer  # noqa: E402
from regress_bench import check_json  # noqa: E402
from regress_bench import remove_trees  # noqa: E402
from regress_bench import trees as compared  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs" / "spin"
MODES = ("baseline", "dpor", "dpor-ag")


def expected(path: Path) -> str:
    """The header's answer, ranked as :func:`answer_of` ranks the check's."""
    head = path.read_text().split("*/", 1)[0]
    verdicts = re.findall(r"VERDICT(?: \d+)?:\s*(\S+)", head)
    findings = re.findall(r"FINDING:\s*(\S+)", head)
    if "violated" in verdicts:
        return "false"
    for kind in ("stuck", "deadlock"):
        if kind in findings:
            return kind
    return "true" if verdicts and all(v in ("holds", "unreachable") for v in verdicts) else "?"


def answer_of(doc: dict) -> tuple[str, int]:
    """The program's answer (the gate's, but a stuck thread or a deadlock
    found is the answer when no assertion is violated) and its runs."""
    answer = regress_answer(doc, "assert")
    kinds = {x.get("kind") for f in doc.get("files", []) for x in f.get("findings", [])}
    if answer != "false":
        answer = next((kind for kind in ("stuck", "deadlock") if kind in kinds), answer)
    runs = sum((a.get("stats") or {}).get("runs", 0) for f in doc.get("files", []) for a in f.get("assertions", []))
    return answer, runs


def run(tree: Path | None, path: Path, mode: str, timeout: float) -> dict:
    doc, took, _, error = check_json(tree, ["--mode", mode, str(path)], timeout)
    if doc is None:
        return {"answer": "overrun" if error == "overrun" else "unknown", "runs": None, "time_s": took}
    answer, runs = answer_of(doc)
    return {"answer": answer, "runs": runs, "time_s": took}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default=None, help="git revision to run beside this checkout")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated (default: every mode)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "spin.md")
    args = ap.parse_args(argv)
    trees = compared(args.before)
    rows = []
    for path in sorted(PROGRAMS.glob("*.c")):
        for mode in args.modes.split(","):
            cells = [run(tree, path, mode, args.timeout) for _, tree, _ in trees]
            rows.append((path.stem, mode, expected(path), cells))
            print(path.stem, mode, *[f"{c['answer']} {c['runs']} {c['time_s']}s" for c in cells], flush=True)
    lines = [
        "# Spin loops: tests/programs/spin in every mode",
        "",
        f"`python bench/spin_bench.py{' --before ' + args.before if args.before else ''} --timeout {args.timeout:g}"
        f" --modes {args.modes}`"
        f" on {platform.node()} ({os.cpu_count()} cores), {time.strftime('%Y-%m-%d %H:%M')}; each check a fresh"
        " `distaff check --mode M --format json` process, wall time from start to exit.",
        "",
        *[f"- {label}: {core}" for label, _, core in trees],
        "",
        "| program | mode | expected | " + " | ".join(f"{label}: answer, runs, s" for label, _, _ in trees) + " |",
        "|---|---|---|" + "---|" * len(trees),
    ]
    for name, mode, exp, cells in rows:
        lines.append(f"| {name} | {mode} | {exp} | "
                     + " | ".join(f"{c['answer']}, {c['runs']}, {c['time_s']}" for c in cells) + " |")
    summary = []
    for i, (label, _, _) in enumerate(trees):
        right = sum(1 for _, _, exp, cells in rows if cells[i]["answer"] == exp)
        proofs = sum(1 for _, _, _, cells in rows if cells[i]["answer"] == "true")
        bounded = sum(1 for _, _, _, cells in rows if cells[i]["answer"] == "bounded")
        summary.append(f"- {label}: {right} of {len(rows)} answers as expected, {proofs} proofs, {bounded} bounded")
    lines += ["", *summary, ""]
    args.out.write_text("\n".join(lines))
    print("\n".join(summary))
    remove_trees(trees)
    return 0


if __name__ == "__main__":
    sys.exit(main())
