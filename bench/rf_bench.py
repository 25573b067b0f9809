"""Reads-from exploration side by side with DPOR: runs and time per mode, and
the number of reads-from classes each check has.

    python bench/rf_bench.py [--timeout S] [--out bench/results/rf.md] [PROGRAM.c ...]

For the programs of Table 2 (``bench/table2/programs``), the bundled examples,
the data-structure programs (queues, stacks, a deque, spin locks: ``bench/rf``,
``tests/programs/realworld``, ``tests/programs/spin``, the lock-free programs of
``bench/regress/programs``), each assertion is checked in ``dpor``, ``rf``,
and ``dpor-ag`` (the default, which does not combine with observers:
``distaff.analysis.options.OBSERVER_MODES``): runs (full + pruned, summed over the assertions)
and wall time of the whole check, in this process (``--workers 1
--max-memory 0``, so the time is the check's, not a pool's start-up).

``classes`` is the number of reads-from classes, counted by a ``dpor`` run
that records each complete run's signature: for every step, its thread, its
place in the thread, the statement it ran, and for each byte it read (and each
synchronization object it used) the step that wrote it last. DPOR explores
every Mazurkiewicz trace, and a reads-from class is a union of traces, so the
distinct signatures are the classes (runs cut short -- by the loop bound, a
failed assumption, an abort -- count as classes of their own). ``rf/classes``
is the ratio the reads-from mode aims to keep small (1 is optimal). A check
whose DPOR count did not finish within the budget shows ``-``.

Not a test: times depend on the machine; the run counts do not.
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from distaff.analysis import subcheck  # noqa: E402
from distaff.analysis.check import Options, check  # noqa: E402
from distaff.analysis.explore.dpor import Dpor  # noqa: E402
from distaff.analysis.frontend import parse_program  # noqa: E402
from distaff.analysis.report import AssertionResult, Reason, Status  # noqa: E402
from distaff.analysis.symex.pivots import LeafKind  # noqa: E402

MODES = ("dpor", "rf", "dpor-ag")
GROUPS = {
    "table2": sorted((ROOT / "bench/table2/programs").glob("*.c")),
    "examples": sorted((ROOT / "examples").glob("*.c")),
    "data structures": sorted((ROOT / "bench/rf").glob("*.c"))
    + [ROOT / "tests/programs/realworld" / n for n in ("ms_queue.c", "chase_lev.c", "mcs_lock.c", "qspinlock.c")]
    + [ROOT / "tests/programs/sync/c11_treiber_stack.c"]
    + [ROOT / "bench/regress/programs" / n for n in ("msqueue_ok.c", "treiber_ok.c", "cas_counter_ok.c")]
    + sorted((ROOT / "tests/programs/spin").glob("*.c")),
}
# leaves that end a run without a reduction cutting it short
_COMPLETE = {LeafKind.END, LeafKind.VIOLATION, LeafKind.STOPPED, LeafKind.DEADLOCK, LeafKind.CUT,
             LeafKind.ERROR, LeafKind.INFEASIBLE}


class ClassCounter(Dpor):
    """``dpor`` that collects the reads-from signature of every complete run."""

    def __init__(self, program, options, site) -> None:
        super().__init__(program, options, site)
        self.classes: set = set()
        self.where: list = []

    def on_event(self, event, state) -> None:
        del self.where[event.index:]
        self.where.append((event.func, event.pc))
        super().on_event(event, state)

    def on_run_end(self, leaf, state) -> None:
        if leaf.kind in _COMPLETE:
            self.classes.add((leaf.kind, self.signature()))
        super().on_run_end(leaf, state)

    def signature(self) -> tuple:
        last: dict = {}  # byte or ("sync", object) -> (thread, seq) of its last writer
        sig = []
        for s in self.steps.items:
            src = []
            for a, n in s.fp.reads:
                src.append(tuple(last.get(b) for b in range(a, a + n)) if isinstance(a, int) else ("?",))
            for op, o, _ in s.fp.syncs:
                src.append(last.get(("sync", o)))
            where = self.where[s.index] if s.index < len(self.where) else None
            sig.append((s.tid, s.seq, where, tuple(src)))
            for a, n in s.fp.writes:
                if isinstance(a, int):
                    for b in range(a, a + n):
                        last[b] = (s.tid, s.seq)
            for op, o, _ in s.fp.syncs:
                last[("sync", o)] = (s.tid, s.seq)
        return tuple(sorted(sig, key=lambda x: (x[0], x[1])))


def count_classes(text: str, name: str, timeout: float, unwind: int) -> int | None:
    """The reads-from classes summed over the assertions' checks; None when
    one did not finish."""
    counters: dict = {}  # assertion -> the counter of its last exploration (a check may deepen)
    plain = subcheck.reduction_for

    def counting(mode, program, options, site):
        counters[site] = ClassCounter(program, options, site)
        return counters[site]

    subcheck.reduction_for = counting
    try:
        results = run(text, name, "dpor", timeout, unwind)[0]
    finally:
        subcheck.reduction_for = plain
    if any(r.status is Status.UNKNOWN and r.reason in (Reason.TIMEOUT, Reason.MAX_RUNS) for r in results):
        return None
    return sum(len(c.classes) for c in counters.values())


def run(text: str, name: str, mode: str, timeout: float, unwind: int) -> tuple[list, float]:
    program = parse_program(text, name)
    options = Options(mode=mode, unwind=unwind, timeout_s=timeout, workers=1, max_memory_mb=0, findings=False)
    t0 = time.perf_counter()
    results = [r for r in check(program, options) if isinstance(r, AssertionResult)]
    return results, time.perf_counter() - t0


def verdict(results: list) -> str:
    if any(r.status is Status.VIOLATED for r in results):
        return "violated"
    if any(r.status is Status.UNKNOWN for r in results):
        return "unknown"
    return "holds"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per check (per mode)")
    ap.add_argument("--unwind", type=int, default=8, help="the bound where a program states none")
    ap.add_argument("--out", default=None, help="write the Markdown table here")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args(argv)
    groups = {"given": [Path(p) for p in args.programs]} if args.programs else GROUPS
    wall = time.monotonic()
    lines = []
    totals = {m: [0, 0.0] for m in MODES}
    for group, paths in groups.items():
        lines += ["", f"## {group}", "",
                  "| program | classes | " + " | ".join(f"{m} runs | {m} s" for m in MODES) + " | rf/classes | verdicts |",
                  "|---|---:|" + "---:|---:|" * len(MODES) + "---:|---|"]
        for path in paths:
            text = path.read_text()
            m = re.search(r"UNWIND:\s*(\d+)", text.split("*/", 1)[0])
            unwind = int(m.group(1)) if m else args.unwind  # (Table 2's programs state their bound)
            cells, verdicts, runs = [], set(), {}
            for mode in MODES:
                results, dt = run(text, str(path), mode, args.timeout, unwind)
                out = any(r.status is Status.UNKNOWN and r.reason in (Reason.TIMEOUT, Reason.MAX_RUNS)
                          for r in results)
                runs[mode] = None if out else sum(r.stats.runs for r in results)
                cells += ["-" if out else str(runs[mode]), f">{args.timeout:g}" if out else f"{dt:.2f}"]
                if not out:
                    verdicts.add(verdict(results))
                    totals[mode][0] += runs[mode]
                    totals[mode][1] += dt
            classes = count_classes(text, str(path), args.timeout, unwind)
            ratio = f"{runs['rf'] / classes:.2f}" if classes and runs["rf"] is not None else "-"
            same = "/".join(sorted(verdicts)) + ("" if len(verdicts) <= 1 else " ✗")
            lines.append(f"| {path.stem} | {classes if classes is not None else '-'} | " + " | ".join(cells)
                         + f" | {ratio} | {same} |")
            print(lines[-1], flush=True)
    head = [
        "# Reads-from exploration beside DPOR",
        "",
        f"`python bench/rf_bench.py {' '.join(argv if argv is not None else sys.argv[1:])}` on "
        f"{platform.machine()} {platform.system()}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}; {time.monotonic() - wall:.0f} s. Runs summed over each program's "
        "assertions; wall seconds of the whole check in this process; `-`: over the budget. "
        "See the script's docstring for how classes are counted.",
        "",
        "Totals over the checks that finished: " + "; ".join(
            f"{m} {totals[m][0]:,} runs in {totals[m][1]:.1f} s" for m in MODES) + ".",
    ]
    text = "\n".join(head + lines) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    print("\n".join(head))
    return 0


if __name__ == "__main__":
    sys.exit(main())
