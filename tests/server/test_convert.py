"""Results to LSP values: wording per outcome, traces folded or related,
positions in UTF-16, code lenses and actions."""

from lsprotocol import types as lsp

from distaff.analysis import ir
from distaff.analysis.ir import AssertionSite, AssertKind, Span
from distaff.analysis.options import Options
from distaff.analysis.report import (
    AssertionResult, Finding, FindingKind, Input, Reason, StatementSummary, Stats, Status, Step, Trace,
)
from distaff.server import convert, wording
from distaff.server.documents import Snapshot

TEXT = """int x;
void *t1(void *a) { x = 10; x = 20; return 0; }
void *t2(void *a) { int a1 = x; int b = x; assert(a1 <= b); return 0; }
int main(void) { /* é😀 */ assert(x == 0); return 0; }
"""
SNAP = Snapshot.of("file:///tmp/f.c", 3, TEXT)


def span(line, col, end_col):
    return Span("/tmp/f.c", line, col, line, end_col)


ASSERT_SPAN = span(3, 44, 60)
STATS = Stats(runs=13, full_runs=4, pruned_runs=9, solver_calls=20, solver_time_s=0.1, time_s=0.5)
TRACE = Trace(
    inputs=(Input("x@main:4", 5, span(4, 1, 5)),),
    steps=(Step(0, "main", span(4, 18, 30), "create thread t2#1"),
           Step(1, "t2#1", span(3, 25, 35), "read x == 5"),
           Step(2, "t1#1", span(2, 21, 28), "write x = 10")),
)


def result(status, **kw):
    kw.setdefault("stats", STATS)
    return AssertionResult("t2:7", ASSERT_SPAN, "a1 <= b", status, unwind=8, mode="dpor-ag", **kw)


def test_violation_with_related_information():
    d = convert.assertion_diagnostic(SNAP, result(Status.VIOLATED, trace=TRACE), fold=False)
    assert d.severity == lsp.DiagnosticSeverity.Error and d.source == "distaff"
    assert d.message == "assertion `a1 <= b` can fail with x = 5"
    assert [r.message for r in d.related_information] == [
        "input x = 5", "1. main: create thread t2#1", "2. t2#1: read x == 5", "3. t1#1: write x = 10"]
    assert d.related_information[2].location.range.start == lsp.Position(2, 24)
    assert d.range == lsp.Range(lsp.Position(2, 43), lsp.Position(2, 59))


def test_violation_folded_into_message_numbered():
    d = convert.assertion_diagnostic(SNAP, result(Status.VIOLATED, trace=TRACE), fold=True)
    assert d.related_information is None
    assert d.message.splitlines()[1:] == [
        "Schedule:", "input x = 5 (line 4)", "1. main (line 4): create thread t2#1", "2. t2#1 (line 3): read x == 5",
        "3. t1#1 (line 2): write x = 10"]


def test_a_proof_and_a_bounded_answer_are_shown_apart():
    d = convert.assertion_diagnostic(SNAP, result(Status.HOLDS), fold=False)
    assert d.severity == lsp.DiagnosticSeverity.Information and d.code == "holds"
    assert d.message == "assertion `a1 <= b` holds for all interleavings under sequential consistency: 13 runs, 9 pruned"
    bounded = result(Status.BOUNDED, stats=Stats(runs=5, bound_cuts=2),
                     message="unwind 8 stopped t2's loop at line 5; checked on 5 paths")
    d = convert.assertion_diagnostic(SNAP, bounded, fold=False)
    # not shown like a proof: a warning that says so
    assert d.severity == lsp.DiagnosticSeverity.Warning and d.code == "bounded"
    assert d.message == ("assertion `a1 <= b` has no violation within unwind 8, not a proof (unwind 8 stopped "
                         "t2's loop at line 5; checked on 5 paths): 5 runs, 2 cut by the bound")
    assert "all interleavings" not in d.message and "holds" not in d.message
    unreached = result(Status.UNKNOWN, reason=Reason.BOUND, stats=Stats(runs=5, bound_cuts=5),
                       message="unwind 8 stopped main's loop at line 9; a larger --unwind may reach it")
    d = convert.assertion_diagnostic(SNAP, unreached, fold=False)
    assert d.severity == lsp.DiagnosticSeverity.Warning and d.code == "bound-reached"
    assert d.message.startswith("assertion `a1 <= b` undecided (not reached within the bound: unwind 8 stopped")


def test_undecided_outcomes_are_warnings_and_never_say_holds():
    options = Options(timeout_s=5, max_runs=100)
    for reason, words in [(Reason.TIMEOUT, "undecided (timeout after 5 s): 13 runs, 9 pruned"),
                          (Reason.MAX_RUNS, "undecided (run limit of 100 reached): 13 runs, 9 pruned"),
                          (Reason.CANCELLED, "not checked (cancelled)"),
                          (Reason.CRASHED, "not checked (the checker crashed)"),
                          (Reason.SOLVER, "undecided (the solver gave up): 13 runs, 9 pruned")]:
        d = convert.assertion_diagnostic(SNAP, result(Status.UNKNOWN, reason=reason), options, fold=False)
        assert d.severity == lsp.DiagnosticSeverity.Warning
        assert d.message == f"assertion `a1 <= b` {words}"
        assert d.code == reason.value


