"""Sub-checks on a Dask cluster (distaff.analysis.cluster, ``--scheduler``): the same
verdicts and run counts as a local check, the time budget, cancellation, a
worker that dies, and the command line's one-line exit 2 when the scheduler
cannot be reached or Dask is missing. One in-process LocalCluster with two
worker processes serves the module."""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
import time

import pytest

distributed = pytest.importorskip("distributed", reason="the 'cluster' extra (in 'test') is not installed")

import dask  # noqa: E402

from distaff.analysis import cluster as dask_cluster  # noqa: E402
from distaff.analysis import executor  # noqa: E402
from distaff.analysis.check import CancelToken, Options, check  # noqa: E402
from distaff.analysis.frontend import parse_program  # noqa: E402
from distaff.analysis.report import AssertionResult, Finding, Reason, Status  # noqa: E402
from distaff.server.cli import main  # noqa: E402
from tests.explore.expectations import PROGRAMS  # noqa: E402

HARD = PROGRAMS / "hard_solver.c"  # one assertion whose solver call runs for minutes


@pytest.fixture(scope="module")
def cluster():
    # allowed_failures=0: a task whose worker dies fails at once instead of being retried
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.CRITICAL,
                                  scheduler_kwargs={"allowed_failures": 0}) as c:
        yield c
        dask_cluster.close_clients()


def program_of(name: str):
    path = PROGRAMS / name
    return parse_program(path.read_text(), str(path))


def split(items):
    items = list(items)
    return ([i for i in items if isinstance(i, AssertionResult)], [i for i in items if isinstance(i, Finding)])


def busy_tasks(address: str) -> int:
    """Tasks executing on the cluster's workers right now (cancelled ones too)."""
    client = dask_cluster.client_for(address)
    return sum(client.run(lambda dask_worker: dask_worker.state.executing_count).values())


def explored_here(*args, **kwargs):
    raise AssertionError("a check on the cluster explored the program in the client")


def only_on_the_cluster(monkeypatch):
    """From now on any exploration in this process fails the test (the
    workers are other processes: they are not patched)."""
    import distaff.analysis.check
    import distaff.analysis.cluster

    monkeypatch.setattr(distaff.analysis.check, "run", explored_here)
    monkeypatch.setattr(distaff.analysis.check, "check_findings", explored_here)
    monkeypatch.setattr(distaff.analysis.cluster, "run", explored_here)
    monkeypatch.setattr(distaff.analysis.cluster, "check_findings", explored_here)


@pytest.mark.parametrize("name, mode", [("median.c", "baseline"), ("reorder_bad.c", "baseline"),
                                        ("abort_is_global.c", "dpor"), ("segments.c", "dpor-ag")])
def test_the_cluster_gives_the_local_verdicts_run_counts_and_traces(cluster, name, mode, monkeypatch):
    program = program_of(name)
    options = Options(mode=mode, timeout_s=60)  # workers=1: one sub-check after the other, here
    local_results, local_findings = split(check(program, options))
    only_on_the_cluster(monkeypatch)
    remote_results, remote_findings = split(check(program, Options(mode=mode, timeout_s=60,
                                                                   scheduler=cluster.scheduler_address)))
    assert len(remote_results) == len(program.assertions()) > 0
    assert len({r.id for r in remote_results}) == len(remote_results)

    def key(r):  # everything but timings; summaries (dpor-ag) and traces crossed the wire too
        return (r.id, r.status, r.stops, r.reason, r.message, r.stats.runs, r.stats.full_runs,
                r.stats.pruned_runs, r.trace, r.summaries, r.mode)

    assert sorted(map(key, remote_results), key=repr) == sorted(map(key, local_results), key=repr)
    assert set(remote_findings) == set(local_findings)


@pytest.mark.parametrize("name", ["deadlock.c", "divzero.c"])
def test_the_exploration_for_findings_runs_on_the_cluster_too(cluster, name, monkeypatch):
    program = program_of(name)
    _, local = split(check(program, Options(mode="baseline", timeout_s=60)))
    only_on_the_cluster(monkeypatch)
    _, remote = split(check(program, Options(mode="baseline", timeout_s=60, scheduler=cluster.scheduler_address)))
    assert remote == local and any(f.trace is not None for f in remote)


def test_the_command_line_runs_on_the_cluster(cluster, capsys):
    status = main(["check", "--mode", "baseline", "--scheduler", cluster.scheduler_address,
                   str(PROGRAMS / "reorder_bad.c")])
    out = capsys.readouterr().out
    assert status == 1 and "assertion `first == second` can fail" in out


def test_the_time_budget_holds_on_the_cluster(cluster):
    program = program_of("hard_solver.c")
    t0 = time.monotonic()
    [r], _ = split(check(program, Options(mode="baseline", timeout_s=1.0, scheduler=cluster.scheduler_address)))
    assert time.monotonic() - t0 < 6.0
    assert r.status is Status.UNKNOWN and r.reason is Reason.TIMEOUT


