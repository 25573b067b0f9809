"""GenMC's data-structure tests (``tests/correct/data-structures`` of a GenMC
checkout: 26 directories, 27 variant files) lowered and checked by distaff as
a user runs them: from the GenMC checkout's root, with the ``-I`` and ``-D``
flags of the directory's ``args.sc.mo.in`` (``args.in`` when there is none;
what follows its ``|``, GenMC's own options before it are left out):

    python bench/genmc_datastructures.py [--genmc /work/peers/genmc] [--timeout 30]
                                         [--out bench/results/genmc_datastructures.md]

Each variant is checked by ``python -m distaff check --format json --workers 1
--timeout T FLAGS FILE`` in a fresh process. Every program is a correct one
(GenMC's ``correct/``: every assertion holds, no error): ``violated``, a
deadlock or a run-time error would be a wrong answer, ``unknown`` (undecided,
a budget ran out) is not. The table says how many constructs the front end
reported unsupported (the goal: none), the assertions' answers, the findings
and the wall time. Skipped (exit 0, a message) when the GenMC checkout is not
there. Not a test: the times depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENMC = Path(os.environ.get("GENMC_SRC", "/work/peers/genmc"))
SUBDIR = Path("tests") / "correct" / "data-structures"


def flags_of(directory: Path) -> list[str]:
    """The -I and -D flags GenMC's test harness gives the directory's
    variants under SC (what follows ``|`` in its args file)."""
    for name in ("args.sc.mo.in", "args.in"):
        p = directory / name
        if p.exists():
            text = p.read_text().splitlines()[0] if p.read_text().strip() else ""
            _, bar, after = text.partition("|")
            return [f for f in shlex.split(after) if f.startswith(("-I", "-D"))] if bar else []
    return []


def check(genmc: Path, src: Path, flags: list[str], timeout: float) -> dict:
    cmd = [sys.executable, "-m", "distaff", "check", "--format", "json", "--workers", "1",
           "--timeout", str(timeout), *flags, str(src.relative_to(genmc))]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=genmc, env=env, capture_output=True, text=True, timeout=timeout + 120)
    wall = time.perf_counter() - start
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": (done.stderr or done.stdout).strip().splitlines()[-1:], "wall": wall, "exit": done.returncode}
    f = data["files"][0]
    statuses = [a["status"] for a in f["assertions"]]
    findings = [x for x in f["findings"]]
    return {
        "unsupported": sum(1 for x in findings if x["kind"] == "unsupported"),
        "syntax": sum(1 for x in findings if x["kind"] == "syntax"),
        "statuses": statuses,
        "findings": sorted({x["kind"] for x in findings if x["kind"] not in ("unsupported", "syntax")}),
        "runs": sum(a["stats"]["runs"] for a in f["assertions"]),
        "wall": wall,
        "exit": done.returncode,
        "searched": f.get("findings_search"),
    }


def answer(row: dict) -> str:
    if "error" in row:
        return "error: " + " ".join(row["error"])
    s = row["statuses"]
    bad = [k for k in row["findings"] if k in ("deadlock", "error", "stuck", "data-race")]
    if "violated" in s or bad:
        return "WRONG: " + ", ".join((["violated"] if "violated" in s else []) + bad)
    if not s:
        return "no assertion"
    if all(x in ("holds", "unreachable") for x in s):
        return "holds"
    return ", ".join(sorted(set(s)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--genmc", type=Path, default=GENMC, help="a GenMC source checkout")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per program (distaff's --timeout)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "genmc_datastructures.md")
    args = ap.parse_args(argv)
    base = args.genmc / SUBDIR
    if not base.is_dir():
        print(f"skipped: no GenMC data-structure tests at {base}")
        return 0
    rows = []
    for d in sorted(p for p in base.iterdir() if p.is_dir()):
        flags = flags_of(d)
        for v in sorted((d / "variants").glob("*.c")):
            row = check(args.genmc, v, flags, args.timeout)
            row.update(name=d.name, variant=v.name, flags=" ".join(flags))
            rows.append(row)
            print(f"{d.name}/{v.name}: {answer(row)} ({row['wall']:.1f} s)", flush=True)
    lowered = sum(1 for r in rows if "error" not in r and r["unsupported"] == 0 and r["syntax"] == 0)
    wrong = [r for r in rows if answer(r).startswith(("WRONG", "error"))]
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    lines = [
        "# GenMC's data-structure tests lowered and checked",
        "",
        f"`python bench/genmc_datastructures.py --timeout {args.timeout:g}` at {head} on {platform.machine()} "
        f"{platform.system()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}: each variant of "
        f"`{SUBDIR}` of GenMC's checkout, from its root, as "
        f"`python -m distaff check --format json --workers 1 --timeout {args.timeout:g} FLAGS FILE`, "
        "FLAGS the -I and -D flags of the directory's `args.sc.mo.in` (GenMC's harness's, under SC). "
        "Every program is a correct one: a violation, deadlock or run-time error would be a wrong answer.",
        "",
        f"**{lowered} of {len(rows)}** lower with no unsupported construct; **{len(wrong)}** answered wrongly.",
        "",
        "| program | variant | flags | unsupported | assertions | answer | findings | runs | wall s |",
        "|---|---|---|---:|---|---|---|---:|---:|",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['name']} | {r['variant']} | `{r['flags']}` | - | - | {answer(r)} | - | - | "
                         f"{r['wall']:.1f} |")
            continue
        counts = ", ".join(f"{r['statuses'].count(s)} {s}" for s in sorted(set(r["statuses"]))) or "none"
        fs = ", ".join(r["findings"]) or "none"
        search = r.get("searched") or {}
        if isinstance(search, dict) and search.get("complete") is False:
            fs += f" (search: {search.get('message', 'incomplete')})"
        flags = f"`{r['flags']}`" if r["flags"] else ""
        lines.append(f"| {r['name']} | {r['variant']} | {flags} | {r['unsupported'] + r['syntax']} | {counts} | "
                     f"{answer(r)} | {fs} | {r['runs']} | {r['wall']:.1f} |")
    lines += [
        "",
        "What these programs needed of the front end: qspinlock's `<linux/...>`, `<asm/...>` and "
        "`<asm-generic/...>` headers are its own, read from its -I directories, and its `fake.h` takes an "
        "atomic's plain type with `_Generic`; nine include `<genmc.h>`, which distaff models (annotations "
        "as the code they wrap, `__VERIFIER_optional` blocks skipped, hazard pointers with GenMC's meaning: "
        "ms-queue-dynamic and treiber-stack-dynamic). \"no assertion\": the program checks no assertion of "
        "its own (GenMC looks for errors and races there); its answer is then the search for deadlocks and "
        "run-time errors', whose budget (10 s by default) the findings column says when it ran out.",
    ]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{lowered}/{len(rows)} lower with no unsupported construct; {len(wrong)} wrong; wrote {args.out}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
