"""Spurious wake-ups (``Options.spurious_wakeups``, on by default;
``--no-spurious-wakeups`` and ``distaff.spuriousWakeups`` switch them off):
POSIX lets a condition wait return without a signal, so a wait guarded by
``if`` instead of ``while`` is a bug. By default every mode finds it, with a
counterexample that says where the thread woke unsignalled and that replays;
the ``while`` version still holds for all interleavings (a proof: a wake-up
that changed nothing is not explored again); with the option off waits return
only when signalled."""

import json

import pytest

from distaff.analysis.check import MODES, Options, check_text
from distaff.analysis.report import AssertionResult, Status
from distaff.server import cli
from distaff.server.settings import parse_settings

IF_WAIT = """\
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, data;
void *producer(void *arg) {
    pthread_mutex_lock(&m);
    data = 42;
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}
void *consumer(void *arg) {
    pthread_mutex_lock(&m);
    if (!ready)
        pthread_cond_wait(&c, &m);
    assert(data == 42);
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t p, q;
    pthread_create(&q, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
"""
WHILE_WAIT = IF_WAIT.replace("if (!ready)", "while (!ready)")


def result(src: str, mode: str, spurious: bool) -> AssertionResult:
    [r] = [i for i in check_text(src, "wait.c", Options(mode=mode, timeout_s=60, spurious_wakeups=spurious))
           if isinstance(i, AssertionResult)]
    return r


@pytest.mark.parametrize("mode", MODES)
def test_a_wait_guarded_by_if_fails_on_a_spurious_wake_up(mode):
    r = result(IF_WAIT, mode, True)
    assert r.status is Status.VIOLATED
    actions = [(s.thread, s.action) for s in r.trace.steps]
    assert any(t == "consumer#1" and a.startswith("wait on c (unlock m") and a.endswith("), woken spuriously")
               for t, a in actions), actions
    assert not any(a.startswith("signal") for _, a in actions)  # the producer never got there
    assert result(IF_WAIT, mode, False).status is Status.HOLDS


@pytest.mark.parametrize("mode", MODES)
def test_a_wait_guarded_by_while_still_holds_for_all_interleavings(mode):
    r = result(WHILE_WAIT, mode, True)
    assert r.status is Status.HOLDS
    signalled = result(WHILE_WAIT, mode, False).stats.runs
    if mode == "baseline":  # every interleaving, the consumer's unsignalled wake-ups among them
        assert r.stats.runs > signalled
    else:  # a wake-up that finds the guard as it was is no new run (guard_waits)
        assert r.stats.runs <= signalled and r.stats.counter("guard_waits") > 0


# x is 1 or 2 when the consumer waits, by the order of t1 and t2. Sleeping
# is safe either way (the producer sets x = 1 before it signals); waking
# spuriously is safe only with x == 1. dpor-ag once merged the two outcomes
# of the wait as a branch's ("sleeps or wakes": true || x != 2), stored
# "true" after the x == 1 order and pruned the x == 2 one.
ORDER_THEN_WAIT = """\
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, x;
void *t1(void *arg) { x = 2; return 0; }
void *t2(void *arg) { x = 1; return 0; }
void *producer(void *arg) {
    pthread_mutex_lock(&m);
    x = 1;
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}
void *consumer(void *arg) {
    pthread_mutex_lock(&m);
    if (!ready)
        pthread_cond_wait(&c, &m);
    assert(x != 2);
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b, p, q;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_create(&q, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_summary_covers_both_ways_a_wait_can_go(mode):
    assert result(ORDER_THEN_WAIT, mode, True).status is Status.VIOLATED
    assert result(ORDER_THEN_WAIT, mode, False).status is Status.HOLDS


def test_the_reductions_explore_no_more_runs_with_spurious_wake_ups():
    runs = [result(WHILE_WAIT, mode, True).stats.runs for mode in ("baseline", "dpor", "dpor-ag")]
    assert runs[0] >= runs[1] >= runs[2], runs


def test_the_cli_flag_is_kept_in_the_json_result_and_replay_uses_it(capsys, tmp_path):
    path = tmp_path / "wait.c"
    path.write_text(IF_WAIT)
    assert cli.main(["check", "--no-spurious-wakeups", str(path)]) == 0
    capsys.readouterr()
    assert cli.main(["check", "--format", "json", str(path)]) == 1  # POSIX by default
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert doc["options"]["spurious_wakeups"] is True
    stored = tmp_path / "r.json"
    stored.write_text(out)
    assert cli.main(["check", "--replay", str(stored)]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == f"{path}: replayed 1 of 1 counterexample, 1 identical to the stored trace"


def test_the_editor_setting_maps_to_the_option():
    s, problems = parse_settings({"spuriousWakeups": False})
    assert problems == () and s.options().spurious_wakeups is False
    assert parse_settings({})[0].options().spurious_wakeups is True  # POSIX by default
    assert parse_settings({"spuriousWakeups": "yes"})[1]  # a bad value is named
