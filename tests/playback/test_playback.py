"""Concrete playback end to end: `distaff check --playback DIR` writes a
reproducer for each violation, the system C compiler builds it with the
command printed, and the native run fails at the reported assertion.

Every program under tests/ and examples/ with a violation is here
(VIOLATING, kept by hand: ``test_violating_list_is_complete`` fails when a
program gains or loses a violation), save the two in NO_REPRODUCER with the
reason. The reproducers need a C compiler with -fsanitize=thread (gcc 12 here;
ci-setup.sh installs build-essential and gdb on CI).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess

import pytest

from distaff.server import cli
from tests.cli.test_cli import ROOT

CC = shutil.which("cc")
needs_cc = pytest.mark.skipif(CC is None and not os.environ.get("CI"),
                              reason="no C compiler here (CI installs build-essential)")

VIOLATING = [
    "examples/racy_counter.c",
    "tests/programs/abort_is_global.c",
    "tests/programs/argv/config_limit.c",  # the reproducer runs main with the counterexample's command line
    "tests/programs/argv/options.c",
    "tests/programs/argv/long_number.c",  # a command line rebuilt from the model of every command line
    "tests/programs/argv/many_arguments.c",
    "tests/programs/context/list.c",
    "tests/programs/context_sureness/known_start.c",
    "tests/programs/early_bug_long_loop.c",
    "tests/programs/modular/argument_workers_bad.c",  # the workers start once main has made them all
    "tests/programs/prodcons_cond_woken_first_bad.c",
    "tests/programs/error_sites.c",
    "tests/programs/float/long_double_sum.c",  # long double inputs passed by their 80 bits
    "tests/programs/float/racy_mean.c",
    "tests/programs/float/rounding.c",
    "tests/programs/locked_memcpy.c",
    "tests/programs/loops/queue20_locked_bad.c",
    "tests/programs/prodcons_if.c",
    "tests/programs/racy_counter.c",
    "tests/programs/realworld/chase_lev_bad.c",
    "tests/programs/realworld/list_container_of_bad.c",
    "tests/programs/realworld/mcs_lock_bad.c",
    "tests/programs/realworld/ms_queue_bad.c",
    "tests/programs/realworld/qspinlock_bad.c",
    "tests/programs/realworld/seqlock_bad.c",
    "tests/programs/reorder_bad.c",
    "tests/programs/rmw/add_or_bad.c",
    "tests/programs/rmw/first_served_bad.c",
    "tests/programs/rmw/sampled_level_bad.c",
    "tests/programs/scale/ifwait_queue4.c",
    "tests/programs/scale/signal_woken_takes_first.c",
    "tests/programs/signal_any_waiter.c",
    "tests/programs/string_race.c",
    "tests/programs/sync/c11_atomic_counter.c",
    "tests/programs/sync/c11_treiber_stack_bad.c",
    "tests/programs/sync/c11_trylock_bad.c",
    "tests/programs/sync/cond_timedwait.c",
    "tests/programs/sync/mutex_timedlock.c",
    "tests/programs/sync/once_flag_bad.c",
    "tests/programs/sync/rwlock_read_update.c",
    "tests/programs/sync/rwlock_trywrlock.c",
    "tests/programs/sync/rwlock_write_before_blocking.c",
    "tests/programs/sync/sem_bounded_buffer_bad.c",
    "tests/programs/sync/sem_counting_pool_bad.c",
    "tests/programs/sync/sem_trywait.c",
    "tests/programs/sync/spin_trylock_bad.c",
    "tests/programs/sync/thread_local_counter.c",
    "tests/programs/spin/bakery_no_choosing.c",
    "tests/programs/spin/barrier3_no_second.c",
    "tests/programs/spin/peterson_late_flag.c",
    "tests/programs/spin/seqlock_odd_unchecked.c",
    "tests/programs/spin/tas_order.c",
    "tests/programs/spin/ttas_no_exchange.c",
    "tests/programs/sync_builtins.c",
    "tests/programs/thread_factory.c",
    "tests/programs/torn_memcpy.c",
    "tests/programs/two_failures_and_a_deadlock.c",
    "tests/programs/unreach.c",
    "tests/differential/regressions/abort_after_write.c",
    "tests/differential/regressions/ag_misses_a_stuck_spin.c",
    "tests/differential/regressions/ag_summary_over_a_silent_store.c",
    "tests/differential/regressions/cut_only_in_a_pruned_run.c",
    "tests/differential/regressions/deadlock_beside_a_violation.c",
    "tests/differential/regressions/dpor_deadlock_beside_a_failure_under_locks.c",
    "tests/differential/regressions/dpor_misses_a_failure_beside_aborting_threads.c",
    "tests/differential/regressions/dpor_silent_store_moved_first.c",
    "tests/differential/regressions/dpor_spinning_twins_without_park_futile.c",
    "tests/programs/twins/racy_counter3.c",
    "tests/programs/twins/join_one_then_look.c",
    "tests/programs/twins/ticket_order.c",
    "tests/programs/twins/self_first.c",
    "tests/programs/twins/two_kinds.c",
    "tests/programs/waits/taken_twice.c",
    "tests/programs/waits/woken_before_exit.c",
    "tests/differential/regressions/dpor_assume_narrowing_inputs_run_first.c",
    # t0 takes no step before the failure: natively its assumption, false on
    # the counterexample's input, parks it (runtime.c's distaff_assume)
    "tests/differential/regressions/dpor_assume_first_hides_an_earlier_failure.c",
    "tests/differential/regressions/futile_round_read_a_symbol.c",
    "tests/differential/regressions/rf_deadlock_after_a_lost_decrement.c",
    "tests/differential/regressions/rf_sleep_blocked_attempt.c",
    "tests/differential/regressions/rf_ag_pruned_run_hides_the_observer.c",
    "tests/differential/regressions/rf_ag_summary_over_unobserved_writes.c",
    "tests/differential/regressions/rf_observer_in_the_writers_thread.c",
    "tests/differential/regressions/rf_unlock_and_lock_are_not_blind_writes.c",
    "tests/differential/regressions/trace_goes_on_after_an_abort.c",
    "tests/summaries/open/cond_if_two_consumers.c",
    "tests/summaries/open/generated_t1_missed.c",
]

NO_REPRODUCER = {
    # the compiler copies the struct in one move: natively the copy cannot tear
    "tests/programs/torn_struct_copy.c": "the native run left the counterexample",
    # the combiner copies a request (a struct of two ints) in one move too
    "tests/programs/realworld/flat_combining_bad.c": "the native run left the counterexample",
    # touch() and log_text() are declared only: the program is not whole
    "tests/programs/extern_writes_through_pointer.c": "no body here",
    # main starts threads for as long as its inputs say: a native run goes on past the counterexample
    "tests/programs/modular/atomic_helpers_bad.c": "the trace ends before the run does",
    "tests/programs/modular/cas_tokens_bad.c": "the trace ends before the run does",
    "tests/programs/modular/claim_slot_bad.c": "the trace ends before the run does",
    "tests/programs/modular/connection_table_unlocked_bad.c": "the trace ends before the run does",
    "tests/programs/modular/tickets_capped_bad.c": "the trace ends before the run does",
    "tests/programs/modular/tickets_fetch_add_bad.c": "the trace ends before the run does",
}

WRITTEN = re.compile(r"^(?P<where>\S+):(?P<line>\d+):\d+: note: reproducer written to (?P<path>\S+)$")


def playback(path: str, out_dir, capsys, *extra: str) -> list[dict]:
    """Run `distaff check --playback` on ``path``; the reproducers it wrote,
    each with its line, build command and executable."""
    status = cli.main(["check", "--no-findings", "--playback", str(out_dir), *extra, str(ROOT / path)])
    out = capsys.readouterr().out.splitlines()
    assert status == cli.EXIT_FOUND, out
    written = []
    for k, line in enumerate(out):
        m = WRITTEN.match(line)
        if m:
            build = out[k + 1].removeprefix("  build: ")
            exe = out[k + 2].removeprefix("  run:   ")
            written.append({"line": int(m["line"]), "path": m["path"], "build": build, "exe": exe})
    return written


def build_and_run(rep: dict, *wrapper: str, patience: int = 5) -> subprocess.CompletedProcess:
    built = subprocess.run(rep["build"], shell=True, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr[-3000:]
    env = dict(os.environ, DISTAFF_PLAYBACK_PATIENCE=str(patience))
    return subprocess.run([*wrapper, rep["exe"]], capture_output=True, text=True, timeout=120, env=env)


@needs_cc
@pytest.mark.parametrize("path", VIOLATING)
def test_reproducer_fails_at_the_reported_assertion(path, tmp_path, capsys):
    written = playback(path, tmp_path, capsys)
    assert written, f"{path}: no reproducer written"
    for rep in written:
        run = build_and_run(rep)
        assert run.returncode == -signal.SIGABRT, (rep, run.returncode, run.stderr[-2000:])
        assert "distaff: reproduced" in run.stderr, run.stderr[-2000:]
        text = (ROOT / path).read_text().splitlines()[rep["line"] - 1]
        if "assert(" in text:  # glibc names the assertion's file and line
            assert re.search(rf"{re.escape(os.path.basename(path))}:{rep['line']}: .*Assertion", run.stderr), \
                run.stderr[-2000:]


@needs_cc
@pytest.mark.parametrize("path", sorted(NO_REPRODUCER))
def test_what_cannot_be_reproduced_says_why(path, tmp_path, capsys):
    status = cli.main(["check", "--no-findings", "--playback", str(tmp_path), str(ROOT / path)])
    out = capsys.readouterr().out
    assert status == cli.EXIT_FOUND
    why = NO_REPRODUCER[path]
    if "no reproducer" in out:
        assert why in out
        return
    (rep,) = [r for r in playback(path, tmp_path, capsys)]
    run = build_and_run(rep, patience=2)
    assert run.returncode == 3 and why in run.stderr, run.stderr[-2000:]
    assert "it was the turn of step" in run.stderr  # where it left


def test_violating_list_is_complete():
    """Every program with a violation is in VIOLATING or NO_REPRODUCER (the
    files' own VERDICT, VIOLATED and ORACLE headers say which are)."""
    listed = set(VIOLATING) | set(NO_REPRODUCER)
    # multi/: files of programs linked from several, which a reproducer (one file compiled) cannot build
    candidates = sorted(p for p in ROOT.glob("tests/**/*.c") if not {"limits", "golden", "multi"} & set(p.parts)) + \
        sorted(ROOT.glob("examples/*.c"))
    for p in candidates:
        rel = str(p.relative_to(ROOT))
        header = p.read_text(errors="replace")[:1500]
        says_violated = re.search(r"VERDICT( \d+)?: *violated|VIOLATED: *\d|ORACLE line \d+: violated", header) is not None
        if says_violated and rel not in listed:
            pytest.fail(f"{rel} says it is violated but is not in VIOLATING")


@needs_cc
def test_divergence_is_reported_with_the_step(tmp_path, capsys):
    """A reproducer built against a program that no longer behaves as the
    counterexample says (the increment now under a lock) stops at the step the
    native run did not take, and exits 3."""
    src = tmp_path / "counter.c"
    src.write_text((ROOT / "examples/racy_counter.c").read_text())
    (rep,) = playback(str(src), tmp_path / "out", capsys)
    fixed = src.read_text().replace("int hits;", "int hits;\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;") \
        .replace("    hits++;", "    pthread_mutex_lock(&m);\n    hits++;\n    pthread_mutex_unlock(&m);")
    src.write_text(fixed)
    run = build_and_run(rep, patience=2)
    assert run.returncode == 3, run.stderr
    assert "the native run left the counterexample" in run.stderr
    assert re.search(r"\[visit#\d\] pthread_mutex_lock \S+ where step \d+ \(line 20: ", run.stderr), run.stderr


@needs_cc
def test_inputs_are_fed_to_the_nondet_calls(tmp_path, capsys):
    """The failing input reaches __VERIFIER_nondet_int natively: the program
    fails only for that value."""
    src = tmp_path / "input.c"
    src.write_text("#include <assert.h>\n#include <pthread.h>\nextern int __VERIFIER_nondet_int(void);\n"
                   "int seen;\nvoid *t(void *a) { seen = __VERIFIER_nondet_int(); return 0; }\n"
                   "int main(void) {\n    pthread_t x;\n    pthread_create(&x, 0, t, 0);\n"
                   "    pthread_join(x, 0);\n    assert(seen != 1234567);\n    return 0;\n}\n")
    (rep,) = playback(str(src), tmp_path / "out", capsys)
    assert "1234567" in (tmp_path / "out" / "input_line10.c").read_text()
    run = build_and_run(rep)
    assert run.returncode == -signal.SIGABRT and "input.c:10" in run.stderr, run.stderr


@needs_cc
@pytest.mark.skipif(shutil.which("gdb") is None and not os.environ.get("CI"), reason="no gdb here (CI installs it)")
def test_reproducer_runs_under_gdb_to_the_failing_line(tmp_path, capsys):
    (rep,) = playback("tests/programs/error_sites.c", tmp_path, capsys)
    run = build_and_run(rep, "gdb", "-batch", "-ex", "run", "-ex", "bt")
    assert "SIGABRT" in run.stdout, run.stdout[-2000:]
    assert re.search(rf"in main \(\) at \S*error_sites\.c:{rep['line']}", run.stdout), run.stdout[-3000:]


def test_replay_writes_the_same_reproducer(tmp_path, capsys):
    """--replay RESULT.json --playback DIR writes the reproducer the check itself writes."""
    path = str(ROOT / "examples/racy_counter.c")
    assert cli.main(["check", "--format", "json", path]) == cli.EXIT_FOUND
    (tmp_path / "r.json").write_text(capsys.readouterr().out)
    (direct,) = playback("examples/racy_counter.c", tmp_path / "a", capsys)
    assert cli.main(["check", "--replay", str(tmp_path / "r.json"), "--playback", str(tmp_path / "b")]) == cli.EXIT_FOUND
    out = capsys.readouterr().out
    assert "reproducer written to" in out
    a = (tmp_path / "a" / "racy_counter_line29.c").read_text()
    b = (tmp_path / "b" / "racy_counter_line29.c").read_text()
    assert a.replace(str(tmp_path / "a"), "D") == b.replace(str(tmp_path / "b"), "D")


def test_a_context_result_has_no_reproducer(tmp_path, capsys):
    status = cli.main(["check", "--playback", str(tmp_path), "--from", "26", "--from", "26",
                       str(ROOT / "tests/programs/context/list.c")])
    out = capsys.readouterr().out
    assert status == cli.EXIT_FOUND
    assert "no reproducer: a counterexample from a program context" in out
    assert not list(tmp_path.glob("*.c"))
