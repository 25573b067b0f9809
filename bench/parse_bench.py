"""Front-end benchmark: preprocess + parse + lower a generated 5,000-line C file.

Usage: ``python bench/parse_bench.py [--lines N] [--runs K] [--profile]``

Prints the median over K runs of each stage and of the whole
``parse_program`` (target: under 1 s for 5,000 lines). ``--profile`` prints
the top of a cProfile of one run of the lowering.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from distaff.analysis.frontend import parse_program  # noqa: E402
from distaff.analysis.frontend.lower import lower_unit  # noqa: E402
from distaff.analysis.frontend.parse import parse  # noqa: E402
from distaff.analysis.frontend.preprocess import preprocess  # noqa: E402
from distaff.analysis.ir import DataModel  # noqa: E402

HEADER = """\
#include <pthread.h>
#include <assert.h>
#define N 8
#define SQUARE(x) ((x) * (x))
extern int __VERIFIER_nondet_int(void);
struct cell { int value; struct cell *next; pthread_mutex_t lock; };
typedef struct cell cell_t;
pthread_mutex_t big_lock;
"""

FUNCTION = """\
int g{i} = {i};
int arr{i}[N];
cell_t cell{i} = {{ .value = {i} }};
void *worker{i}(void *arg) {{
    int local = 0, k;
    cell_t *c = &cell{i};
    for (k = 0; k < N; k++) {{
        pthread_mutex_lock(&c->lock);
        arr{i}[k] = SQUARE(k) + g{i};
        c->value += arr{i}[k] > 3 ? 1 : 2;
        pthread_mutex_unlock(&c->lock);
        local = local * 3 + (k & 1);
    }}
    while (local > 10 && g{i} != 0) {{
        local /= 2;
        if (local == 7) break;
    }}
    switch (local % 3) {{ case 0: g{i}++; break; case 1: g{i}--; break; default: ; }}
    assert(c->value >= {i} || local < 0);
    return 0;
}}
"""

MAIN_HEAD = """\
int main(void) {
    pthread_t t[N];
    int x = __VERIFIER_nondet_int();
"""


def generate(lines: int) -> str:
    parts = [HEADER]
    per = FUNCTION.count("\n")
    n = max(1, (lines - HEADER.count("\n") - 6) // (per + 1))
    for i in range(n):
        parts.append(FUNCTION.format(i=i))
    parts.append(MAIN_HEAD)
    used = sum(p.count("\n") for p in parts) + 4
    for i in range(max(n, lines - used)):
        parts.append(f"    pthread_create(&t[{i % 8}], 0, worker{i % n}, 0);\n")
    parts.append("    for (int j = 0; j < N; j++) pthread_join(t[j], 0);\n")
    parts.append("    assert(x == x);\n    return 0;\n}\n")
    return "".join(parts)


def median_time(fn, runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time of this process over ``runs`` calls
    (CPU time is the figure to trust on a machine shared with other jobs)."""
    wall, cpu = [], []
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(wall), statistics.median(cpu)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    text = generate(args.lines)
    path = "bench.c"
    dm = DataModel.LP64
    pre = preprocess(text, path, data_model=dm)
    source = pre.text.encode()
    tree = parse(source)
    program = parse_program(text, path)
    instrs = sum(len(f.body) for f in program.functions)
    print(f"input: {text.count(chr(10))} lines, {len(program.functions)} functions, "
          f"{instrs} instructions, {len(program.threads)} thread sites, "
          f"{len(program.findings)} findings")
    t_pre = median_time(lambda: preprocess(text, path, data_model=dm), args.runs)
    t_parse = median_time(lambda: parse(source), args.runs)
    t_lower = median_time(lambda: lower_unit(tree.root_node, pre, path, dm), args.runs)
    t_all = median_time(lambda: parse_program(text, path), args.runs)
    print(f"{'stage':14}{'wall ms':>10}{'cpu ms':>10}   (median of {args.runs})")
    for label, (w, c) in (("preprocess", t_pre), ("parse", t_parse), ("lower", t_lower),
                          ("parse_program", t_all)):
        print(f"{label:14}{w * 1000:10.1f}{c * 1000:10.1f}")
    print(f"target: parse_program under 1000 ms for {args.lines} lines "
          "(parse_program includes the escape analysis)")
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile(time.process_time)
        prof.enable()
        lower_unit(tree.root_node, pre, path, dm)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