def test_deadlock_finding_with_trace_and_front_end_findings():
    f = Finding(FindingKind.DEADLOCK, span(4, 18, 30), "no thread can run: main waits for t1#1", TRACE)
    d = convert.finding_diagnostic(SNAP, f, fold=True)
    assert d.severity == lsp.DiagnosticSeverity.Warning
    assert d.message.startswith("deadlock: no thread can run") and "1. main (line 4)" in d.message
    syntax = convert.front_end_diagnostic(SNAP, ir.Finding(ir.FindingKind.SYNTAX, "expected ';'", span(2, 3, 4)))
    unsupported = convert.front_end_diagnostic(SNAP, ir.Finding(ir.FindingKind.UNSUPPORTED, "setjmp", span(2, 3, 4)))
    assert syntax.severity == lsp.DiagnosticSeverity.Error and unsupported.severity == lsp.DiagnosticSeverity.Warning
    header = convert.front_end_diagnostic(SNAP, ir.Finding(ir.FindingKind.SYNTAX, "bad", Span("/tmp/h.h", 7, 1, 7, 2)))
    assert syntax.message == "syntax error: expected ';'" and unsupported.message == "unsupported: setjmp"
    assert header.message == "h.h:7: syntax error: bad" and header.range.start == lsp.Position(0, 0)


def test_positions_count_utf16_units_after_astral_characters():
    # line 4: "int main(void) { /* é😀 */ assert(x == 0); ..." -- 😀 is two UTF-16 units
    col = TEXT.splitlines()[3].index("assert") + 1
    assert SNAP.lsp_position(4, col) == (3, col - 1 + 1)
    assert SNAP.span_position(3, col) == (4, col)
    utf32 = Snapshot.of(SNAP.uri, 1, TEXT, "utf-32")
    assert utf32.lsp_position(4, col) == (3, col - 1)


def test_lens_titles():
    assert wording.lens_title(result(Status.HOLDS), False) == "holds under SC · 13 runs"
    assert wording.lens_title(result(Status.HOLDS), False, memory_model="rc11") == "holds under C11 · 13 runs"
    assert wording.lens_title(result(Status.BOUNDED), False) == "no violation within unwind 8 · 13 runs"
    assert wording.lens_title(result(Status.UNKNOWN, reason=Reason.BOUND), False) == \
        "undecided: not reached within the bound"
    assert wording.lens_title(result(Status.VIOLATED), False) == "fails"
    unsure = result(Status.VIOLATED, depends_on=("context:counter",))
    assert wording.lens_title(unsure, False) == "may fail"
    assert convert.assertion_diagnostic(SNAP, unsure, fold=False).severity == lsp.DiagnosticSeverity.Warning
    assert wording.lens_title(None, True) == "checking…"
    assert wording.lens_title(result(Status.UNKNOWN, reason=Reason.TIMEOUT), False) == "undecided: timeout"


def test_hover_parts():
    site = AssertionSite("t2", 7, AssertKind.ASSERT, ASSERT_SPAN, "a1 <= b")
    text = convert.assertion_hover(result(Status.HOLDS), site, False)
    assert "holds for all interleavings" in text and "13 runs (4 full, 9 pruned)" in text
    r = result(Status.HOLDS, summaries=(StatementSummary(span(3, 21, 33), "x <= 10", 4),))
    assert convert.summaries_hover([r], 3, 25) == "Predicate summary for `a1 <= b` (pruned 4 runs):\n```c\nx <= 10\n```"
    assert convert.summaries_hover([r], 3, 5) == convert.summaries_hover([r], 3, 25)  # anywhere on its line
    assert convert.summaries_hover([r], 2, 25) is None
    true = result(Status.HOLDS, summaries=(StatementSummary(span(2, 21, 28), "1", 1),))
    assert convert.summaries_hover([true], 2, 22) == (
        "Predicate summary for `a1 <= b` (pruned 1 run): true, no explored run through here violates it")


def test_code_actions_carry_the_statement_position():
    actions = convert.code_actions(SNAP, span(3, 21, 33), has_context=True)
    assert [a.title for a in actions] == ["Check from here", "Pin this thread here", "Clear context results and pins"]
    assert actions[0].command == "distaff.checkFromHere"
    assert actions[0].arguments == [{"uri": SNAP.uri, "line": 2, "character": 20}]


def test_a_long_folded_schedule_keeps_its_start_and_end():
    steps = tuple(Step(1, "t1#1", span(2, 21, 28), f"write x = {n}") for n in range(200))
    d = convert.assertion_diagnostic(SNAP, result(Status.VIOLATED, trace=Trace((), steps)), fold=True)
    lines = d.message.splitlines()[2:]
    assert len(lines) == convert.MAX_FOLDED_STEPS + 1
    assert lines[0].startswith("1. ") and lines[-1] == "200. t1#1 (line 2): write x = 199"
    assert "… 140 more steps …" in lines
