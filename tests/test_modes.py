"""The three exploration modes on our test programs and examples: the same
verdicts and findings, fewer runs as the reductions add up, the run counts
the assertion-guided paper gives for its Figures 2-4 (on our own copies of
those programs), and every optimisation of the reductions switchable and
counted."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from distaff.analysis.check import Options, check, check_assertion
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, Reason, Status
from distaff.server import cli
from tests.explore.expectations import PROGRAMS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# the solver query of hard_solver.c takes minutes by design (it tests budgets);
# after their violations, the search for deadlocks in early_bug_long_loop.c and
# thread_factory.c explores three threads' loops, or nine workers, to unwind 8,
# and baseline explores error_sites.c's lost update in full: minutes each.
# tests/test_check.py checks their verdicts in every mode without that search.
SKIP = {"hard_solver.c", "early_bug_long_loop.c", "thread_factory.c", "error_sites.c"}
FILES = sorted(p for p in list(PROGRAMS.glob("*.c")) + list(EXAMPLES.glob("*.c")) if p.name not in SKIP)
IDS = [f"{p.parent.name}/{p.name}" for p in FILES]

# baseline explores some programs for minutes; past this many runs it stops
# (status unknown, reason max-runs) and its run count is only a lower bound
BASELINE_CAP = 1500
OPTIONS = {
    "baseline": Options(mode="baseline", max_runs=BASELINE_CAP, timeout_s=120),
    "dpor": Options(mode="dpor", timeout_s=120),
    "dpor-ag": Options(mode="dpor-ag", timeout_s=120),
}

_cache: dict = {}


def results(path: Path, mode: str, options: Options | None = None):
    key = (path, mode, options)
    if key not in _cache:
        program = parse_program(path.read_text(), str(path))
        items = list(check(program, options or OPTIONS[mode]))
        assertions = sorted((i for i in items if isinstance(i, AssertionResult)), key=lambda r: r.id)
        findings = sorted({(f.kind.value, f.span.line, f.message) for f in items if isinstance(f, Finding)})
        _cache[key] = (assertions, findings)
    return _cache[key]


def verdict(r: AssertionResult):
    return r.id, r.status, r.reason is Reason.BOUND


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_three_modes_agree(path):
    base, base_findings = results(path, "baseline")
    dpor, dpor_findings = results(path, "dpor")
    ag, ag_findings = results(path, "dpor-ag")
    assert all(r.reason is None for r in dpor + ag), (dpor, ag)
    assert [verdict(r) for r in ag] == [verdict(r) for r in dpor]
    assert ag_findings == dpor_findings
    # capped: undecided, or "holds within unwind k; unwind 2k unfinished (run limit)"
    capped = any(r.reason is Reason.MAX_RUNS or "unfinished" in r.message for r in base)
    if not capped:
        assert [verdict(r) for r in base] == [verdict(r) for r in dpor]
        assert base_findings == dpor_findings


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_each_reduction_explores_no_more_runs(path):
    base, _ = results(path, "baseline")
    dpor, _ = results(path, "dpor")
    ag, _ = results(path, "dpor-ag")
    for b, d, a in zip(base, dpor, ag):
        assert b.stats.runs >= d.stats.runs >= a.stats.runs, (b.id, b.stats.runs, d.stats.runs, a.stats.runs)
        # pruned: every thread asleep, or a thread parked after a futile round (awaits.parked)
        assert d.stats.pruned_runs == d.stats.counter("dpor_sleep_blocked") + d.stats.counter("futile_run_ends")


# ---------------------------------------------------------------------------
# the paper's figures, on our copies (tests/programs/)


def test_figure_2_reorder():
    path = PROGRAMS / "reorder.c"
    (d,), _ = results(path, "dpor")
    (a,), _ = results(path, "dpor-ag")
    assert d.status is a.status is Status.HOLDS
    # the 6 Mazurkiewicz traces of the x <= 10 side plus the x > 10 run
    assert d.stats.runs <= 7 and d.stats.pruned_runs == 0
    assert a.stats.full_runs <= 2 and a.stats.pruned_runs <= 4
    assert a.stats.counter("ag_pruned_summary") >= 1


def test_figure_3_independent_segments():
    path = PROGRAMS / "independent_readers.c"
    dpor, _ = results(path, "dpor")
    ag, _ = results(path, "dpor-ag")
    assert len(dpor) == len(ag) == 3
    for d, a in zip(dpor, ag):
        assert d.status is a.status is Status.HOLDS
        assert d.stats.runs <= 8
        assert a.stats.runs <= 4


def test_figure_3_dpor_is_optimal():
    # three independent read/write pairs: exactly 2**3 traces, one run each
    dpor, _ = results(PROGRAMS / "segments3.c", "dpor")
    assert [d.stats.runs for d in dpor] == [8, 8, 8]


def test_figure_4_generalized_interleaving_graph():
    path = PROGRAMS / "gig.c"
    (d,), d_findings = results(path, "dpor")
    (a,), a_findings = results(path, "dpor-ag")
    assert d.status is a.status is Status.HOLDS
    # (36 runs once: a thread whose step may overflow, ending the run, then
    # slept there with the step's footprint and covered races no run explored)
    assert d.stats.full_runs <= 70
    assert a.stats.runs < d.stats.runs
    # the overflow findings are still reported under pruning
    assert len(a_findings) == len(d_findings) == 4


# ---------------------------------------------------------------------------
# switches and counters


def _one(name: str, mode: str, **switches):
    path = PROGRAMS / name
    program = parse_program(path.read_text(), str(path))
    site = program.assertions()[0]
    opts = Options(mode=mode, optimisations=tuple(switches.items()))
    return check_assertion(program, site, opts)[0]


def test_summaries_and_slicing_can_be_switched_off():
    on = _one("gig.c", "dpor-ag")
    off = _one("gig.c", "dpor-ag", summaries=False, slicing=False)
    assert on.status is off.status is Status.HOLDS
    assert on.stats.counter("ag_pruned_summary") > 0 and on.stats.counter("summary_entries") > 0
    assert off.stats.counter("ag_pruned_summary") == 0 and off.stats.counter("summary_entries") == 0
    assert off.stats.pruned_runs == off.stats.counter("dpor_sleep_blocked")
    assert off.stats.runs > on.stats.runs


def test_rvar_wvar_off_stays_sound():
    # without the recorded accesses, a pruned run makes every earlier node
    # explore every thread: more runs, same verdict
    on = _one("reorder_bad.c", "dpor-ag")
    off = _one("reorder_bad.c", "dpor-ag", rvar_wvar=False)
    assert on.status is off.status is Status.VIOLATED


def test_summary_table_bounds_are_under_approximations():
    full = _one("gig.c", "dpor-ag")
    tiny = _one("gig.c", "dpor-ag", summary_table_size=1)
    small = _one("gig.c", "dpor-ag", summary_max_size=5)
    for r in (tiny, small):
        assert r.status is Status.HOLDS
        assert r.stats.runs >= full.stats.runs
    assert tiny.stats.counter("summary_collisions") > 0
    assert small.stats.counter("summary_size_drops") > 0


def test_dpor_switches():
    full = _one("segments3.c", "dpor")
    no_sleep = _one("segments3.c", "dpor", sleep_sets=False)
    source = _one("segments3.c", "dpor", wakeup_trees=False)
    lowest = _one("segments3.c", "dpor", dpor_order=False)
    for r in (full, no_sleep, source, lowest):
        assert r.status is Status.HOLDS
        assert r.stats.runs >= full.stats.runs
    assert full.stats.counter("dpor_races") > 0 and full.stats.counter("dpor_inserted") > 0


def test_bookkeeping_speed_ups_change_no_run():
    # they change how fast an event is handled, not what is explored
    for mode in ("dpor", "dpor-ag"):
        full = _one("segments3.c", mode)
        assert full.stats.counter("footprint_hits") > 0
        for switch in ("footprint_memo", "dpor_step_index"):
            off = _one("segments3.c", mode, **{switch: False})
            assert (off.status, off.stats.runs, off.stats.steps, off.stats.events) == \
                (full.status, full.stats.runs, full.stats.steps, full.stats.events), (mode, switch)
        assert _one("segments3.c", mode, footprint_memo=False).stats.counter("footprint_hits") == 0


# ---------------------------------------------------------------------------
# what the language server shows


def test_summaries_per_statement_print_as_c():
    (a,), _ = results(PROGRAMS / "reorder.c", "dpor-ag")
    assert a.summaries, a
    texts = {s.expr for s in a.summaries}
    assert any("first <= shared" in t for t in texts), texts
    lines = {s.span.line for s in a.summaries}
    assert 22 in lines  # int second = shared;
    # a run pruned where several threads wait counts at each of their statements
    assert sum(s.pruned_runs for s in a.summaries) >= a.stats.pruned_runs > 0


def test_other_modes_show_no_summaries():
    (d,), _ = results(PROGRAMS / "reorder.c", "dpor")
    assert d.summaries == ()


def test_summaries_are_not_printed_when_nothing_shows_them(capsys):
    (a,), _ = results(PROGRAMS / "reorder.c", "dpor-ag", replace(OPTIONS["dpor-ag"], summary_text=False,
                                                                       optimisations=(("plain_first", False),)))
    assert a.summaries == () and a.stats.pruned_runs > 0  # pruned as before, only not printed
    cli.main(["check", "--format", "json", str(PROGRAMS / "reorder.c")])
    (j,) = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    assert "summaries" not in j  # not asked for
    cli.main(["check", "--format", "json", "--summaries", str(PROGRAMS / "reorder.c")])
    (j,) = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    assert j["summaries"]  # the JSON shows them, so it asks for them


def test_a_statements_summary_is_shown_simplified_with_the_learned_form_in_the_json(capsys):
    cli.main(["check", "--format", "json", "--summaries", str(PROGRAMS.parent.parent / "examples" / "reorder.c")])
    (a,) = json.loads(capsys.readouterr().out)["files"][0]["assertions"]
    by_line = {s["line"]: s for s in a["summaries"]}
    # three summaries learned at `int after = level;`, each implying the first
    s = by_line[30]
    assert s["expr"] == "before <= level"
    assert s["raw"].startswith("(before <= level) || ((before <= 20) && (before <= level))")
    assert all(len(x["expr"]) <= len(x.get("raw", x["expr"])) for x in a["summaries"])
