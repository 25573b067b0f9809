"""The oracle on hand-written programs whose outcomes are known by reasoning,
and its witnesses replayed step by step."""

import pytest

from tests.differential import cprog as C
from tests.differential.handwritten import cmp, fig2, g, k, threads, two_threads, x0
from tests.differential.oracle import (
    OutsideContract, StateSpaceTooLarge, explore, replay,
)

def assert_replays(program, witness, expected):
    assert replay(program, dict(witness.inputs), witness.schedule) == expected


def test_lost_update_violates_g_equals_2():
    p = two_threads([C.Incr("g", 1)], [C.Incr("g", 1)], post=[C.Assert(0, cmp("==", g, k(2)))])
    out = explore(p)
    (v,) = out.assertions
    assert v.reached and v.violated
    assert out.deadlock is None
    assert_replays(p, v.violation, ("violated", 0))
    # the lost update: both threads read 0 before either writes
    assert sum("read g == 0" in s for s in v.violation.steps) == 2


def test_increment_under_a_mutex_holds():
    body = [C.Locked("m", (C.Incr("g", 1, "step"),))]
    p = two_threads(body, body, mutexes=("m",), post=[C.Assert(0, cmp("==", g, k(2)))])
    out = explore(p)
    (v,) = out.assertions
    assert v.reached and not v.violated
    assert out.deadlock is None


def test_fig2_reorder_holds():
    (v,) = explore(fig2(10, 20)).assertions
    assert v.reached and not v.violated


def test_fig2_with_writes_swapped_fails_and_needs_input_at_most_10():
    p = fig2(20, 10)
    (v,) = explore(p).assertions
    assert v.violated
    assert dict(v.violation.inputs)["x0"] <= 10
    assert_replays(p, v.violation, ("violated", 0))


def test_fixed_inputs_restrict_the_domain():
    p = fig2(20, 10)
    assert explore(p, {"x0": 9}).assertions[0].violated
    # x0 > 10: main returns before any thread runs
    out = explore(p, {"x0": 11})
    assert not out.assertions[0].reached
    # a value outside the assumed domain leaves no run at all
    out = explore(p, {"x0": 40})
    assert not out.assertions[0].reached and out.states == 0


def test_lock_order_inversion_deadlocks_and_same_order_does_not():
    inner = (C.Incr("g", 1),)
    ab = [C.Locked("a", (C.Locked("b", inner),))]
    ba = [C.Locked("b", (C.Locked("a", inner),))]
    p = two_threads(ab, ba, mutexes=("a", "b"), post=[C.Assert(0, cmp("==", g, k(2)))])
    out = explore(p)
    assert out.deadlock is not None
    assert_replays(p, out.deadlock, ("deadlock", None))
    assert out.assertions[0].reached and not out.assertions[0].violated

    out = explore(two_threads(ab, ab, mutexes=("a", "b"), post=[C.Assert(0, cmp("==", g, k(2)))]))
    assert out.deadlock is None


def test_failing_assertion_can_be_delayed_past_other_threads():
    """t1 writes g then fails for sure; t2 may still read the write and fail
    first, because t1 can be preempted between its write and its assert."""
    l = C.Local("l")
    p = two_threads([C.Store("g", k(1)), C.Assert(0, k(0))],
                    [C.Assign("l", g), C.Assert(0, cmp("==", l, k(0)))], locals2=("l",))
    out = explore(p)
    assert [v.violated for v in out.assertions] == [True, True]
    assert_replays(p, out.assertions[1].violation, ("violated", 1))


def test_abort_ends_the_run_so_a_repeated_assertion_never_fails():
    p = two_threads([], [], inputs=[C.Input("x0", -2, 2)],
                    post=[C.Assert(0, cmp("!=", x0, k(1))), C.Assert(0, cmp("!=", x0, k(1)))])
    first, second = explore(p).assertions
    assert first.violated and dict(first.violation.inputs) == {"x0": 1}
    assert second.reached and not second.violated


def test_assertion_under_an_impossible_branch_is_unreachable():
    p = two_threads([C.If(cmp(">", C.Local("l"), k(5)), (C.Assert(0, k(0)),))], [],
                    locals1=("l",))
    (v,) = explore(p).assertions
    assert not v.reached and not v.violated


def test_join_waits_for_the_joined_thread():
    p = two_threads([C.Store("g", k(1))], [], post=[C.Assert(0, cmp("==", g, k(1)))])
    (v,) = explore(p).assertions
    assert v.reached and not v.violated


