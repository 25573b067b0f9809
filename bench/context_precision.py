"""Check from here on programs nobody wrote for it: the false-alarm rate per
configuration of the context.

    python bench/context_precision.py [--programs N] [--per-assertion K] [--workers W]
                                      [--out bench/results/context_precision.md]

Programs come from the differential test's generator (tests/differential/gen,
drawn deterministically). For each assertion that holds from ``main`` with
no run cut by the bound, up to K program contexts are taken from the
configurations the whole-program check itself passed through (every one a
state some real run reaches), and the assertion is checked again from each,
with every configuration of the context: full (reaching definitions and
synchronization invariants), -RD, -SI and naive, each alone (optimisation
``context_confirm`` off), and the full context followed by the check from
``main`` that confirms or takes back a possible violation ("full, then
main"). Every run from such a
context continues a run from ``main``, so a violation reported there is a
false alarm. The table gives, per configuration, the pairs checked, the
false alarms (and how many of them were labelled "possible from this
context", a warning naming values the context does not know), the pairs that
held and those left undecided.

Not a test: it takes minutes. The soundness direction (a context never loses
a violation that passes through it) is tests/context/test_soundness.py.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import Counter
from dataclasses import replace
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from distaff.analysis.check import Context, Options, check_assertion  # noqa: E402
from distaff.analysis.frontend import parse_program  # noqa: E402
from distaff.analysis.report import Status  # noqa: E402

# name -> (reaching definitions, synchronization invariants, check from main)
CONFIGS = {"full": (True, True, False), "-RD": (False, True, False), "-SI": (True, False, False),
           "naive": (False, False, False), "full, then main": (True, True, True)}
OPTIONS = Options(mode="dpor", unwind=3, max_runs=400, timeout_s=20)
ALONE = replace(OPTIONS, optimisations=(("context_confirm", False),))


def draw_programs(n: int) -> list[str]:
    """``n`` generated programs as C, the same ones on every call."""
    from hypothesis import HealthCheck, given, settings

    from tests.differential import cprog as C
    from tests.differential import gen

    out: list[str] = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(gen.programs())
    def collect(p):
        out.append(C.to_c(p))

    collect()
    return out[:n]


def measure(args: tuple[str, int]) -> list[tuple[str, str, bool]]:
    """(configuration, status label, labelled possible) per (assertion, context) pair."""
    from tests.context.trace_contexts import distinct, recording, spread

    text, per = args
    program = parse_program(text, "gen.c")
    rows = []
    for site in program.assertions():
        snapshots: list = []
        with recording(snapshots):
            whole, _ = check_assertion(program, site, OPTIONS)
        if whole.status is not Status.HOLDS or whole.stats.bound_cuts:
            continue
        # the first is main alone at its entry
        for threads in spread(distinct(snapshots[1:]), per):
            for name, (rd, si, confirm) in CONFIGS.items():
                ctx = Context(threads, naive=not (rd or si), reaching_defs=rd, sync_invariants=si)
                try:
                    r, _ = check_assertion(program, site, OPTIONS if confirm else ALONE, None, ctx)
                except Exception:  # noqa: BLE001 - a crash is a row of its own
                    rows.append((name, "crashed", False))
                    continue
                possible = any(d.startswith("context:") for d in r.depends_on)
                rows.append((name, r.status.label, possible))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=400)
    ap.add_argument("--per-assertion", type=int, default=3)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "context_precision.md"))
    args = ap.parse_args(argv)
    started = time.time()
    texts = draw_programs(args.programs)
    counts: dict[str, Counter] = {c: Counter() for c in CONFIGS}
    with ProcessPoolExecutor(args.workers) as pool:
        for rows in pool.map(measure, [(t, args.per_assertion) for t in texts], chunksize=4):
            for name, status, possible in rows:
                counts[name][status] += 1
                if status == "violated" and possible:
                    counts[name]["possible"] += 1
    lines = [
        "# Check from here: false alarms on generated programs",
        "",
        f"`python bench/context_precision.py --programs {args.programs} --per-assertion {args.per_assertion}` "
        f"on {platform.machine()} {platform.system()}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}; {time.time() - started:.0f} s with {args.workers} workers.",
        "",
        "Pairs: (assertion, program context) where the assertion holds from `main` with no run cut by the "
        "bound and the context is a state a run from `main` reached; mode dpor, unwind 3. Every violation "
        "from such a context is a false alarm; *possible*: of those, the ones labelled \"possible from this "
        "context\" (a warning naming values the context does not know) rather than errors. *full, then main*: "
        "the full context, then a check from `main` (at most 10 s) for each possible violation: one it finds "
        "no run from `main` for is taken back (the assertion holds).",
        "",
        "| context | pairs | false alarms | rate | possible (warnings) | errors | holds | undecided |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in CONFIGS:
        c = counts[name]
        pairs = sum(v for k, v in c.items() if k != "possible")
        fa = c["violated"]
        rate = f"{100 * fa / pairs:.1f} %" if pairs else "-"
        undecided = pairs - fa - c["holds"] - c["unreachable"]
        lines.append(f"| {name} | {pairs} | {fa} | {rate} | {c['possible']} | {fa - c['possible']} | "
                     f"{c['holds'] + c['unreachable']} | {undecided} |")
    print("\n".join(lines))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
