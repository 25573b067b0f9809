"""When checks run, where, and which of their results still count.

The scheduler runs each check in its own worker process (:mod:`distaff.server.worker`),
never on the event loop, and reports back on the loop through one callback
with :class:`Started`, :class:`Item` and :class:`Finished` events. Its promises:

* At most one check per (document, kind) exists: submitting a new one cancels
  the previous, whatever state it is in. ``kind`` separates whole-program
  checks from checks from a context, which the user runs alongside.
* After a run is cancelled (or finished) no further :class:`Item` of it is
  delivered, so nothing computed for an outdated text reaches the user.
  :class:`Finished` is delivered exactly once per run, at once on cancel.
* Cancelling asks the worker to stop (SIGUSR1 sets the check's cancel token)
  and kills its whole process group if it has not exited ``kill_after_s``
  later: cancellation takes effect even inside a long solver call.
* A debounce delay holds a run back; a newer submission replaces it unseen.
* At most ``max_parallel`` workers run at once; later runs queue, in order.
* Deadline, cancel and crash follow :mod:`distaff.analysis.executor`, as the
  command line's runners do: a run with a timeout per assertion is stopped as
  TIMEOUT past its allowance (each assertion's timeout and the search for
  findings', plus the grace: the engine keeps the timeout, the deadline
  catches one that does not); a worker that dies or raises ends its run as
  CRASHED with how; the server itself is not affected.

The check function is a parameter (``check_fn``, ``module:name``, default
:func:`distaff.analysis.check.check`): tests pass a fake slow check through it.
One idle worker is kept warm, with the check's module already imported, so
a check starts without paying for interpreter start-up and imports.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from distaff.analysis.check import Context, Options
from distaff.analysis.executor import allowance_s, crashed, lost_to, overran
from distaff.analysis.ir import Program
from distaff.analysis.report import Reason
from distaff.server.worker import Job, read_message, write_message

log = logging.getLogger(__name__)

DEFAULT_CHECK_FN = "distaff.analysis.check:check"
_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)


# How a run ended: DONE when the check yielded everything, else the
# report.Reason the local pool and the Dask runner use too: CANCELLED,
# CRASHED (the worker raised or died; ``Finished.message`` says how) or
# TIMEOUT (the hard deadline passed).
DONE = None
Outcome = Reason | None


@dataclass(frozen=True, slots=True)
class CheckRequest:
    """A check of ``program`` (parsed from ``uri`` at ``version``).
    ``expected`` is how many assertion results the check will yield (for
    progress and deadlines)."""

    uri: str
    version: int | None
    kind: str
    program: Program
    options: Options
    context: Context | None = None
    expected: int = 0

    @property
    def key(self) -> tuple[str, str]:
        return (self.uri, self.kind)


class RunState(enum.Enum):
    PENDING = "pending"
    RUNNING = "running"
    FINISHED = "finished"


class CheckRun:
    """One submitted check. ``finished`` resolves to its outcome: DONE or a Reason."""

    _ids = itertools.count(1)

    def __init__(self, request: CheckRequest, loop: asyncio.AbstractEventLoop):
        self.id = next(CheckRun._ids)
        self.request = request
        self.state = RunState.PENDING
        self.finished: asyncio.Future[Outcome] = loop.create_future()
        self.started_at: float | None = None
        self.items = 0
        self.worker: "_Worker | None" = None
        self.timer: asyncio.TimerHandle | None = None
        self.stopped_at: float | None = None  # when stop() interrupted its worker

    def __repr__(self) -> str:
        r = self.request
        return f"<CheckRun {self.id} {r.kind} {r.uri}@{r.version} {self.state.value}>"


@dataclass(frozen=True, slots=True)
class Started:
    run: CheckRun


@dataclass(frozen=True, slots=True)
class Item:
    run: CheckRun
    item: object  # AssertionResult | report.Finding


@dataclass(frozen=True, slots=True)
class Finished:
    run: CheckRun
    outcome: Outcome
    message: str = ""


Event = Started | Item | Finished


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"


class _Worker:
    """A worker process in its own session (so killpg reaches its children)."""

    def __init__(self, python: str, check_fn: str):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p
        )
        self.check_fn = check_fn
        self.proc = subprocess.Popen(
            [python, "-m", "distaff.server.worker", "--preload", check_fn],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=_PACKAGE_ROOT,
            env=env,
            start_new_session=True,
        )
        self.exited = threading.Event()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def interrupt(self) -> None:
        try:
            os.kill(self.proc.pid, signal.SIGUSR1)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> None:
        if self.exited.is_set():
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class Scheduler:
    """Runs checks in worker processes; see the module docstring."""

    def __init__(
        self,
        on_event: Callable[[Event], None],
        *,
        check_fn: str = DEFAULT_CHECK_FN,
        max_parallel: int = 2,
        kill_after_s: float = 0.5,
        python: str = sys.executable,
        loop: asyncio.AbstractEventLoop | None = None,
        keep_spare: bool = True,
        grace_s: float | None = None,
    ):
        self.on_event = on_event
        self.check_fn = check_fn
        self.max_parallel = max(1, max_parallel)
        self.kill_after_s = kill_after_s
        self.python = python
        self.loop = loop or asyncio.get_event_loop()
        self.keep_spare = keep_spare
        self.grace_s = grace_s  # None: the executor's
        self._runs: dict[tuple[str, str], CheckRun] = {}
        self._queue: list[CheckRun] = []
        self._active: set[CheckRun] = set()  # runs whose worker has not exited yet
        self._spare: _Worker | None = None
        self._closed = False
        if keep_spare:
            self.loop.call_soon(self._replenish)

    # -- public ------------------------------------------------------------

    def submit(self, request: CheckRequest, delay_s: float = 0.0) -> CheckRun:
        """Start ``request`` after ``delay_s``, cancelling the check of the
        same document and kind."""
        self.cancel(request.uri, request.kind)
        run = CheckRun(request, self.loop)
        self._runs[request.key] = run
        if self._closed:
            self._finish(run, Reason.CANCELLED, "the server is shutting down")
        elif delay_s > 0:
            run.timer = self.loop.call_later(delay_s, self._enqueue, run)
        else:
            self._enqueue(run)
        return run

    def current(self, uri: str, kind: str) -> CheckRun | None:
        run = self._runs.get((uri, kind))
        return run if run is not None and run.state is not RunState.FINISHED else None

    def cancel(self, uri: str, kind: str | None = None, message: str = "") -> None:
        """Cancel the checks of ``uri`` (of one kind, or all)."""
        for key in [k for k in self._runs if k[0] == uri and (kind is None or k[1] == kind)]:
            self.stop(self._runs.pop(key), Reason.CANCELLED, message)

    def stop(self, run: CheckRun, outcome: Outcome, message: str = "") -> None:
        if run.state is RunState.FINISHED:
            return
        if run.timer is not None:
            run.timer.cancel()
        if run in self._queue:
            self._queue.remove(run)
        if run.worker is not None:
            worker = run.worker
            worker.interrupt()
            run.stopped_at = time.monotonic()
            self.loop.call_later(self.kill_after_s, worker.kill)
        self._finish(run, outcome, message)

    def close(self) -> None:
        """Kill every worker (the spare too); later submissions are cancelled."""
        self._closed = True
        for run in list(self._runs.values()) + list(self._queue):
            self.stop(run, Reason.CANCELLED, "the server is shutting down")
        for run in list(self._active):
            if run.worker is not None:
                run.worker.kill()
        if self._spare is not None:
            self._spare.kill()
            self._spare = None

    # -- internals ---------------------------------------------------------

    def _emit(self, event: Event) -> None:
        try:
            self.on_event(event)
        except Exception:
            log.exception("handling %r failed", event)

    def _finish(self, run: CheckRun, outcome: Outcome, message: str = "") -> None:
        if run.state is RunState.FINISHED:
            return
        run.state = RunState.FINISHED
        if run.timer is not None:
            run.timer.cancel()
        if self._runs.get(run.request.key) is run:
            del self._runs[run.request.key]
        if not run.finished.done():
            run.finished.set_result(outcome)
        self._emit(Finished(run, outcome, message))

    def _lose(self, run: CheckRun, lost) -> None:
        self._finish(run, lost.reason, lost.message)

    def _enqueue(self, run: CheckRun) -> None:
        run.timer = None
        if run.state is RunState.PENDING:
            self._queue.append(run)
            self._pump()

    def _pump(self) -> None:
        while self._queue and len(self._active) < self.max_parallel and not self._closed:
            self._start(self._queue.pop(0))

    def _replenish(self) -> None:
        if self._closed or not self.keep_spare:
            return
        if self._spare is None or not self._spare.alive:
            try:
                self._spare = _Worker(self.python, self.check_fn)
            except OSError:
                log.exception("could not start a spare worker")
                self._spare = None

    def _take_worker(self) -> _Worker:
        spare, self._spare = self._spare, None
        if spare is not None and spare.alive and spare.check_fn == self.check_fn:
            return spare
        if spare is not None:
            spare.kill()
        return _Worker(self.python, self.check_fn)

    def _start(self, run: CheckRun) -> None:
        request = run.request
        job = Job(self.check_fn, request.program, request.options, request.context)
        try:
            worker = self._take_worker()
        except OSError as e:
            self._lose(run, crashed(f"could not start a worker process: {e}"))
            return
        run.worker = worker
        run.state = RunState.RUNNING
        run.started_at = time.monotonic()
        self._active.add(run)
        threading.Thread(target=self._serve, args=(run, worker, job), daemon=True).start()
        self.loop.call_soon(self._replenish)
        tasks = request.expected + (1 if request.options.findings else 0)  # the search for findings
        deadline = allowance_s(request.options.timeout_s, tasks, self.grace_s)
        if deadline is not None:
            lost = overran("the check", deadline)
            run.timer = self.loop.call_later(deadline, self.stop, run, lost.reason, lost.message)
        # Started is delivered after submit() returned, so the caller knows the run.
        self.loop.call_soon(lambda: run.state is RunState.RUNNING and self._emit(Started(run)))

    def _serve(self, run: CheckRun, worker: _Worker, job: Job) -> None:
        """Worker thread: send the job, forward messages to the loop, reap."""
        proc = worker.proc
        try:
            write_message(proc.stdin, job)
            while (message := read_message(proc.stdout)) is not None:
                self._post(self._on_message, run, message)
        except Exception as e:  # broken pipe, unpicklable result: the run crashed
            self._post(self._on_message, run, ("error", f"{type(e).__name__}: {e}"))
        finally:
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            code = proc.wait()
            worker.exited.set()
            self._post(self._on_exit, run, code)

    def _post(self, fn, *args) -> None:
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            pass  # the loop is closed: the server is gone

    def _on_message(self, run: CheckRun, message) -> None:
        if run.state is not RunState.RUNNING:
            return
        tag, payload = message
        if tag == "item":
            run.items += 1
            self._emit(Item(run, payload))
        elif tag == "done":
            self._finish(run, DONE)
        else:
            last = str(payload).strip().splitlines()[-1:] or ["unknown error"]
            self._lose(run, lost_to(f"the check raised {last[0]}"))

    def _on_exit(self, run: CheckRun, code: int) -> None:
        self._active.discard(run)
        if run.stopped_at is not None:  # the soak bench reads this line: how soon a stop takes effect
            log.info("run %d stopped: its worker exited %.3f s after the stop", run.id,
                     time.monotonic() - run.stopped_at)
        if run.state is RunState.RUNNING:
            self._lose(run, crashed(f"the worker process died ({describe_exit(code)})"))
        self._pump()
