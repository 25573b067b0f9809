"""Data-race warnings (distaff.analysis.explore.races): the races each program of
tests/programs/races/ should show (its ``RACES:`` line), in every mode; the
traces that come with them; what happens-before hides; that nothing runs or is
counted when races are not asked for; and that dpor-ag explores unpruned
while it reports races."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from distaff.analysis.check import MODES, Options, check
from distaff.analysis.subcheck import explorer_for
from distaff.analysis.explore.races import RACE_MARK, exploration_options, finding_key
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind

PROGRAMS = Path(__file__).resolve().parents[1] / "programs" / "races"
SOURCES = sorted(p.name for p in PROGRAMS.glob("*.c"))
MESSAGE = re.compile(r"data race on `([^`\[]+)[^`]*`: (read|write) at line (\d+) \(thread [^)]+\) "
                     r"and (read|write) at line (\d+) \(thread [^)]+\)$")


def program(name: str):
    path = PROGRAMS / name
    return parse_program(path.read_text(), str(path))


def expected(name: str) -> set:
    """The ``RACES:`` line: ``none`` or ``var kind@line kind@line; ...``."""
    header = (PROGRAMS / name).read_text().split("\n", 1)[0]
    text = header.split("RACES:", 1)[1].strip()
    if text == "none":
        return set()
    out = set()
    for item in text.split(";"):
        var, a, b = item.split()
        out.add((var, frozenset(tuple(x.split("@")) for x in (a, b))))
    return out


def races(name: str, mode: str, report: bool = True):
    items = list(check(program(name), Options(mode=mode, report_races=report)))
    results = [i for i in items if isinstance(i, AssertionResult)]
    return [i for i in items if isinstance(i, Finding) and i.kind is FindingKind.DATA_RACE], results


def shown(findings) -> set:
    out = set()
    for f in findings:
        m = MESSAGE.match(f.message)
        assert m, f.message
        var, k1, l1, k2, l2 = m.groups()
        out.add((var, frozenset({(k1, l1), (k2, l2)})))
    return out


def test_the_programs_carry_their_races():
    assert len(SOURCES) >= 10
    assert any(expected(n) for n in SOURCES) and any(not expected(n) for n in SOURCES)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", SOURCES)
def test_races_are_the_expected_pairs_in_every_mode(name, mode):
    found, results = races(name, mode)
    assert shown(found) == expected(name)
    assert len(found) == len(expected(name))  # each pair of statements once
    assert all(r.status.label == "holds" for r in results)  # the races are not assertion failures


@pytest.mark.parametrize("name", ["racy_counter.c", "unjoined_read.c", "symbolic_index.c", "publish_twice.c"])
def test_modes_report_the_same_findings(name):
    keyed = {}
    for mode in MODES:
        found, _ = races(name, mode)
        keyed[mode] = {finding_key(f): f.span for f in found}
    assert keyed["baseline"] == keyed["dpor"] == keyed["dpor-ag"]
    assert keyed["baseline"]


def test_the_trace_ends_at_the_second_access_and_marks_both():
    found, _ = races("unjoined_read.c", "dpor")
    (f,) = found
    steps = f.trace.steps
    # of the runs showing the pair, one in source order: the child's write, then main's read
    assert f.span.line == 19 and steps[-1].span == f.span
    marked = [s for s in steps if s.action.endswith(RACE_MARK)]
    assert [(s.thread, s.span.line) for s in marked] == [("child#1", 11), ("main", 19)]
    assert marked[0].action.startswith("write output = 1") and marked[1].action.startswith("read output == 1")
    assert f.message == ("data race on `output`: write at line 11 (thread child#1) "
                         "and read at line 19 (thread main)")
    assert f.trace.schedule  # the whole run's schedule, for replay


def test_symbolic_indices_race_only_where_they_can_meet():
    found, _ = races("symbolic_index.c", "dpor")
    (f,) = found
    assert {s.span.line for s in f.trace.steps if s.action.endswith(RACE_MARK)} == {16, 30}
    inputs = {i.name.split("@")[0] + "@" + i.name.split(":")[1]: i.value for i in f.trace.inputs}
    # the counterexample's inputs make the two indices equal: i (line 24) == j (line 25)
    assert inputs["nondet_int@24"] == inputs["nondet_int@25"]
    assert f"`cells[{inputs['nondet_int@24']}]`" in f.message


def test_without_report_races_nothing_is_found_or_counted():
    found, results = races("racy_counter.c", "dpor", report=False)
    assert found == []
    counters = dict(results[0].stats.counters)
    assert not any(k.startswith("races_") for k in counters)
    ex = explorer_for(program("racy_counter.c"), Options(mode="dpor")).run()
    assert ex.findings == [] and ex.stats.counter("races_checked") == 0


def test_the_work_is_counted():
    ex = explorer_for(program("racy_counter.c"), Options(mode="dpor", report_races=True)).run()
    assert ex.stats.counter("races_found") == 2 == len(ex.findings)
    assert ex.stats.counter("races_checked") >= 4 * ex.stats.runs  # two reads and two writes per run
    ex = explorer_for(program("symbolic_index.c"), Options(mode="dpor", report_races=True)).run()
    assert ex.stats.counter("races_solver_queries") >= 2  # cells[i]/cells[j] and spare[i]/spare[k]


def test_dpor_ag_does_not_prune_while_reporting_races():
    opts = Options(mode="dpor-ag", report_races=True)
    assert not exploration_options(opts).enabled("summaries")
    assert exploration_options(Options(mode="dpor-ag")).enabled("summaries")
    assert exploration_options(Options(mode="dpor", report_races=True)) == Options(mode="dpor", report_races=True)
    _, plain = races("publish_twice.c", "dpor-ag", report=False)
    _, racing = races("publish_twice.c", "dpor-ag")
    assert plain[0].stats.pruned_runs > 0  # what would be left out ...
    assert racing[0].stats.pruned_runs == 0  # ... is explored when races are reported


def test_a_race_is_reported_once_per_check_across_sub_checks():
    text = (PROGRAMS / "racy_counter.c").read_text().replace(
        "    return 0;\n}\n\nint main", "    assert(counter >= 0);\n    return 0;\n}\n\nint main")
    prog = parse_program(text, "two_asserts.c")
    assert len(prog.assertions()) == 2
    items = list(check(prog, Options(mode="baseline", report_races=True)))
    found = [i for i in items if isinstance(i, Finding) and i.kind is FindingKind.DATA_RACE]
    # the increment's two pairs, and the new read at line 13 against the increment's write;
    # both sub-checks meet all three, each is yielded once
    assert len(found) == len({finding_key(f) for f in found}) == 3
    assert shown(found) == {("counter", frozenset({("write", "12")})),
                            ("counter", frozenset({("write", "12"), ("read", "12")})),
                            ("counter", frozenset({("write", "12"), ("read", "13")}))}


def test_a_race_shown_in_either_order_or_by_other_threads_has_one_key():
    found, _ = races("unjoined_read.c", "dpor")
    (f,) = found
    from dataclasses import replace

    steps = f.trace.steps
    other = replace(f, span=steps[0].span, message="data race on `output`: read at line 19 (thread main) "
                    "and write at line 11 (thread child#2)")
    assert finding_key(other) == finding_key(f)
    unmarked = replace(f, trace=replace(f.trace, steps=tuple(replace(s, action="x") for s in steps)))
    assert finding_key(unmarked) != finding_key(f)


@pytest.mark.parametrize("name", ["racy_counter.c", "barrier_phases.c", "symbolic_index.c", "publish_twice.c",
                                  "condvar.c", "atomic_flag.c"])
def test_reusing_the_last_runs_prefix_finds_what_a_scan_from_the_start_finds(name):
    outcomes = []
    for reuse in (True, False):
        opts = Options(mode="baseline", report_races=True, optimisations=(("race_prefix_reuse", reuse),))
        ex = explorer_for(program(name), opts).run()
        outcomes.append(([(f.span, f.message, f.trace) for f in ex.findings], ex.stats.counter("races_events_reused")))
    (with_reuse, reused), (without, not_reused) = outcomes
    assert with_reuse == without
    assert reused > 0 and not_reused == 0


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", SOURCES)
def test_no_scan_fails(name, mode):
    ex = explorer_for(program(name), Options(mode=mode, report_races=True)).run()
    assert ex.stats.counter("races_internal_errors") == 0 and ex.stop is None
