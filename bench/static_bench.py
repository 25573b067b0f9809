"""Static-phase benchmark: how the analyses that run before exploring scale
with the number of functions.

Usage: ``python bench/static_bench.py [--sizes 250,500,1000] [--profile N] [--check N]``

For each size N it generates a program (:func:`program_text`) of N functions
calling each other in chains, a few threads, globals shared through pointers,
and a handful of assertions, then times each static stage: the front end
(parse + lower), points-to, escape classification, call graph, the writer
index, the slice base, the slice of every assertion (with and without the
other assertions), reachability per assertion, reaching definitions of every
function, and the dpor-ag slice guide (Type A blockers, Type B closures of
every branch). ``--profile N`` prints the top of a cProfile of all of it for
size N; ``--check N`` runs ``check`` (mode dpor-ag, ``--timeout 5``) on size N
and prints how long it took and the statuses.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CHAIN = 100  # functions per call chain
GLOBALS = 16
THREADS = 4
ASSERTIONS = 5


def program_text(n: int, *, chain: int = CHAIN, globals_: int = GLOBALS, threads: int = THREADS,
                 assertions: int = ASSERTIONS) -> str:
    """A C program of ``n`` functions ``f0..f{n-1}`` in call chains of
    ``chain`` (each calls the next of its chain, passes a pointer to a global
    on, reads and writes globals, branches and loops a little), ``threads``
    thread routines each starting some chain heads, and ``assertions``
    assertions over the globals in main and the routines. Deterministic."""
    out = ["#include <pthread.h>", "#include <assert.h>",
           "extern int __VERIFIER_nondet_int(void);", "pthread_mutex_t m;"]
    out += [f"int g{k};" for k in range(globals_)]
    out += [f"int f{i}(int x, int *q);" for i in range(n)]
    out.append("struct pair { int a; int *p; };")
    out.append("struct pair cell;")
    for i in range(n):  # callers before callees: the worst order for round-robin fixpoints
        g, h = f"g{i % globals_}", f"g{(i * 7 + 3) % globals_}"
        nxt = i + 1 if (i + 1) % chain and i + 1 < n else None
        body = [f"int f{i}(int x, int *q) {{", "    int y = x + 1;"]
        if i % 3 == 0:
            body += [f"    if (x > {i % 11}) {{", f"        {g} = y;", "    } else {", f"        y = {h};", "    }"]
        elif i % 3 == 1:
            body += ["    *q = y;", f"    y = y + {h};"]
        else:
            body += ["    for (int k = 0; k < 2; k++)", "        y = y + k;", f"    cell.a = y; cell.p = &{g};"]
        if nxt is not None:
            body.append(f"    y = f{nxt}(y, &{h});")
        body += ["    return y;", "}"]
        out += body
    heads = [i for i in range(0, n, chain)]
    for t in range(threads):
        mine = heads[t::threads]
        out.append(f"void *t{t}(void *arg) {{")
        out.append("    int r = 0;")
        out.append("    pthread_mutex_lock(&m);")
        for h in mine:
            out.append(f"    r = f{h}(r, &g{(h + t) % globals_});")
        out.append("    pthread_mutex_unlock(&m);")
        if t < assertions - 1:
            out.append(f"    assert(g{t} >= 0 || r != {t});")
        out.append("    return 0;")
        out.append("}")
    out.append("int main(void) {")
    out.append(f"    pthread_t th[{threads}];")
    out.append("    g0 = __VERIFIER_nondet_int();")
    out.append("    if (g0 < 0) return 0;")
    for t in range(threads):
        out.append(f"    pthread_create(&th[{t}], 0, t{t}, 0);")
    for t in range(threads):
        out.append(f"    pthread_join(th[{t}], 0);")
    out.append("    assert(g1 != 12345 || *cell.p == 0);")
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def stages(text: str) -> list[tuple[str, float]]:
    """Each static stage's CPU time on ``text`` (seconds), in pipeline order."""
    from distaff.analysis.frontend import lower_source
    from distaff.analysis.ir import Branch
    from distaff.analysis.static.callgraph import call_graph
    from distaff.analysis.static.escape import classify, shared_ids
    from distaff.analysis.static.facts import Facts
    from distaff.analysis.static.pointsto import points_to
    from distaff.analysis.static.slicing import slice_of
    from distaff.analysis.summaries.slicing import SliceGuide

    times: list[tuple[str, float]] = []

    def timed(name, make):
        # CPU time of this process: the machine is shared, wall time says more about the others
        t = time.process_time()
        value = make()
        times.append((name, time.process_time() - t))
        return value

    program = timed("frontend", lambda: lower_source(text, "gen.c"))
    timed("escape.classify", lambda: classify(program))
    pts = timed("points-to", lambda: points_to(program))
    shared = timed("shared", lambda: shared_ids(pts))
    calls = timed("callgraph", lambda: call_graph(program, pts))
    facts = Facts(program, pts, shared, calls)
    timed("writers", lambda: facts.writers)
    timed("reaching defs", lambda: [facts.reaching_definitions(f.name) for f in program.functions])
    timed("slice base", lambda: facts.slice_base())
    sites = program.assertions()
    timed(f"slices x{len(sites)}", lambda: [facts.slice(s.id) for s in sites])
    timed(f"own slices x{len(sites)}",
          lambda: [slice_of(program, s.id, facts, other_assertions=False) for s in sites])
    timed(f"reach x{len(sites)}", lambda: [facts.reach(s.id) for s in sites])
    import distaff.analysis.static.facts as factsmod

    real = factsmod.analyze
    factsmod.analyze = lambda p: facts  # the guide reuses what was computed above
    try:
        guide = timed("slice guide", lambda: SliceGuide(program, sites[0]))
    finally:
        factsmod.analyze = real
    branches = [(f.name, pc) for f in program.functions for pc, i in enumerate(f.body) if isinstance(i, Branch)]
    timed(f"type B x{len(branches)}", lambda: [guide.type_b(f, pc) for f, pc in branches])
    return times