def first_verdict(program, options, out):
    """Collect ``check``'s items up to the first verdict, then stop: the
    exploration for findings that would follow runs here, for minutes."""
    for item in check(program, options):
        out.append(item)
        if isinstance(item, AssertionResult):
            return


def wait_until_idle(address: str, seconds: float = 5.0) -> int:
    deadline = time.monotonic() + seconds
    while busy_tasks(address) and time.monotonic() < deadline:
        time.sleep(0.1)
    return busy_tasks(address)


def test_a_task_overrunning_its_budget_is_given_up_and_stopped(cluster, monkeypatch):
    # a grace of -19 s on a 20 s budget: the client gives up on the task a second
    # after it started, long before the engine's own budget would end it
    monkeypatch.setattr(executor, "GRACE_S", -19.0)
    out = []
    t0 = time.monotonic()
    first_verdict(program_of("hard_solver.c"), Options(mode="baseline", timeout_s=20.0,
                                                       scheduler=cluster.scheduler_address), out)
    assert time.monotonic() - t0 < 10.0
    [r], _ = split(out)
    assert r.status is Status.UNKNOWN and r.reason is Reason.TIMEOUT
    assert r.message == "the Dask worker overran its time budget"
    assert wait_until_idle(cluster.scheduler_address) == 0  # the worker was told to stop, too


def test_cancel_yields_cancelled_and_stops_the_running_task(cluster):
    program = program_of("hard_solver.c")
    token = CancelToken()
    out = []
    runner = threading.Thread(target=lambda: out.extend(check(program, Options(
        mode="baseline", scheduler=cluster.scheduler_address), token)))
    runner.start()
    deadline = time.monotonic() + 10
    while busy_tasks(cluster.scheduler_address) == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert busy_tasks(cluster.scheduler_address) == 1
    t0 = time.monotonic()
    token.cancel()
    runner.join(5)
    assert not runner.is_alive() and time.monotonic() - t0 < 1.5
    [r], _ = split(out)
    assert r.status is Status.UNKNOWN and r.reason is Reason.CANCELLED
    # the solver call on the worker is interrupted too, freeing the worker
    assert wait_until_idle(cluster.scheduler_address) == 0


def test_a_worker_that_dies_gives_crashed_not_a_hang(cluster):
    program = program_of("hard_solver.c")
    client = dask_cluster.client_for(cluster.scheduler_address)
    out = []
    runner = threading.Thread(target=first_verdict, args=(
        program, Options(mode="baseline", scheduler=cluster.scheduler_address), out))
    runner.start()
    deadline = time.monotonic() + 10
    where = []
    while not where and time.monotonic() < deadline:
        where = [w for w, keys in client.processing().items() if keys]
        time.sleep(0.1)
    assert len(where) == 1
    time.sleep(0.5)  # let the task start executing there
    pid = client.run(os.getpid, workers=where)[where[0]]
    os.kill(pid, signal.SIGKILL)
    runner.join(20)
    assert not runner.is_alive()
    [r], _ = split(out)
    assert r.status is Status.UNKNOWN and r.reason is Reason.CRASHED
    assert r.message.startswith(f"the worker died running it (1 worker tried, the last {where[0]};")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_scheduler_is_one_line_and_exit_2(capsys):
    address = f"tcp://127.0.0.1:{closed_port()}"
    with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}):
        status = main(["check", "--scheduler", address, str(PROGRAMS / "median.c")])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    [line] = captured.err.splitlines()
    assert line.startswith(f"distaff: cannot reach Dask scheduler {address}: ")


def test_a_scheduler_without_workers_is_one_line_and_exit_2(capsys):
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0",
                                  silence_logs=logging.CRITICAL) as empty:
        with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}):
            status = main(["check", "--scheduler", empty.scheduler_address, str(PROGRAMS / "median.c")])
        dask_cluster.close_clients()
    [line] = capsys.readouterr().err.splitlines()
    assert status == 2 and line == f"distaff: Dask scheduler {empty.scheduler_address} has no workers"


def test_a_malformed_address_is_one_line_and_exit_2(capsys):
    status = main(["check", "--scheduler", "tcp://127.0.0.1", str(PROGRAMS / "median.c")])
    [line] = capsys.readouterr().err.splitlines()
    assert status == 2 and line.startswith("distaff: not a Dask scheduler address: tcp://127.0.0.1")


def test_without_dask_the_scheduler_flag_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    monkeypatch.setitem(sys.modules, "dask", None)
    status = main(["check", "--scheduler", "tcp://127.0.0.1:8786", str(PROGRAMS / "median.c")])
    [line] = capsys.readouterr().err.splitlines()
    assert status == 2 and "pip install 'distaff[cluster]'" in line
    # and without --scheduler nothing needs Dask
    assert main(["check", "--mode", "baseline", str(PROGRAMS / "median.c")]) == 0
