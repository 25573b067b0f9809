"""Sub-checks on a Dask cluster (``Options.scheduler``, ``--scheduler tcp://host:port``).

The same sub-checks (:mod:`distaff.analysis.subcheck`) as the local process pool of
:mod:`distaff.analysis.check`, one Dask task each, for code bases too large for one
machine. The workers need
distaff installed (``pip install 'distaff[cluster]'``); Dask is imported only
here and only when a scheduler is asked for, so distaff runs without it.

Contract of :func:`check_on_cluster` (the pool's, over the network):

* the program is sent once (scattered), each assertion is one task
  (``pure=False``); results come back as report objects in the order the
  tasks finish, as ``(result, findings, explored everything)``;
* each assertion is yielded exactly once. A cancel yields the outstanding
  ones as UNKNOWN/CANCELLED at once, cancels their futures and cancels the
  running sub-checks' tokens on the workers (``client.run``), so the workers
  are free again within the engine's polling interval;
* the time budget is enforced by the engine on the worker, as locally; a task
  past its allowance (:mod:`distaff.analysis.executor`, counted from the
  moment it started on a worker) is given up and told to stop: UNKNOWN/TIMEOUT;
* a task whose workers died (Dask retries it up to its ``allowed-failures``)
  or that raised is UNKNOWN/CRASHED with a message saying so; a lost
  scheduler connection likewise: never a hang or a wrong verdict;
* a scheduler that cannot be reached, a bad address or a missing Dask raise
  :class:`ClusterUnavailable` (one line) before anything is yielded.

:func:`findings_on_cluster` runs the exploration for findings that
:func:`distaff.analysis.check.check` adds when no sub-check explored everything on the
cluster too, so no exploration of the program runs on the client.

The connect timeout is Dask's (``distributed.comm.timeouts.connect``, e.g.
``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s``). Clients are kept per
address for the life of the process, so checking many files connects once.
"""

from __future__ import annotations

import atexit
import threading
import uuid
from dataclasses import replace

from distaff.analysis.executor import CANCELLED, Lost, Watch, crashed, overran, search_lost
from distaff.analysis.options import CancelToken
from distaff.analysis.subcheck import check_findings, run, undecided

POLL_S = 0.05  # how often the client looks at the cancel token and the budgets

INSTALL_HINT = "pip install 'distaff[cluster]'"


class ClusterUnavailable(Exception):
    """The scheduler cannot be used (unreachable, bad address, no Dask): one line."""


_clients: dict = {}
_clients_lock = threading.Lock()


def client_for(address: str):
    """A connected ``distributed.Client`` for ``address``, reused across checks."""
    try:
        import distributed
    except ImportError:
        raise ClusterUnavailable(f"--scheduler needs Dask's distributed package: {INSTALL_HINT}") from None
    with _clients_lock:
        client = _clients.get(address)
        if client is None or client.status != "running":
            _check_address(address)
            try:
                client = distributed.Client(address, set_as_default=False)
            except Exception as e:  # noqa: BLE001 - OSError, TimeoutError, ValueError on a bad address
                raise ClusterUnavailable(f"cannot reach Dask scheduler {address}: {_first_line(e)}") from None
            if not _clients:
                atexit.register(close_clients)  # before Dask's own exit handlers stop its loop
            _clients[address] = client
    _wait_for_a_worker(client, address)
    return client


def _wait_for_a_worker(client, address: str) -> None:
    """Tasks on a scheduler without workers would wait for ever: wait as long
    as for a connection, then give up."""
    import dask
    from dask.utils import parse_timedelta

    try:
        if client.nthreads():
            return
        client.wait_for_workers(1, timeout=parse_timedelta(dask.config.get("distributed.comm.timeouts.connect")))
    except TimeoutError:
        raise ClusterUnavailable(f"Dask scheduler {address} has no workers") from None
    except Exception as e:  # noqa: BLE001 - the connection broke
        raise ClusterUnavailable(f"cannot reach Dask scheduler {address}: {_first_line(e)}") from None


