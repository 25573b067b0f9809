"""Atomic updates whose old value is unused commute (analysis/symex/rmw.py,
optimisation ``commuting_rmws``): statistics kept with ``atomic_fetch_add``,
``_or`` and ``_xor`` take one run where every order of them was a run, and
what does not commute -- an add and an or, a fetch whose result is used, a
plain read between two adds -- is still explored in both orders
(tests/programs/rmw/*.c, each with its verdict)."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check, check_text
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Reason, Status
from distaff.analysis.symex.rmw import update_kind
from tests.explore.expectations import PROGRAMS, read

RMW = sorted(p.name for p in (PROGRAMS / "rmw").glob("*.c"))
MODES = ("baseline", "dpor", "dpor-ag", "rf")
# baseline explores every interleaving: past this many runs an assertion is
# undecided (max-runs) and not compared
BASELINE_CAP = 3000
STATUS = {"holds": Status.HOLDS, "violated": Status.VIOLATED}


def results(name: str, mode: str, commute: bool = True, cap: int | None = None) -> list[AssertionResult]:
    path = PROGRAMS / "rmw" / name
    options = Options(mode=mode, timeout_s=120, max_runs=BASELINE_CAP if mode == "baseline" else cap,
                      optimisations=(("commuting_rmws", commute),))
    program = parse_program(path.read_text(), str(path))
    return [i for i in check(program, options) if isinstance(i, AssertionResult)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", RMW)
def test_verdicts_as_the_header_says(name, mode):
    exp = read(f"rmw/{name}")
    got = {r.status for r in results(name, mode) if r.reason is not Reason.MAX_RUNS}
    assert (Status.VIOLATED in got) == (exp.verdict == "violated"), (name, mode, got)
    assert got <= {Status.HOLDS, Status.VIOLATED}, (name, mode, got)


@pytest.mark.parametrize("mode", ("dpor", "dpor-ag", "rf"))
def test_statistics_counters_take_one_run(mode):
    on = results("stats_counters.c", mode)
    # (without: 108,048 runs per assertion in dpor, two and a half minutes)
    off = results("stats_counters.c", mode, commute=False, cap=300)
    assert all(r.status is Status.HOLDS for r in on)
    assert [r.stats.runs for r in on] == [1, 1, 1, 1]
    assert all(r.reason is Reason.MAX_RUNS for r in off)
    assert all(r.stats.counter("commuting_rmws") > 0 for r in on)
    assert all(r.stats.counter("commuting_rmws") == 0 for r in off)


def _kinds(source: str) -> dict[int, str]:
    """Line -> update kind of each atomic region of ``worker``."""
    program = parse_program(source, "t.c")
    f = program.function("worker")
    return {i.span.line: update_kind(f, pc) for pc, i in enumerate(f.body)
            if getattr(getattr(i, "op", None), "value", None) == "atomic_begin"}


def test_which_regions_are_updates():
    src = """#include <stdatomic.h>
atomic_int a; atomic_uint u; int g;
void *worker(void *p) {
    atomic_fetch_add(&a, 3);
    atomic_fetch_sub(&u, 1u);
    __sync_fetch_and_or(&g, 4);
    __atomic_fetch_xor(&g, g, __ATOMIC_SEQ_CST);
    __atomic_and_fetch(&g, 6, __ATOMIC_SEQ_CST);
    int old = atomic_fetch_add(&a, 1);
    a++;
    u++;
    atomic_exchange(&a, 5);
    atomic_fetch_add(&a, old);
    a--;
    a -= -2;
    a += old;
    return (void *)(long)old;
}
"""
    kinds = _kinds(src)
    assert kinds[4] == "add" and kinds[5] == "add" and kinds[6] == "or" and kinds[7] == "xor"
    assert kinds[8] == "and"  # op_fetch whose new value is unused
    assert kinds[9] == ""  # the old value is used after the region
    assert kinds[10] == "add+"  # signed ++ of a constant: commutes with its like only
    assert kinds[11] == "add"  # unsigned ++ wraps
    assert kinds[12] == ""  # an exchange keeps nothing of the old value
    assert kinds[13] == "add"  # the operand is another register
    assert kinds[14] == "add-" and kinds[15] == "add+"
    assert kinds[16] == ""  # a signed addition of a register: its sign is not known


@pytest.mark.parametrize("mode", ("dpor", "dpor-ag", "rf"))
def test_signed_steps_of_one_sign_commute_and_of_two_do_not(mode):
    """served++ and pending-- on signed atomic ints: one run, 18,008 without
    (dpor). A ++ and a -- on INT_MAX overflow only with the ++ first: the
    orders are both explored, the overflow found."""
    on = results("served.c", mode)
    off = results("served.c", mode, commute=False, cap=300)
    assert [(r.status, r.stats.runs) for r in on] == [(Status.HOLDS, 1)]
    assert all(r.reason is Reason.MAX_RUNS for r in off)
    src = """#include <pthread.h>
#include <stdatomic.h>
#include <limits.h>
atomic_int level = INT_MAX;
void *up(void *arg) { level++; return 0; }
void *down(void *arg) { level--; return 0; }
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, down, 0);
    pthread_create(&b, 0, up, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""
    found = [i for i in check_text(src, "ovf.c", Options(mode=mode, timeout_s=60)) if isinstance(i, Finding)]
    assert any(f.kind is FindingKind.ERROR and "overflow" in f.message and f.span.line == 5 for f in found), found
