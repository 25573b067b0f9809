"""The engine against an independent oracle, on programs no one chose.

Hypothesis generates small pthreads programs (:mod:`gen`); the oracle
(:mod:`oracle`) explores every input and schedule of each concretely; the
front end and ``distaff.analysis.check.check`` must agree with it in every mode of
``distaff.analysis.check.MODES``, and the modes with each other
(:func:`compare.discrepancies` lists what counts as disagreement).

Budget: ``DISTAFF_DIFF_EXAMPLES`` programs (default 2,000: about 0.25 s of
CPU each; ``DISTAFF_DIFF_SPURIOUS_EXAMPLES``, default 300, more with
spurious wake-ups), drawn in ``SHARDS`` independent tests so that ``pytest -n`` spreads
them over the cores; each with at most ``DISTAFF_DIFF_MAX_RUNS`` schedules
for any one input (larger ones are rejected, not checked). A mode the engine
does not implement fails here: it is not skipped.

A failure is reported as generated (no shrinking unless
``DISTAFF_DIFF_SHRINK=1``): the message holds the C text and every
discrepancy, each with the oracle's witness run.

Regressions: every discrepancy found is kept as a C file under
``regressions/`` whose comment states the oracle's verdicts
(:mod:`regression_files`); each is checked in every mode. One the engine
still gets wrong is marked ``OPEN`` in its comment: it is an xfail there, and
the random test does not count it again.
"""

import os

import pytest
from hypothesis import HealthCheck, assume, given, settings

from distaff.analysis import check as engine
from tests.differential import compare, gen, oracle, regression_files
from tests.differential import cprog as C
from tests.differential.handwritten import cmp, fig2, g, k, threads, two_threads

EXAMPLES = int(os.environ.get("DISTAFF_DIFF_EXAMPLES", "2000"))
MAX_RUNS = int(os.environ.get("DISTAFF_DIFF_MAX_RUNS", "300"))
SHARDS = 16
OPEN_PROGRAMS = regression_files.open_programs()