def run_check(text: str, n: int, timeout: float, mode: str) -> None:
    from distaff.analysis.check import Options, check_text
    from distaff.analysis.report import AssertionResult

    t = time.monotonic()
    statuses = []
    for item in check_text(text, "gen.c", Options(mode=mode, timeout_s=timeout)):
        if isinstance(item, AssertionResult):
            statuses.append((item.status.value, item.reason.value if item.reason else ""))
            print(f"  {time.monotonic() - t:7.2f}s  {item.id}: {statuses[-1]}", flush=True)
    print(f"check n={n} mode={mode} timeout={timeout}: {time.monotonic() - t:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="250,500,1000,2000,4000")
    ap.add_argument("--profile", type=int, default=None)
    ap.add_argument("--check", type=int, default=None)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--mode", default="dpor-ag")
    ap.add_argument("--chain", type=int, default=CHAIN, help="functions per call chain")
    ap.add_argument("--limit", type=float, default=120.0, help="skip larger sizes once a size took this long")
    args = ap.parse_args()
    if args.check is not None:
        run_check(program_text(args.check, chain=args.chain), args.check, args.timeout, args.mode)
        return
    if args.profile is not None:
        prof = cProfile.Profile()
        prof.enable()
        stages(program_text(args.profile, chain=args.chain))
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return
    for n in [int(s) for s in args.sizes.split(",")]:
        text = program_text(n, chain=args.chain)
        times = stages(text)
        total = sum(t for _, t in times)
        print(f"N={n} ({text.count(chr(10))} lines): total {total:.2f} s")
        for name, t in times:
            print(f"    {name:<20} {t:8.3f}")
        sys.stdout.flush()
        if total > args.limit:
            break


if __name__ == "__main__":
    main()
