"""Replaying counterexamples written by hand in the engine's trace format."""

from distaff.analysis.ir import Span
from distaff.analysis.report import Step, Trace

from tests.differential import cprog as C
from tests.differential.handwritten import cmp, fig2, g, k, two_threads
from tests.differential.trace_replay import replay_violation


def trace(*steps):
    return Trace(inputs=(), steps=tuple(Step(tid, name, Span("gen.c", line, 1, line, 2), action)
                                        for tid, name, line, action in steps))


def lost_update():
    return two_threads([C.Incr("g", 1)], [C.Incr("g", 1)], post=[C.Assert(0, cmp("==", g, k(2)))])


LOST = [
    (0, "main", 20, "create t1#1"),
    (0, "main", 21, "create t2#1"),
    (1, "t1#1", 9, "read g == 0"),
    (2, "t2#1", 14, "read g == 0"),
    (2, "t2#1", 14, "write g = 1"),
    (2, "t2#1", 15, "return NULL"),
    (1, "t1#1", 9, "write g = 1"),
    (0, "main", 22, "read h0 == 1"),
    (0, "main", 22, "join t1#1"),
    (0, "main", 23, "join t2#1"),
    (0, "main", 24, "read g == 1"),
    (0, "main", 24, "assert g == 2 fails"),
]


def test_a_real_run_replays():
    p = lost_update()
    assert replay_violation(p, C.render(p), trace(*LOST), 0, {}) is None


def test_a_wrong_value_does_not():
    p = lost_update()
    steps = list(LOST)
    steps[4] = (2, "t2#1", 14, "write g = 5")
    why = replay_violation(p, C.render(p), trace(*steps), 0, {})
    assert "the oracle writes 1" in why


def test_a_run_that_does_not_fail_does_not():
    p = lost_update()
    steps = [s for s in LOST if s[3] != "read g == 0"]  # both reads gone: no longer one run
    assert replay_violation(p, C.render(p), trace(*steps), 0, {}) is not None
    assert replay_violation(p, C.render(p), trace(*LOST[:-1]), 0, {}) is not None


def test_a_run_going_on_after_an_abort_does_not():
    l = C.Local("l")
    p = two_threads([C.Store("g", k(1)), C.Assert(0, k(0))],
                    [C.Assign("l", g), C.Assert(0, cmp("==", l, k(0)))], locals2=("l",))
    steps = [(0, "main", 1, "create t1#1"), (0, "main", 1, "create t2#1"),
             (1, "t1#1", 1, "write g = 1"), (1, "t1#1", 1, "assert 0 fails"),
             (2, "t2#1", 1, "read g == 1"), (2, "t2#1", 1, "assert l == 0 fails")]
    why = replay_violation(p, C.render(p), trace(*steps), 1, {})
    assert "fails first" in why
    good = steps[:3] + steps[4:]
    assert replay_violation(p, C.render(p), trace(*good), 1, {}) is None


def test_inputs_outside_the_domain_or_left_out():
    p = fig2(20, 10)
    steps = [(0, "main", 1, "write g = 9"), (0, "main", 1, "create t1#1"),
             (0, "main", 1, "create t2#1"), (1, "t1#1", 1, "write g = 20"),
             (2, "t2#1", 1, "read g == 20"), (1, "t1#1", 1, "write g = 10"),
             (2, "t2#1", 1, "read g == 10"), (2, "t2#1", 1, "assert a <= b fails")]
    r = C.render(p)
    assert replay_violation(p, r, trace(*steps), 0, {"x0": 9}) is None
    assert replay_violation(p, r, trace(*steps), 0, {}) is None  # completed: x0 = 9 works
    assert replay_violation(p, r, trace(*steps), 0, {"x0": 8}) is not None
    assert "outside" in replay_violation(p, r, trace(*steps), 0, {"x0": 40})


def test_a_read_short_circuit_evaluation_skips_may_be_passed_over():
    # t1: if (0 == 0 || g != 5) g++;  C never reads g in the condition, so the
    # engine's read of g is g++'s; the oracle reads g for the condition first,
    # and the replay must let that read pass (else g++'s read comes after
    # t2's write and the oracle writes 8, not 1)
    p = two_threads([C.If(C.Bin("||", cmp("==", k(0), k(0)), cmp("!=", g, k(5))), (C.Incr("g", 1),))],
                    [C.Store("g", k(7))], post=[C.Assert(0, cmp("==", g, k(8)))])
    steps = [(0, "main", 1, "create t1#1"), (0, "main", 1, "create t2#1"),
             (1, "t1#1", 1, "read g == 0"), (2, "t2#1", 1, "write g = 7"),
             (1, "t1#1", 1, "write g = 1"),
             (0, "main", 1, "join t1#1"), (0, "main", 1, "join t2#1"),
             (0, "main", 1, "read g == 1"), (0, "main", 1, "assert g == 8 fails")]
    assert replay_violation(p, C.render(p), trace(*steps), 0, {}) is None
    steps[4] = (1, "t1#1", 1, "write g = 8")  # no reading of the reads makes this a run
    assert replay_violation(p, C.render(p), trace(*steps), 0, {}) is not None


def test_a_failed_compare_and_swap_replays():
    """The engine lowers a compare-and-swap that fails as a store of the value
    it found ("write g = 5" in the trace, where the oracle only reads): the
    counterexample in which t1's first swap fails still replays, and a write
    of another value than the one there still does not."""
    l = C.Local("l")
    p = two_threads([C.CasAdd("g", 1, "l"), C.Assert(0, cmp("!=", l, k(5)))], [C.Store("g", k(5))],
                    locals1=("l",))
    steps = [(0, "main", 1, "create t1#1"), (0, "main", 1, "create t2#1"),
             (1, "t1#1", 1, "read g == 0"), (2, "t2#1", 1, "write g = 5"),
             (1, "t1#1", 1, "read g == 5"), (1, "t1#1", 1, "write g = 5"),
             (1, "t1#1", 1, "read g == 5"), (1, "t1#1", 1, "read g == 5"), (1, "t1#1", 1, "write g = 6"),
             (1, "t1#1", 1, "assert l != 5 fails")]
    assert replay_violation(p, C.render(p), trace(*steps), 0, {}) is None
    steps[5] = (1, "t1#1", 1, "write g = 7")
    assert replay_violation(p, C.render(p), trace(*steps), 0, {}) is not None
    from tests.differential import compare
    assert compare.discrepancies(p) == []