def _check_address(address: str) -> None:
    """Reject a malformed address before Dask sees it: a Client whose
    constructor fails on one hangs for its close timeout when collected."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location)
    except Exception as e:  # noqa: BLE001 - ValueError, or ImportError of a transport
        raise ClusterUnavailable(f"not a Dask scheduler address: {address} ({_first_line(e)})") from None


def close_clients() -> None:
    """Close the kept clients (e.g. before their scheduler goes away)."""
    with _clients_lock:
        clients = list(_clients.values())
        _clients.clear()
    for client in clients:
        try:
            client.close()
        except Exception:  # noqa: BLE001 - already disconnected
            pass


# --------------------------------------------------------------------------
# on a worker


# What runs on this worker: task key -> (check id, its cancel token); checks told to stop.
_running: dict = {}
_stopped: set = set()
_running_lock = threading.Lock()


def remote_sub_check(program, site, options, context, check_id: str, key: str):
    """One sub-check as the Dask task ``key``: ``("ok", (result, findings,
    complete))`` or ``("crash", message)``; with ``site`` None the exploration
    for findings only, ``("ok", (search, findings))``. Announces its start (for the
    client's overrun watch); :func:`stop_on_worker` cancels it."""
    token = CancelToken()
    with _running_lock:
        if check_id in _stopped:
            token.cancel()
        _running[key] = (check_id, token)
    try:
        import distributed

        distributed.get_worker().log_event(f"distaff-started-{check_id}", key)
    except Exception:  # noqa: BLE001 - not on a worker (or it is closing): no overrun watch
        pass
    try:
        if site is None:
            return "ok", check_findings(program, options, token, context)
        return "ok", run(program, site, options, token, context)
    except BaseException as e:  # noqa: BLE001 - reported to the client as a crash
        return "crash", f"{type(e).__name__}: {e}"
    finally:
        with _running_lock:
            _running.pop(key, None)


def stop_on_worker(check_id: str, key: str | None = None) -> None:
    """Cancel the running sub-check ``key`` of ``check_id``, or all of them
    (and any that start later) when ``key`` is None. Run by ``client.run``."""
    with _running_lock:
        if key is None:
            _stopped.add(check_id)
        for k, (cid, token) in _running.items():
            if cid == check_id and key in (None, k):
                token.cancel()


# --------------------------------------------------------------------------
# on the client


def check_on_cluster(program, sites, options, cancel, context):
    """The sub-checks of ``sites`` on the scheduler ``options.scheduler`` (see
    the module docstring); yields ``(result, findings, complete)``."""
    for site, answer in _run_tasks(program, sites, options, cancel, context):
        if isinstance(answer, Lost):
            yield undecided(site, options, answer.reason, answer.message, context), [], False
        else:
            yield answer


def findings_on_cluster(program, options, cancel, context):
    """The exploration for deadlocks and run-time errors without a target
    (:func:`distaff.analysis.subcheck.check_findings`) as one task, within
    ``options.timeout_s``: how it ended, and its findings (none when it was
    cancelled, overran its budget or crashed, which the first says)."""
    [(_, answer)] = _run_tasks(program, [None], options, cancel, context)
    return (search_lost(answer, options.timeout_s), []) if isinstance(answer, Lost) else answer


def _run_tasks(program, sites, options, cancel, context):
    """One task per site (None: the exploration for findings); yields
    ``(site, answer)`` as they finish: the task's result, or the
    :class:`~distaff.analysis.executor.Lost` saying why there is none."""
    import distributed
    from distributed.scheduler import KilledWorker

    client = client_for(options.scheduler)
    check_id = uuid.uuid4().hex
    topic = f"distaff-started-{check_id}"
    watch = Watch()  # the tasks that began on a worker
    client.subscribe_topic(topic, lambda event: watch.start(event[1], options.timeout_s))
    remote = replace(options, scheduler=None, workers=1)
    try:
        program_ref = client.scatter(program, hash=False)
    except Exception as e:  # noqa: BLE001 - the connection broke since client_for
        raise ClusterUnavailable(f"cannot reach Dask scheduler {options.scheduler}: {_first_line(e)}") from None
    futures = {}  # future -> (site, its key)
    for site in sites:
        key = f"distaff-{site.id if site is not None else 'findings'}-{check_id}"
        fut = client.submit(remote_sub_check, program_ref, site, remote, context, check_id, key,
                            pure=False, key=key)
        futures[fut] = (site, key)
    finished = threading.Event()

    def keep_watch() -> None:
        """Cancels everything on a cancel, and tasks past their allowance."""
        while not finished.wait(POLL_S):
            if cancel is not None and cancel.cancelled:
                _stop_tasks(client, check_id, list(futures))
                return
            late = set(watch.overdue())
            for fut, (_, key) in list(futures.items()):
                if key in late and not fut.done():
                    _stop_tasks(client, check_id, [fut], key)

    watcher = threading.Thread(target=keep_watch, daemon=True, name="distaff-cluster-watch")
    watcher.start()
    try:
        for fut in distributed.as_completed(list(futures), loop=client.loop):
            site, key = futures[fut]
            if fut.status == "finished":
                try:
                    kind, payload = fut.result()
                except Exception as e:  # noqa: BLE001 - e.g. the result did not unpickle here
                    kind, payload = "crash", f"{type(e).__name__}: {_first_line(e)}"
                yield site, payload if kind == "ok" else crashed(f"the sub-check failed on a Dask worker: {payload}")
            elif cancel is not None and cancel.cancelled:
                yield site, CANCELLED
            elif watch.overran(key):
                yield site, overran("the Dask worker")
            elif fut.status == "error":
                exc = fut.exception()
                if isinstance(exc, KilledWorker):
                    yield site, crashed(_killed_message(exc))
                else:
                    yield site, crashed(f"the sub-check failed on a Dask worker: {type(exc).__name__}: "
                                        f"{_first_line(exc)}")
            else:  # cancelled by no one here: the connection broke or the scheduler dropped it
                yield site, crashed("lost the connection to the Dask scheduler" if client.status != "running"
                                    else f"the Dask scheduler dropped it ({fut.status})")
    finally:
        finished.set()
        if any(not f.done() for f in futures):  # the caller stopped early
            _stop_tasks(client, check_id, list(futures))
        try:
            client.unsubscribe_topic(topic)
            client.cancel([*futures, program_ref])  # forgets finished tasks and the program at once
        except Exception:  # noqa: BLE001 - cleanup on a broken connection
            pass


def _stop_tasks(client, check_id: str, futures, key: str | None = None) -> None:
    """Cancel the futures and the running sub-checks behind them (the task
    ``key``, or every task of the check), freeing their workers."""
    def stop() -> None:
        try:
            client.cancel(futures)
            client.run(stop_on_worker, check_id, key)
        except Exception:  # noqa: BLE001 - a worker or the connection is gone: tasks end by their budget
            pass

    # in the background: a slow or dead worker must not delay the caller's results
    threading.Thread(target=stop, daemon=True, name="distaff-cluster-stop").start()


def _killed_message(exc) -> str:
    try:
        tries, last = exc.allowed_failures + 1, exc.last_worker.address
    except Exception:  # noqa: BLE001 - an older Dask's KilledWorker
        return f"the worker died running it ({_first_line(exc)})"
    return (f"the worker died running it ({tries} worker{'s' if tries != 1 else ''} tried, "
            f"the last {last}; its log may say why)")


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [""])[0] or type(exc).__name__