# The programs are the same on every run (tests/conftest.py), so a landing is
# judged on one known set (each shard draws its own); DISTAFF_FRESH=1 draws
# new ones, as bench/differential_scale.py does by the thousand.
@pytest.mark.parametrize("shard", range(SHARDS))
@settings(max_examples=max(1, -(-EXAMPLES // SHARDS)), deadline=None, phases=gen.PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(program=gen.programs())
def test_engine_agrees_with_the_oracle_in_every_mode(shard, program):
    # a known discrepancy (an OPEN regression file) fails there, as an xfail
    assume(regression_files.normalised(C.to_c(program)) not in OPEN_PROGRAMS)
    try:  # three threads spinning may pass the oracle's state cap
        outcome = oracle.explore(program)
    except oracle.StateSpaceTooLarge:  # rejected, not checked
        assume(False)
    assume(outcome.widest <= MAX_RUNS)
    problems = compare.discrepancies(program, outcome=outcome)
    assert not problems, C.to_c(program) + "\n" + "\n".join(problems)


SPURIOUS_EXAMPLES = int(os.environ.get("DISTAFF_DIFF_SPURIOUS_EXAMPLES", "300"))
SPURIOUS_SHARDS = 4


# The same comparison with spurious wake-ups on both sides, on programs that
# wait on a condition variable (four programs in ten are drawn with one).
@pytest.mark.parametrize("shard", range(SPURIOUS_SHARDS))
@settings(max_examples=max(1, -(-SPURIOUS_EXAMPLES // SPURIOUS_SHARDS)), deadline=None, phases=gen.PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(program=gen.programs())
def test_spurious_wake_ups_agree_with_the_oracle_in_every_mode(shard, program):
    assume(any(isinstance(s, C.CondWait) for s in C.all_statements(program)))
    try:  # a while loop may now wait once more than the contract's rounds
        outcome = oracle.explore(program, spurious=True)
    except (oracle.OutsideContract, oracle.StateSpaceTooLarge):  # rejected, not checked
        assume(False)
    assume(outcome.widest <= MAX_RUNS)
    problems = compare.discrepancies(program, outcome=outcome, spurious=True)
    assert not problems, C.to_c(program) + "\n" + "\n".join(problems)


def test_every_mode_is_compared():
    assert set(engine.MODES) == {"baseline", "dpor", "dpor-ag", "rf"}


def _lost_update(locked: bool):
    body = (C.Incr("g", 1),)
    if locked:
        body = (C.Locked("m", body),)
    return two_threads(body, body, mutexes=("m",) if locked else (),
                       post=[C.Assert(0, cmp("==", g, k(2)))])


def _lock_order_inversion():
    inner = (C.Incr("g", 1),)
    return two_threads([C.Locked("a", (C.Locked("b", inner),))],
                       [C.Locked("b", (C.Locked("a", inner),))],
                       mutexes=("a", "b"), post=[C.Assert(0, cmp("==", g, k(2)))])


def _two_consumers(loop: bool):
    """Two consumers, one item: with `if` around the wait, a woken consumer
    may find the item taken; with `while` it waits again (for ever)."""
    wait = C.CondWait("c", "m", cmp("==", g, k(0)), loop)
    consumer = [C.Locked("m", (wait, C.Incr("g", -1), C.Assert(0, cmp(">=", g, k(0)))))]
    producer = [C.Locked("m", (C.Incr("g", 1), C.Signal("c")))]
    return threads({"consumer": ((), consumer), "producer": ((), producer)},
                   ["consumer", "consumer", "producer"])


def _lost_wakeup():
    consumer = [C.Locked("m", (C.CondWait("c", "m", cmp("==", g, k(0))),))]
    return threads({"consumer": ((), consumer),
                    "producer": ((), [C.Store("g", k(1)), C.Signal("c")])},
                   ["consumer", "producer"], post=[C.Assert(0, cmp("==", g, k(1)))])


def _later_waiter_woken():
    """t2 waits only while t1 waits, and fails only when woken: one signal
    must be able to wake the later of two waiters (a first-in-first-out
    choice misses the failure; the engine once made it)."""
    first = [C.Locked("m", (C.Store("g", k(1)), C.CondWait("c", "m", k(1), loop=False)))]
    second = [C.Locked("m", (C.CondWait("c", "m", cmp("==", g, k(1)), loop=False),
                             C.Assert(0, cmp("!=", g, k(1)))))]
    signaller = [C.Locked("m", (C.Signal("c"),))]
    return threads({"t1": ((), first), "t2": ((), second), "t3": ((), signaller)},
                   ["t1", "t2", "t3"])


def _semaphore_handoff(posts: int):
    """t1 sets g, then posts; each of two waiters takes the semaphore, then
    reads g. One post leaves one waiter asleep for ever."""
    waiter = [C.SemWait("s"), C.Assert(0, cmp("==", g, k(1)))]
    poster = [C.Store("g", k(1))] + [C.SemPost("s")] * posts
    return threads({"waiter": ((), waiter), "poster": ((), poster)}, ["waiter", "waiter", "poster"],
                   mutexes=(), conds=(), sems=(("s", 0),))


def _readers_and_a_writer(writer_reads: bool):
    """The writer passes g through 1 on its way to 2; readers must not see
    the 1 unless the "writer" holds only a read lock."""
    writer = [C.RwLocked("rw", not writer_reads, (C.Store("g", k(1)), C.Store("g", k(2))))]
    reader = [C.RwLocked("rw", False, (C.Assert(0, cmp("!=", g, k(1))),))]
    return threads({"writer": ((), writer), "reader": ((), reader)}, ["reader", "writer", "reader"],
                   mutexes=(), conds=(), rwlocks=("rw",))


# name: (program, its assertions' statuses, whether it can deadlock)
KNOWN = {
    "lost-update": (_lost_update(False), ["violated"], False),
    "locked-increment": (_lost_update(True), ["holds"], False),
    "fig2-reorder": (fig2(10, 20), ["holds"], False),
    "fig2-swapped": (fig2(20, 10), ["violated"], False),
    "lock-order-inversion": (_lock_order_inversion(), ["holds"], True),
    "if-wait-two-consumers": (_two_consumers(False), ["violated"], True),
    "while-wait-two-consumers": (_two_consumers(True), ["holds"], True),
    "lost-wakeup": (_lost_wakeup(), ["holds"], True),
    "signal-wakes-the-later-waiter": (_later_waiter_woken(), ["violated"], True),
    "semaphore-handoff": (_semaphore_handoff(2), ["holds"], False),
    "semaphore-one-post-two-waiters": (_semaphore_handoff(1), ["holds"], True),
    "rwlock-readers-and-a-writer": (_readers_and_a_writer(False), ["holds"], False),
    "rwlock-update-under-a-read-lock": (_readers_and_a_writer(True), ["violated"], False),
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_engine_agrees_on_programs_of_known_outcome(name):
    program, statuses, deadlock = KNOWN[name]
    outcome = oracle.explore(program)
    assert [compare.expected_status(v).label for v in outcome.assertions] == statuses
    assert (outcome.deadlock is not None) == deadlock
    problems = compare.discrepancies(program, outcome=outcome)
    assert not problems, C.to_c(program) + "\n" + "\n".join(problems)


def _if_wait(loop: bool):
    consumer = [C.Locked("m", (C.CondWait("c", "m", cmp("==", g, k(0)), loop), C.Assert(0, cmp("==", g, k(1)))))]
    producer = [C.Locked("m", (C.Store("g", k(1)), C.Signal("c")))]
    return threads({"consumer": ((), consumer), "producer": ((), producer)}, ["consumer", "producer"])


@pytest.mark.parametrize("loop, with_spurious", [(False, "violated"), (True, "holds")])
def test_a_spurious_wake_up_breaks_an_if_wait_on_both_sides(loop, with_spurious):
    program = _if_wait(loop)
    assert compare.expected_status(oracle.explore(program).assertions[0]).label == "holds"
    outcome = oracle.explore(program, spurious=True)
    assert compare.expected_status(outcome.assertions[0]).label == with_spurious
    problems = compare.discrepancies(program, outcome=outcome, spurious=True)
    assert not problems, C.to_c(program) + "\n" + "\n".join(problems)
    if not loop:
        assert any(step.endswith(", woken spuriously") for step in outcome.assertions[0].violation.steps)


@pytest.mark.parametrize("mode", engine.MODES)
@pytest.mark.parametrize("path", regression_files.files(), ids=os.path.basename)
def test_regression(path, mode, request):
    with open(path) as f:
        text = f.read()
    if regression_files.is_open(text):
        request.applymarker(pytest.mark.xfail(strict=False, reason="open: the engine still gets it wrong"))
    want, deadlock = regression_files.expectations(text)
    ev = compare.run_engine(text, mode, spurious=regression_files.spurious(text))
    got = {line: [r.status.label for r in ev.assertions.get(line, [])] for line in want}
    assert got == {line: [status] for line, status in want.items()}
    for line, (r,) in ev.assertions.items():
        if r.status.label == "violated":
            # a counterexample is a C run: it ends where its assertion fails
            failures = [i for i, s in enumerate(r.trace.steps) if s.action.endswith(" fails")]
            assert failures == [len(r.trace.steps) - 1], r.trace.steps
            assert r.trace.steps[-1].span.line == line
    kinds = {f.kind.value for f in ev.findings}
    assert ("deadlock" in kinds) == deadlock
    stuck = regression_files.stuck_expected(text)
    if stuck is not None:
        assert ("stuck" in kinds) == stuck
    assert kinds <= {"deadlock", "data-race"} | ({"stuck"} if stuck else set()), ev.findings
