"""Table 2 of the assertion-guided paper, on our own corpus, and its Figure 9.

    python bench/table2/run.py [--timeout S] [--unwind N] [--out bench/results/table2.md]
                               [--plot bench/results/growth.png] [--threads 2..6] [PROGRAM.c ...]

For every program of ``bench/table2/programs`` (each states the verdict it
expects and its thread count in its header) and each mode -- ``baseline``
(Algorithm 1), ``dpor``, ``dpor-ag`` (DPOR with assertion-guided pruning and
slicing) -- it checks every assertion and reports, as the paper's Table 2
does, the runs explored (full + pruned, summed over the assertions'
sub-checks) and the time; a check that ran out of its budget shows ``-`` and
``>S``. The last column says whether every mode that finished gave the
expected verdict.

Then a parameterised reorder program for each thread count: runs and time
per mode, drawn as two log-scale plots (Figure 9) into ``--plot``; the plot
needs matplotlib (``pip install matplotlib``), which nothing else needs. The
paper's reorder2false is violated; with the violation found in the first few
runs the curve would show nothing, so the growth program is the variant that
holds (checkers read ``b`` before ``a``) and must be explored in full.

Times are CPU seconds of this process (the machine is shared; wall time
would measure the other workers too). Not a test: numbers depend on the
machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import z3  # noqa: E402

from distaff.analysis.check import Options, check  # noqa: E402
from distaff.analysis.frontend import parse_program  # noqa: E402
from distaff.analysis.report import AssertionResult, Reason, Status  # noqa: E402

PROGRAMS = Path(__file__).resolve().parent / "programs"
MODES = ("baseline", "dpor", "dpor-ag")


def reorder_source(n: int) -> str:
    """The reorder program with ``n`` threads: ``n // 2`` setters (at least
    one) write a = 1 then b = -1; the others check they see both or neither."""
    setters = max(1, n // 2)
    creates = [f"    pthread_create(&t[{k}], 0, {'set' if k < setters else 'check'}, 0);" for k in range(n)]
    return (
        f"/* Reorder style with {n} threads ({setters} setting, {n - setters} checking): a\n"
        " * setter writes a = 1 and then b = -1; a checker expects to see both or\n"
        " * neither, but can read between the two writes.\n"
        " * EXPECT: violated\n"
        f" * THREADS: {n + 1}\n"
        " */\n"
        "#include <pthread.h>\n#include <assert.h>\n\nint a, b;\n\n"
        "void *set(void *arg) {\n    a = 1;\n    b = -1;\n    return 0;\n}\n\n"
        "void *check(void *arg) {\n    int x = a;\n    int y = b;\n"
        "    assert((x == 0 && y == 0) || (x == 1 && y == -1));\n    return 0;\n}\n\n"
        f"int main(void) {{\n    pthread_t t[{n}];\n" + "\n".join(creates) + "\n"
        f"    for (int k = 0; k < {n}; k++)\n        pthread_join(t[k], 0);\n    return 0;\n}}\n"
    )


def reorder_holds_source(n: int) -> str:
    """The reorder program with ``n`` threads whose checkers read ``b`` first:
    seeing b == -1 implies seeing a == 1, so the assertion holds and every
    mode has to cover every interleaving (the growth plot's program)."""
    text = reorder_source(n).replace("EXPECT: violated", "EXPECT: holds")
    text = text.replace("    int x = a;\n    int y = b;\n", "    int y = b;\n    int x = a;\n")
    text = text.replace("assert((x == 0 && y == 0) || (x == 1 && y == -1));", "assert(y != -1 || x == 1);")
    return text.replace("a checker expects to see both or\n * neither, but can read between the two writes.",
                        "a checker reads b first, and\n * once it sees b == -1 it must see a == 1.")


def header(text: str, key: str) -> str | None:
    m = re.search(rf"{key}:\s*(\S+)", text.split("*/", 1)[0])
    return m.group(1) if m else None


def lines_of_code(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def measure(text: str, name: str, mode: str, timeout: float, unwind: int) -> dict:
    program = parse_program(text, name)
    options = Options(mode=mode, unwind=unwind, timeout_s=timeout)
    t0 = time.process_time()
    results = [r for r in check(program, options) if isinstance(r, AssertionResult)]
    cpu = time.process_time() - t0
    out_of_time = any(r.status is Status.UNKNOWN and r.reason in (Reason.TIMEOUT, Reason.MAX_RUNS)
                      for r in results)
    if any(r.status is Status.VIOLATED for r in results):
        verdict = "violated"
    elif any(r.status is Status.UNKNOWN for r in results):
        verdict = "unknown"
    else:
        verdict = "holds"
    return {
        "runs": sum(r.stats.runs for r in results),
        "pruned": sum(r.stats.pruned_runs for r in results),
        "time": cpu,
        "timeout": out_of_time,
        "verdict": verdict,
        "bounded": any(r.status is Status.BOUNDED for r in results),
    }


def cell(m: dict, timeout: float) -> tuple[str, str]:
    if m["timeout"]:
        return "-", f">{timeout:g}"
    return str(m["runs"]), f"{m['time']:.1f}"


def table(paths: list[Path], timeout: float, unwind: int) -> tuple[list[str], list[dict]]:
    rows, data = [], []
    for path in paths:
        text = path.read_text()
        expect = header(text, "EXPECT") or "?"
        threads = header(text, "THREADS") or "?"
        bound = int(header(text, "UNWIND") or unwind)
        ms = {mode: measure(text, str(path), mode, timeout, bound) for mode in MODES}
        finished = [m for m in ms.values() if not m["timeout"]]
        ok = all(m["verdict"] == expect for m in finished)
        cells = []
        for mode in MODES:
            cells.extend(cell(ms[mode], timeout))
        bounded = " (bounded)" if any(m["bounded"] for m in finished) and expect == "holds" else ""
        rows.append(f"| {path.stem} | {lines_of_code(text)} | {threads} | {bound} | " + " | ".join(cells)
                    + f" | {expect}{bounded} {'✓' if ok else '✗ ' + '/'.join(m['verdict'] for m in ms.values())} |")
        data.append({"name": path.stem, **{mode: ms[mode] for mode in MODES}, "ok": ok})
        print(rows[-1], flush=True)
    return rows, data


def growth(counts: list[int], timeout: float, unwind: int) -> dict:
    out = {mode: [] for mode in MODES}
    for n in counts:
        text = reorder_holds_source(n)
        for mode in MODES:
            m = measure(text, f"reorder_{n}.c", mode, timeout, unwind)
            out[mode].append((n, m))
            print(f"reorder threads={n} {mode}: runs={m['runs']} time={m['time']:.1f}"
                  f"{' (out of time)' if m['timeout'] else ''}", flush=True)
    return out


def plot(series: dict, path: Path, timeout: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    styles = {"baseline": ("tab:red", "o"), "dpor": ("tab:blue", "s"), "dpor-ag": ("tab:green", "^")}
    for mode, points in series.items():
        color, marker = styles[mode]
        for ax, key in zip(axes, ("runs", "time")):
            done = [(n, m[key]) for n, m in points if not m["timeout"]]
            cut = [(n, m[key] if key == "runs" else timeout) for n, m in points if m["timeout"]]
            if done:
                ax.plot([n for n, _ in done], [max(v, 1e-2) for _, v in done], marker=marker, color=color,
                        label=mode)
            if cut:
                ax.scatter([n for n, _ in cut], [max(v, 1e-2) for _, v in cut], marker=marker,
                           facecolors="none", edgecolors=color, label=f"{mode} (out of time)")
    for ax, title in zip(axes, ("runs explored", "time (CPU s)")):
        ax.set_yscale("log")
        ax.set_xlabel("threads created")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("reorder with 2..N threads (assertion-guided paper, Figure 9)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=10.0, help="budget per assertion and mode (s)")
    ap.add_argument("--unwind", type=int, default=8, help="unwind bound, unless a program's header sets one")
    ap.add_argument("--out", type=Path, default=ROOT / "bench/results/table2.md")
    ap.add_argument("--plot", type=Path, default=ROOT / "bench/results/growth.png")
    ap.add_argument("--threads", default="2..6", help="thread counts of the growth plot, as LO..HI")
    ap.add_argument("programs", nargs="*", type=Path)
    args = ap.parse_args(argv)
    started = time.monotonic()
    paths = args.programs or sorted(PROGRAMS.glob("*.c"))
    rows, data = table(paths, args.timeout, args.unwind)
    lo, hi = (int(x) for x in args.threads.split(".."))
    series = growth(list(range(lo, hi + 1)), args.timeout, args.unwind)
    try:
        plot(series, args.plot, args.timeout)
        plotted = f"![growth]({os.path.relpath(args.plot, args.out.parent)})"
    except ImportError:
        plotted = "(matplotlib is not installed: no plot)"
    elapsed = time.monotonic() - started
    head = ("| Name | LOC | Threads | unwind | " + " | ".join(f"{m} runs | {m} time (s)" for m in MODES)
            + " | expected |")
    sep = "|---|---:|---:|---:|" + "---:|---:|" * len(MODES) + "---|"
    total = {m: sum(d[m]["time"] for d in data) for m in MODES}
    finished = {m: [d[m] for d in data if not d[m]["timeout"]] for m in MODES}
    grow = ["| threads | " + " | ".join(f"{m} runs | {m} time (s)" for m in MODES) + " |",
            "|---:|" + "---:|---:|" * len(MODES)]
    for k, n in enumerate(range(lo, hi + 1)):
        cells = []
        for m in MODES:
            cells.extend(cell(series[m][k][1], args.timeout))
        grow.append(f"| {n} | " + " | ".join(cells) + " |")
    try:
        load = f"{os.getloadavg()[0]:.1f}"
    except OSError:
        load = "?"
    text = "\n".join([
        "# Table 2: runs and time per mode on our corpus",
        "",
        f"`python bench/table2/run.py --timeout {args.timeout:g} --unwind {args.unwind}` on {platform.machine()} "
        f"{platform.system()}, Python {platform.python_version()}, z3 {z3.get_version_string()}, "
        f"{time.strftime('%Y-%m-%d')}; load average {load} at the end; {elapsed:.0f} s in all.",
        "",
        "In the layout of the assertion-guided paper's Table 2, on programs of our own in the styles of "
        "its benchmarks (`bench/table2/programs`, each stating its expected verdict). *runs*: runs "
        "explored (full + pruned), summed over the sub-checks of the program's assertions; *time*: CPU "
        f"seconds of the whole check; `-` / `>{args.timeout:g}`: some assertion's sub-check ran out of its "
        f"{args.timeout:g} s budget. baseline = Algorithm 1; dpor = optimal DPOR (wakeup trees, sleep sets); "
        "dpor-ag = dpor with assertion-guided pruning (summaries, RVar/WVar) and slicing (Type A/B). "
        "*unwind*: the loop bound (busy-waiting programs set 4 in their header). "
        "*expected*: the header's verdict, ✓ when every mode that finished gave it ((bounded): some run "
        "was cut at the unwind bound, as busy-waiting loops are).",
        "",
        head, sep, *rows,
        "",
        "| total | | | | " + " | ".join(f"{len(finished[m])} finished | {total[m]:.0f}" for m in MODES) + " | |",
        "",
        "## Growth with the number of threads (Figure 9)",
        "",
        "The reorder program with N threads that holds (`reorder_holds_source` in `run.py`: N // 2 "
        "setters, the rest checkers, reading b before a), the same budget per mode.",
        "",
        *grow,
        "",
        plotted,
        "",
    ])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"wrote {args.out}")
    return 0 if all(d["ok"] for d in data) else 1


if __name__ == "__main__":
    sys.exit(main())
