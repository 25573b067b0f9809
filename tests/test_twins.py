"""Twins: identical threads explored up to their permutation (symmetry
reduction, distaff.analysis.symex.twins and distaff.analysis.static.symmetry).

The programs of tests/programs/twins carry their verdicts; each is checked in
every mode (the baseline explores without twins and is the reference), and
with twins off. Run counts show the reduction acts where it should and
nowhere else; the programs that tell twins apart (a join's result, a thread
id, looking between joins) show it steps aside."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.frontend import parse_program
from distaff.analysis.options import MODES
from distaff.analysis.report import AssertionResult
from distaff.analysis.static.symmetry import interchangeable_sites
from tests.explore.expectations import PROGRAMS, read

TWINS = sorted(p.name for p in (PROGRAMS / "twins").glob("*.c"))
OFF = (("symmetry", False),)


def _results(name: str, **kw) -> list[AssertionResult]:
    exp = read(f"twins/{name}")
    options = Options(findings=False, timeout_s=120, **kw)
    return [r for r in check_text(exp.path.read_text(), str(exp.path), options) if isinstance(r, AssertionResult)]


def _counter(r: AssertionResult, name: str) -> int:
    return dict(r.stats.counters).get(name, 0)


# (the baseline explores all 8! lock orders of locked_counter8.c: minutes; the
# other modes are its test)
@pytest.mark.parametrize("name, mode", [(n, m) for n in TWINS for m in MODES
                                        if not (m == "baseline" and n == "locked_counter8.c")])
def test_twin_programs_get_their_verdicts(name, mode):
    exp = read(f"twins/{name}")
    results = _results(name, mode=mode)
    assert results
    for r in results:
        assert r.status.label == exp.verdict_at(r.span.line), (r.span.line, r.message)


@pytest.mark.parametrize("mode", ["dpor", "dpor-ag", "rf"])
def test_eight_locked_twins_take_one_run(mode):
    (r,) = _results("locked_counter8.c", mode=mode)
    assert r.status.label == "holds"
    assert r.stats.runs == 1
    assert _counter(r, "twin_waits") == 7


def test_without_twins_the_lock_orders_are_explored():
    (r,) = _results("locked_counter8.c", mode="dpor", max_runs=50, optimisations=OFF)
    assert r.stats.runs == 50  # (8! orders: the cap stops it)
    assert _counter(r, "twin_waits") == 0


@pytest.mark.parametrize("mode", ["dpor", "dpor-ag", "rf"])
def test_looking_between_joins_sends_the_exploration_back(mode):
    (r,) = _results("join_one_then_look.c", mode=mode)
    assert r.status.label == "violated"
    assert _counter(r, "symmetry_abandoned") == 1


def _sites(name: str):
    exp = read(f"twins/{name}")
    return interchangeable_sites(parse_program(exp.path.read_text(), str(exp.path)))


def test_what_tells_threads_apart_rules_twins_out():
    assert _sites("locked_counter8.c") == {("main", 2)}
    assert _sites("self_first.c") == frozenset()  # pthread_self
    assert _sites("ticket_order.c") == frozenset()  # the join's result


def test_handles_used_beyond_join_rule_twins_out():
    src = """#include <pthread.h>
pthread_t keep;
void *w(void *a) { return 0; }
int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
    keep = t[0];
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    return 0;
}
"""
    assert interchangeable_sites(parse_program(src, "keep.c")) == frozenset()
    joined_by_worker = """#include <pthread.h>
pthread_t t[2];
void *w(void *a) { return 0; }
void *j(void *a) { pthread_join(t[0], 0); return 0; }
int main(void) {
    pthread_t x;
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
    pthread_create(&x, 0, j, 0);
    pthread_join(x, 0);
    return 0;
}
"""
    # t is loaded outside main: its creates are out; x, main's own, stays in
    assert interchangeable_sites(parse_program(joined_by_worker, "jw.c")) == {("main", 5)}
