"""The floating-point differential test: generated C expressions, distaff's
results against gcc's native run of them.

    python bench/differential_float.py [--expressions 10000] [--seed 0] [--batch 200]
                                       [--workers 2] [--out bench/out/differential_float.jsonl]
                                       [--results bench/results/differential_float.md]
                                       [--long-double] [--variants concrete,symbolic]

Batch *i* is drawn from seed *K + i* (``--seed K``) by
``tests/frontend/float_exprs.py``: ``--batch`` expressions (float and
double, mixed with int, unsigned, long and unsigned long operands; ``+ - *
/``, comparisons, unary minus, casts, ``?:``, ``<math.h>``'s exact
functions, literals in every form, special inputs) on one set of inputs.
gcc compiles the batch (``-O0 -ffp-contract=off -fno-builtin``, x86-64 SSE,
volatile inputs) and prints each result's bits; distaff checks one program
per variant that ANDs every comparison into one assertion: ``concrete``
(the inputs constants) and ``symbolic`` (``__VERIFIER_nondet_*`` inputs
assumed equal to the same bits); ``--variants`` chooses. With
``--long-double`` the expressions have long double among their types (x87's
80-bit format, computed natively on the x87; inputs ``x0 x1 x2`` of any 80
bits, the encodings the x87 rejects too), and each one is of that type or
has a long double inside it. A NaN is compared as being a NaN. A batch
distaff does not prove is checked again with one assertion per expression,
and each failing expression alone, with distaff's value read from the
counterexample; each is a disagreement, kept with its program. Conversions
of a floating value to an integer are guarded so they are never out of
range (undefined in C), so distaff must report no finding at all.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.frontend import float_exprs as fx  # noqa: E402  (after the path above)


VARIANT_TEXT = {"concrete": "concrete inputs", "symbolic": "nondet inputs assumed to the same bits"}


def check(job: tuple[int, int, bool, tuple[str, ...]]) -> dict:
    import random

    seed, size, long_double, variants = job
    exprs = fx.expressions(seed, size, long_double=long_double)
    values = fx.inputs(random.Random(seed), long_double=long_double)
    found, times = fx.check_batch(exprs, values, variants)
    kinds = {}
    for e in exprs:
        kinds[e.type] = kinds.get(e.type, 0) + 1
    return {"seed": seed, "expressions": size, "types": kinds, "times": times,
            "disagreements": [dict(asdict(x), text=fx.describe(x)) for x in found]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--expressions", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=0, help="the first batch's seed")
    ap.add_argument("--batch", type=int, default=200, help="expressions per program")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="bench/out/differential_float.jsonl", help="one JSON line per batch")
    ap.add_argument("--results", default="bench/results/differential_float.md")
    ap.add_argument("--long-double", action="store_true", help="long double expressions")
    ap.add_argument("--variants", default="concrete,symbolic", help="distaff's checks: concrete, symbolic or both")
    args = ap.parse_args(argv)
    variants = tuple(v for v in args.variants.split(",") if v)
    if fx.CC is None:
        print("no C compiler", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    batches = -(-args.expressions // args.batch)
    jobs = [(args.seed + i, min(args.batch, args.expressions - i * args.batch), args.long_double, variants)
            for i in range(batches)]
    start = time.monotonic()
    rows = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool, out.open("w") as f:
        for row in pool.imap_unordered(check, jobs):
            rows.append(row)
            f.write(json.dumps(row) + "\n")
            f.flush()
            for x in row["disagreements"]:
                print(f"seed {row['seed']}: {x['text']}", flush=True)
    wall = time.monotonic() - start
    rows.sort(key=lambda r: r["seed"])
    bad = [x for r in rows for x in r["disagreements"]]
    n = sum(r["expressions"] for r in rows)
    types = {}
    for r in rows:
        for t, k in r["types"].items():
            types[t] = types.get(t, 0) + k
    spent = {side: sum(r["times"].get(side, 0) for r in rows) for side in ("native", "concrete", "symbolic")}
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=ROOT).stdout.strip()
    except OSError:
        commit = "?"
    cc = subprocess.run([fx.CC, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    command = " ".join(["python3 bench/differential_float.py", *(argv if argv is not None else sys.argv[1:])])
    lines = [
        f"## {time.strftime('%Y-%m-%d')}: {n:,} {'long double ' if args.long_double else ''}expressions, "
        f"seeds {args.seed}-{args.seed + batches - 1}, at {commit}",
        "",
        f"`{command}` on {platform.machine()} {platform.system()}, {args.workers} workers, {wall:.0f} s wall; "
        f"gcc: {cc}, `{' '.join(fx.CFLAGS)} -lm`.",
        "",
        f"{batches} programs of up to {args.batch} expressions, each checked by distaff "
        f"({'; '.join(VARIANT_TEXT[v] for v in variants)}): {len(variants) * n:,} comparisons with gcc's bits.",
        "",
        "| result type | expressions |",
        "|---|---:|",
        *[f"| {fx.C_NAME[t]} | {types[t]:,} |" for t in sorted(types)],
        "",
        f"Time (summed over workers): gcc {spent['native']:.0f} s, distaff concrete {spent['concrete']:.0f} s, "
        f"distaff symbolic {spent['symbolic']:.0f} s (a batch with a disagreement includes the search for it).",
        "",
        f"Disagreements: {len(bad)}.",
        "",
    ]
    for x in bad:
        lines.append(x["text"])
    text = "\n".join(lines) + "\n"
    print(text)
    if args.results:
        with open(args.results, "a") as f:
            f.write(text + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
