"""Programs that start threads without end, checked with and without the
thread-modular prover (issue 53): which assertions are proved for any number
of threads, in how long, and what stays undecided and why.

    python bench/modular_bench.py [--timeout 30] [--out bench/results/modular.md] [FILE ...]

Each program (``tests/programs/modular/*.c`` unless files are given; each
assertion's expected verdict in its ``VERDICT line: v`` header) is checked by
``python -m distaff check --format json --workers 1 --timeout T FILE`` in a
fresh process, once as a user runs it and once with ``--disable
thread_modular`` (exploring alone). The table gives each assertion's answer
and how it came (``prover`` when the statistics count
``thread_modular_proved``), the prover's milliseconds, the runs, and each
command's wall time (which includes the search for deadlocks and run-time
errors after the assertions, 10 s at most). For each program the prover
proved nothing in, the reason it gave (``prove(program).abstained``) is
listed.

A second table checks each assertion from its own statement (``--from
LINE --no-findings --disable context_confirm``: the context alone), with
the prover's bounds in the context and with ``--disable thread_modular``:
an assertion that holds may hold from its statement only with them, one
that fails must stay violated. Not a test: the times depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def from_here(path: Path, line: int, timeout: float, *extra: str) -> dict:
    """The check of ``path`` from the statement on ``line``: the answer for
    that line's assertion, its runs, whether it rests on values the context
    does not know, and how many values the context bounded."""
    out = check(path, timeout, "--from", str(line), "--no-findings", "--disable", "context_confirm", *extra)
    a = out["assertions"][line]
    return {**a, "wall": out["wall"]}


def check(path: Path, timeout: float, *extra: str) -> dict:
    cmd = [sys.executable, "-m", "distaff", "check", "--format", "json", "--workers", "1",
           "--timeout", str(timeout), *extra, str(path)]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=timeout * 4 + 120)
    wall = time.perf_counter() - start
    out = {"wall": wall, "assertions": {}}
    for a in json.loads(done.stdout)["files"][0]["assertions"]:
        counters = a["stats"].get("counters", {})
        out["assertions"][a["line"]] = {
            "status": a["status"], "runs": a["stats"]["runs"],
            "prover": bool(counters.get("thread_modular_proved")), "ms": counters.get("thread_modular_ms"),
            "invariants": a.get("invariants", []), "bounded": counters.get("context_invariants", 0),
            "possible": any(d.startswith("context:") for d in a.get("depends_on", [])),
        }
    return out


def said(a: dict) -> str:
    return f"{a['status']}{' (possible)' if a['possible'] else ''}"


def runs(n: int) -> str:
    return f"{n:,} run{'s' if n != 1 else ''}"


def abstained(path: Path) -> str:
    from distaff.analysis.frontend import parse_program
    from distaff.analysis.modular.prover import prove
    return prove(parse_program(path.read_text(), str(path))).abstained


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    files = args.files or sorted((ROOT / "tests" / "programs" / "modular").glob("*.c"))
    rows, notes, proved, expected_holds, violated, found = [], [], 0, 0, 0, 0
    context_rows, context_holds = [], 0
    started = time.perf_counter()
    for path in files:
        expected = {int(n): v for n, v in re.findall(r"VERDICT (\d+): (\w+)", path.read_text())}
        with_prover = check(path, args.timeout)
        alone = check(path, args.timeout, "--disable", "thread_modular")
        for line in sorted(with_prover["assertions"]):
            a, b = with_prover["assertions"][line], alone["assertions"][line]
            want = expected.get(line, "?")
            expected_holds += want == "holds"
            violated += want == "violated"
            found += want == "violated" and a["status"] == "violated"
            proved += a["prover"]
            how = f"prover, {a['ms']} ms" if a["prover"] else "exploring"
            mark = "✓" if a["status"] == want else "✗"
            rows.append(f"| {path.name}:{line} | {want} | {a['status']} {mark} ({how}; {runs(a['runs'])}) "
                        f"| {with_prover['wall']:.1f} | {b['status']} ({runs(b['runs'])}) | {alone['wall']:.1f} |")
            c, d = from_here(path, line, args.timeout), from_here(path, line, args.timeout, "--disable", "thread_modular")
            context_holds += want == "holds" and c["status"] == "holds"
            context_rows.append(f"| {path.name}:{line} | {want} | {said(c)} ({c['bounded']} bounded; {runs(c['runs'])}) "
                                f"| {c['wall']:.1f} | {said(d)} ({runs(d['runs'])}) | {d['wall']:.1f} |")
        why = abstained(path)
        if why:
            notes.append(f"- {path.name}: the prover abstained: {why}")
    text = [
        "# Threads without end: the thread-modular prover",
        "",
        f"`python bench/modular_bench.py --timeout {args.timeout:g}` on {platform.machine()} {platform.system()}, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}; {len(files)} programs, "
        f"{time.perf_counter() - started:.0f} s in all. Wall seconds are the whole command's, with the search for "
        "deadlocks and run-time errors after the assertions (10 s at most).",
        "",
        f"Proved for any number of threads: **{proved}** of the {expected_holds} assertions whose header says "
        f"`holds`; violations found (by exploring): {found} of {violated}.",
        "",
        "| assertion | expected | distaff (default) | wall s | `--disable thread_modular` | wall s |",
        "|---|---|---|---:|---|---:|",
        *rows,
        "",
        *(["What the prover left to exploring:", "", *notes, ""] if notes else []),
        "## Check from here",
        "",
        f"Each assertion checked from its own statement, the context alone: **{context_holds}** of the "
        f"{expected_holds} that hold are proved there with the prover's bounds in the context. \"possible\": "
        "a violation that rests on values the context does not know.",
        "",
        "| from the assertion | expected | distaff (default) | wall s | `--disable thread_modular` | wall s |",
        "|---|---|---|---:|---|---:|",
        *context_rows,
        "",
    ]
    out = "\n".join(text) + "\n"
    if args.out:
        args.out.write_text(out)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