def test_loop_runs_its_count():
    loop = C.For("i", 2, (C.Incr("g", 1),))
    p = two_threads([loop], [], post=[C.Assert(0, cmp("==", g, k(2)))])
    assert not explore(p).assertions[0].violated
    p = two_threads([loop], [loop], post=[C.Assert(0, cmp(">=", g, k(2)))])
    assert not explore(p).assertions[0].violated
    p = two_threads([loop], [loop], post=[C.Assert(0, cmp("==", g, k(4)))])
    assert explore(p).assertions[0].violated


def test_state_cap():
    body = [C.For("i", 2, (C.Incr("g", 1), C.Incr("g", -1)))]
    p = two_threads(body, body)
    with pytest.raises(StateSpaceTooLarge):
        explore(p, max_states=20)


def test_relocking_is_outside_the_contract():
    p = two_threads([C.Locked("m", (C.Locked("m", ()),))], [], mutexes=("m",))
    with pytest.raises(OutsideContract):
        explore(p)


def test_schedule_that_is_not_possible_is_reported_stuck():
    p = two_threads([C.Incr("g", 1)], [C.Incr("g", 1)], post=[C.Assert(0, cmp("==", g, k(2)))])
    # main must create t1 before t1 can run
    assert replay(p, {}, [1]) == ("stuck", 0)


def brute_force_runs(program, inputs):
    """Complete schedules counted by trying every thread at every step."""
    def count(prefix):
        n = 0
        for t in range(4):
            kind, _ = replay(program, inputs, prefix + [t])
            if kind == "stuck":
                continue
            n += count(prefix + [t]) if kind == "unfinished" else 1
        return n
    return count([])


def test_runs_count_every_schedule_once():
    p = two_threads([C.Incr("g", 1)], [C.Locked("m", (C.Store("g", k(3)),))],
                    mutexes=("m",), post=[C.Assert(0, cmp("!=", g, k(1)))])
    out = explore(p)
    assert out.runs == brute_force_runs(p, {}) > 10
    p = fig2(20, 10)
    assert explore(p).runs == sum(brute_force_runs(p, {"x0": v}) for v in range(8, 13))


# --------------------------------------------------------------------------
# Condition variables and atomic blocks


def wait(guard, loop=True):
    return C.CondWait("c", "m", guard, loop)


def test_lost_wakeup_deadlocks_and_signalling_under_the_mutex_does_not():
    """The consumer tests g under the mutex; a producer that sets g and
    signals without the mutex can do both between the test and the wait."""
    consumer = [C.Locked("m", (wait(cmp("==", g, k(0))),))]
    for producer, deadlocks in [([C.Store("g", k(1)), C.Signal("c")], True),
                                ([C.Locked("m", (C.Store("g", k(1)), C.Signal("c")))], False)]:
        p = threads({"t1": ((), consumer), "t2": ((), producer)}, ["t1", "t2"],
                    post=[C.Assert(0, cmp("==", g, k(1)))])
        out = explore(p)
        assert (out.deadlock is not None) == deadlocks
        assert out.assertions[0].reached and not out.assertions[0].violated
        if deadlocks:
            assert_replays(p, out.deadlock, ("deadlock", None))
            # the signal came while nobody waited
            assert any("signal c (no waiter)" in s for s in out.deadlock.steps)


def test_a_signal_may_wake_the_later_waiter():
    """t1 sets g and waits; t2 waits only while t1 waits (g == 1) and fails
    its assertion only if woken. One signal: t2 is woken only if the signal
    may pick the later of two waiters."""
    first = [C.Locked("m", (C.Store("g", k(1)), wait(k(1), loop=False)))]
    second = [C.Locked("m", (wait(cmp("==", g, k(1)), loop=False), C.Assert(0, cmp("!=", g, k(1)))))]
    signaller = [C.Locked("m", (C.Signal("c"),))]
    p = threads({"t1": ((), first), "t2": ((), second), "t3": ((), signaller)}, ["t1", "t2", "t3"])
    out = explore(p)
    (v,) = out.assertions
    assert v.violated
    assert any("signal c, waking t2#2" in s for s in v.violation.steps)
    assert any(isinstance(item, tuple) for item in v.violation.schedule)  # a choice was made
    assert_replays(p, v.violation, ("violated", 0))
    assert out.deadlock is not None  # one signal, two waiters


def test_the_signal_choice_is_part_of_the_schedule():
    first = [C.Locked("m", (wait(k(1), loop=False), C.Store("g", k(1))))]
    second = [C.Locked("m", (wait(k(1), loop=False), C.Store("g", k(2))))]
    signaller = [C.Locked("m", (C.Signal("c"),))]
    p = threads({"t1": ((), first), "t2": ((), second), "t3": ((), signaller)}, ["t1", "t2", "t3"])
    # main creates all three; t1 and t2 lock and wait; t3 locks and signals
    prefix = [0, 0, 0, 1, 1, 2, 2, 3]
    for choice in (0, 1):
        # the woken thread takes the mutex, writes g and ends; the other sleeps
        schedule = prefix + [(3, choice), 3, 1 + choice, 1 + choice, 1 + choice]
        # main joins t1 first: it can go on only if t1 was the one woken
        assert replay(p, {}, schedule) == (("unfinished", None) if choice == 0 else ("deadlock", None))
        assert replay(p, {}, schedule + [0]) == (("deadlock", None) if choice == 0
                                                 else ("stuck", len(schedule)))
    assert replay(p, {}, prefix + [(3, 2)]) == ("stuck", len(prefix))  # only two sleep


def test_broadcast_wakes_every_waiter_and_signal_only_one():
    consumer = [C.Locked("m", (wait(cmp("==", g, k(0))), C.Incr("g", 1)))]
    post = [C.Assert(0, cmp("==", g, k(3)))]
    for broadcast in (True, False):
        producer = [C.Locked("m", (C.Store("g", k(1)), C.Signal("c", broadcast)))]
        p = threads({"t1": ((), consumer), "t2": ((), producer)}, ["t1", "t1", "t2"], post=post)
        out = explore(p)
        assert out.assertions[0].reached and not out.assertions[0].violated
        assert (out.deadlock is None) == broadcast


def test_if_around_a_wait_lets_two_consumers_take_one_item():
    """Two consumers, two producers of one item each: with `if`, a woken
    consumer may find the item taken by the other consumer; `while` tests
    again and never takes from an empty buffer."""
    producer = [C.Locked("m", (C.Incr("g", 1), C.Signal("c")))]
    for loop in (False, True):
        consumer = [C.Locked("m", (wait(cmp("==", g, k(0)), loop), C.Incr("g", -1),
                                   C.Assert(0, cmp(">=", g, k(0)))))]
        p = threads({"consumer": ((), consumer), "producer": ((), producer)},
                    ["consumer", "consumer", "producer", "producer"])
        out = explore(p)
        (v,) = out.assertions
        assert v.reached and v.violated == (not loop)
        assert out.deadlock is None
        if not loop:
            assert_replays(p, v.violation, ("violated", 0))


def test_a_wait_loop_is_followed_however_many_times_it_is_woken():
    # no bound applies to a wait loop (the engine does not count its signalled
    # rounds): the consumer waits for the producer's fifth increment
    rounds = C.MAX_WAIT_ROUNDS + 1
    consumer = [C.Locked("m", (wait(cmp("<", g, k(rounds))), C.Assert(0, cmp("==", g, k(rounds)))))]
    producer = [C.For("i", rounds, (C.Locked("m", (C.Incr("g", 1), C.Signal("c"))),))]
    p = threads({"t1": ((), consumer), "t2": ((), producer)}, ["t1", "t2"])
    out = explore(p)
    assert out.assertions[0].reached and not out.assertions[0].violated and not out.cut


def test_an_atomic_block_runs_without_interruption():
    for atomic in (False, True):
        body = [C.Atomic((C.Incr("g", 1),))] if atomic else [C.Incr("g", 1)]
        p = two_threads(body, body, post=[C.Assert(0, cmp("==", g, k(2)))])
        assert explore(p).assertions[0].violated == (not atomic)


def test_another_thread_may_run_before_an_atomic_block():
    """A write, then an atomic read-back: another thread's write can land
    between them (the block's begin is a scheduling point)."""
    l = C.Local("l")
    p = two_threads([C.Store("g", k(1)), C.Atomic((C.Assign("l", g), C.Assert(0, cmp("==", l, k(1)))))],
                    [C.Store("g", k(2))], locals1=("l",))
    (v,) = explore(p).assertions
    assert v.violated
    assert_replays(p, v.violation, ("violated", 0))
