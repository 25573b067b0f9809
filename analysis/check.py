"""The public API: check a program's assertions.

``check(program, options, cancel)`` yields results as they are decided: one
:class:`~distaff.analysis.report.AssertionResult` per assertion of the program
(every assertion exactly once, in the order its sub-check finishes), and
:class:`~distaff.analysis.report.Finding` s (deadlocks, run-time errors, and the front
end's syntax/unsupported findings) as they are met, each finding once.

Each assertion is its own sub-check (parallel-property-checking paper): a
sub-check explores the program guided by that assertion only. With
``options.workers`` N > 1, N run at once in pool processes, and with
``max_memory_mb`` each runs in a pool process of its own, capped there; in
both cases this process checks sites itself for the check's first
``POOL_AFTER_S``, so a small program starts no process
(:func:`_check_in_pool`). With 1 worker and no memory cap they run in this
process, one after the other; with
``options.scheduler`` set they run on that Dask cluster
(:mod:`distaff.analysis.cluster`, which raises its ``ClusterUnavailable``
when the scheduler cannot be used).

Cancellation: ``cancel.cancelled`` is polled often by the engine (between
instructions and solver calls) and by the static analyses a sub-check runs
(slices, reachability: :mod:`distaff.analysis.static.budget`, which also holds them to
the sub-check's ``timeout_s``); once set, the remaining assertions are yielded
with status UNKNOWN and reason CANCELLED, promptly.

A sub-check explores with its assertion as the *target*; every other
assertion is treated as ``assume(cond)``, so a run that would fail another
assertion stops there (that failure is the other sub-check's business).
Verdicts (truthful by construction):

* VIOLATED, with a counterexample, when a run fails the target;
* HOLDS when runs reached the target and none failed it; ``bounded`` when
  the unwind bound stopped a thread on some run ("holds within the bound");
* UNKNOWN with reason BOUND ("bound reached") when no run reached it but
  some run was cut: nothing about it was checked, the cut runs might reach it;
  an error call (``reach_error()``) no run reached HOLDS ``bounded`` instead:
  not reaching it is its property;
* UNREACHABLE when no run reached it and none was cut;
* UNKNOWN with a :class:`~distaff.analysis.report.Reason` when a budget ran out, the
  check was cancelled, the solver gave up, or the engine met something it
  does not cover. Never HOLDS after a cancel, nor after a timeout but for
  the deepest bound a deepening pass finished (below).

Programs with front-end findings: with a SYNTAX finding no assertion is
checked (all UNKNOWN, reason SKIPPED); with an UNSUPPORTED finding a HOLDS or
UNREACHABLE becomes UNKNOWN (reason UNSUPPORTED) naming the first unsupported
construct, while a violation stays a violation when its run executes no
function containing an unsupported construct and none lies outside every
function (the run is real as far as the covered part of the program goes);
otherwise it becomes UNKNOWN too. A sub-check stops at its first violation,
so when no sub-check explored the whole program (every assertion violated or
undecided, or there is none) one more exploration without a target looks for
deadlocks and run-time errors, after the verdicts (``Options.findings``
False leaves it out). Findings met by several explorations are yielded once
(same kind, span and message; a data race when it names the same two
statements).

A sub-check (:mod:`distaff.analysis.subcheck`) deepens the bound: passes at unwind 1, 2,
4, ... up to ``options.unwind``. When its budget runs out after a pass
finished, the verdict is that pass's, saying so: HOLDS ``bounded`` with
``unwind`` the deepest bound finished and the message "unwind 4 unfinished
(timeout)".

Budgets: ``timeout_s`` per sub-check, ``total_timeout_s`` for the whole
check (a sub-check starting late gets what is left; one that cannot start is
UNKNOWN, TIMEOUT, "not checked"). ``property="unreach-call"`` checks only
the error calls, as one property: the first violated site ends the check
(the other sites are UNKNOWN, SKIPPED; so are the assertions, which are not
part of the property) and no search for findings follows.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from typing import Iterator

from distaff.analysis import ir
from distaff.analysis.cluster import check_on_cluster, findings_on_cluster
from distaff.analysis.context import Context, ContextThread, context_at
from distaff.analysis.explore.races import finding_key
from distaff.analysis.frontend import parse_program
from distaff.analysis.options import DEFAULT_FINDINGS_TIMEOUT_S, DEFAULT_MEMORY_MB, GUIDED_MODES, MODES, OPTIMISATIONS, UNREACH_CALL, CancelToken, Options
from distaff.analysis.executor import (CANCELLED, GRACE_S, Lost, MemoryCap, Watch, address_space_mb, crashed,
                                       limit_memory, lost_to, overran, search_lost)
from distaff.analysis.report import AssertionResult, Finding, FindingsSearch, Reason, SearchEnd, Status
from distaff.analysis.subcheck import check_assertion, check_findings, run, undecided

# --------------------------------------------------------------------------
# the public entry points


def check(program: ir.Program, options: Options, cancel: CancelToken | None = None,
          context: Context | None = None) -> Iterator[AssertionResult | Finding]:
    """Check every assertion of ``program`` (see the module docstring)."""
    seen: set = set()

    def fresh(findings):
        for f in findings:
            key = finding_key(f)  # a data race: its two statements, whichever run showed it
            if key not in seen:
                seen.add(key)
                yield f

    front = [Finding(f.kind, f.span, f.message) for f in program.findings]
    yield from fresh(front)
    sites = program.assertions()
    syntax = [f for f in program.findings if f.kind is ir.FindingKind.SYNTAX]
    if syntax:
        first = syntax[0]
        msg = f"syntax error at line {first.span.line}"
        for site in sites:
            yield undecided(site, options, Reason.SKIPPED, msg, context)
        yield FindingsSearch(SearchEnd.SKIPPED, f"not run: {msg}")
        return
    if options.property == UNREACH_CALL:
        wanted = [s for s in sites if s.kind is ir.AssertKind.UNREACH_CALL]
        for site in sites:
            if site.kind is not ir.AssertKind.UNREACH_CALL:
                yield undecided(site, options, Reason.SKIPPED, f"not part of the property {UNREACH_CALL}", context)
        sites = wanted
    elif options.property is not None:
        raise ValueError(f"unknown property {options.property!r} (known: {UNREACH_CALL})")
    budget = _Budget(options)
    if options.scheduler is not None:
        results = check_on_cluster(program, sites, budget.options(), cancel, context) if sites else iter(())
    elif (options.workers > 1 and len(sites) > 1) or options.max_memory_mb or _timed(options):
        # a memory limit needs a process (or this one capped, for a while); a time budget, a runner that can stop a sub-check
        search = options.findings and options.property is None
        results = _check_in_pool(program, sites, options, cancel, context, budget, search)
    else:
        results = _check_in_process(program, sites, options, cancel, context, budget)
    complete = False  # some sub-check explored every run (so met every finding)
    search: FindingsSearch | None = None  # how the pool's search, run beside the sub-checks, ended
    answered = set()
    for result, findings, done in results:
        yield from fresh(findings)
        if isinstance(result, FindingsSearch):
            search = result
            continue
        complete = complete or done
        yield result
        answered.add(result.id)
        if options.property is not None and result.status is Status.VIOLATED:
            results.close()  # the property is violated: the other sites' checks stop
            why = f"the property {options.property} is already violated at line {result.span.line}"
            for site in sites:
                if site.id not in answered:
                    yield undecided(site, options, Reason.SKIPPED, why, context)
            yield FindingsSearch(SearchEnd.OFF, why)
            return
    if not options.findings or options.property is not None:
        search = FindingsSearch(SearchEnd.OFF, "not asked for" if not options.findings
                                else f"not part of the property {options.property}")
    elif complete:
        search = FindingsSearch(SearchEnd.COVERED, "not needed: an assertion's check explored every run")
    elif search is None and cancel is not None and cancel.cancelled:
        search = FindingsSearch(SearchEnd.CANCELLED, "cancelled")
    elif search is None and budget.spent():
        search = FindingsSearch(SearchEnd.CUT, "not run: the check's time budget ran out first")
    elif search is None:
        run_search = findings_on_cluster if options.scheduler is not None else check_findings
        search, findings = run_search(program, budget.search_options(), cancel, context)
        yield from fresh(findings)
    yield search


class _Budget:
    """The whole check's wall-time budget (``Options.total_timeout_s``):
    what each sub-check may take when it starts."""

    def __init__(self, options: Options):
        self._options = options
        total = options.total_timeout_s
        self.deadline = time.monotonic() + total if total is not None else None

    def left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def spent(self) -> bool:
        """Too little is left to start anything (:data:`MIN_START_S`)."""
        left = self.left()
        return left is not None and left < MIN_START_S

    def options(self, used_s: float = 0.0) -> Options:
        """The options of a sub-check starting now, that has already used
        ``used_s`` of its own timeout (a trial in this process stopped to
        move it into a process): its own timeout less that, and no longer
        than what is left of the whole."""
        own = self._options.timeout_s
        if own is not None and used_s:
            own = max(0.001, own - used_s)
        return self._within(own)

    def search_options(self) -> Options:
        """The options of the search for findings starting now: its own
        budget (``findings_timeout_s``), no longer than a sub-check's
        (``timeout_s``) nor than what is left of the whole."""
        own = min((t for t in (self._options.findings_timeout_s, self._options.timeout_s) if t is not None),
                  default=None)
        return self._within(own)

    def _within(self, own: float | None) -> Options:
        """The options with ``timeout_s`` ``own``, no longer than what is left of the whole."""
        left = self.left()
        if left is None:
            return replace(self._options, timeout_s=own)
        return replace(self._options, timeout_s=max(0.001, left if own is None else min(own, left)),
                       total_timeout_s=None)

    def ran_out(self, site, context):
        return _lost(site, self._options, Lost(Reason.TIMEOUT, "not checked: the check's time budget ran out first"),
                     context)


def _timed(options: Options) -> bool:
    """A time budget is set: sub-checks then run where their runner can stop
    them at it, whatever the engine is doing (see :func:`_check_in_pool`)."""
    return options.timeout_s is not None or options.total_timeout_s is not None


def _start_method() -> str:
    """How pool processes start: ``fork`` where the platform has it (Linux),
    so a process costs milliseconds and starts with everything imported;
    ``spawn`` elsewhere."""
    import multiprocessing as mp
    import sys

    return "fork" if sys.platform.startswith("linux") and "fork" in mp.get_all_start_methods() else "spawn"


def _check_in_process(program, sites, options, cancel, context, budget):
    for site in sites:
        if cancel is not None and cancel.cancelled:
            yield _lost(site, options, CANCELLED, context)
            continue
        if budget.spent():
            yield budget.ran_out(site, context)
            continue
        yield run(program, site, budget.options(), cancel, context)


FINDINGS = "findings"  # the pool's task that searches for deadlocks and run-time errors
# a sub-check or search is not started with less of the whole check's time than
# this: it could do nothing but time out (a sub-check keeps back a little of its
# budget to answer in time, so one that ran to its end leaves a sliver)
MIN_START_S = 0.1
# Pool processes start only once a check has run this long: most small programs
# are done by then and never pay for one (a spawned process needs about 0.4 s,
# Python and z3, before it can take a site; a forked one, milliseconds and a
# copy of this process's pages), and a longer check has them soon enough to
# share its work (bench/workers_bench.py). Until then this process checks sites
# itself, under the memory cap if there is one: the trial of _check_in_pool.
POOL_AFTER_S = 0.1


def _lost(site, options, lost: Lost, context):
    """What a task that gave no result yields: an undecided assertion, or for
    the search for findings, how it ended (check() does not run it again)."""
    if site == FINDINGS:
        return search_lost(lost), [], True
    return undecided(site, options, lost.reason, lost.message, context), [], False


def _pool_worker(conn, program, context) -> None:
    """A pool process: says it is ready (its imports done, or its last site
    answered), checks the site it is given and answers on ``conn``, until it
    is given none. Under a memory limit it checks one site: the limit is
    each sub-check's."""
    try:
        while True:
            conn.send(("ready", None))
            task = conn.recv()
            if task is None:
                return
            site, options = task
            try:
                limit_memory(options.max_memory_mb)
                if site == FINDINGS:
                    search, findings = check_findings(program, options, None, context)
                    conn.send(("ok", (search, findings, True)))
                else:
                    conn.send(("ok", run(program, site, options, None, context)))
            except BaseException as e:  # noqa: BLE001 - reported to the parent as a crash
                conn.send(("crash", f"{type(e).__name__}: {e}"))
                return
            if options.max_memory_mb:
                return
    except (EOFError, OSError):  # the pool went away
        return
    finally:
        conn.close()


class _Process:
    """A pool process, given a site only when it is ready, so no site waits
    for a process to start while another worker could check it. Stopped by
    terminating it."""

    def __init__(self, mpc, program, context):
        self.conn, child = mpc.Pipe()  # duplex: the site goes down, the result comes back
        self.proc = mpc.Process(target=_pool_worker, args=(child, program, context), daemon=True)
        self.proc.start()
        child.close()
        self.site = None

    def give(self, site, options) -> None:
        self.site = site
        self.conn.send((site, options))

    def release(self) -> None:
        """No site for it: it exits."""
        try:
            self.conn.send(None)
        except OSError:
            pass

    def reap(self) -> str:
        """Wait for its end (it answered, or died); how it ended."""
        self.proc.join(1)
        return f"the worker died (exit code {self.proc.exitcode})"

    def stop(self) -> None:
        self.proc.kill()  # whatever it is doing: a z3 call may not heed a gentler signal soon


class _Local:
    """A sub-check in this process, on a thread, answering on a pipe as a
    pool process does. Stopped through its own cancel token, which the engine
    polls often; its answer is then dropped. Busy until the thread ends, so
    this process never runs two sub-checks at once."""

    def __init__(self, mpc, program, context):
        self.conn, self._send = mpc.Pipe(duplex=False)
        self.program, self.context, self.site = program, context, None
        self.started = 0.0
        self.token = CancelToken()
        self.thread = None

    def give(self, site, options) -> None:
        self.site, self.started = site, time.monotonic()
        self.thread = threading.Thread(target=self._run, args=(site, options), daemon=True,
                                       name="distaff-local-subcheck")
        self.thread.start()

    def _run(self, site, options) -> None:
        try:
            if site == FINDINGS:
                search, findings = check_findings(self.program, options, self.token, self.context)
                answer = ("ok", (search, findings, True))
            else:
                answer = ("ok", run(self.program, site, options, self.token, self.context))
        except Exception as e:  # noqa: BLE001 - reported as a crash, as a pool process's
            answer = ("crash", f"{type(e).__name__}: {e}")
        try:
            self._send.send(answer)
        except OSError:  # stopped: nobody listens
            pass
        finally:
            self._send.close()

    def busy(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def reap(self) -> str:
        self.thread.join()  # it answered (or raised): it is ending, and this process may start the next
        return "the sub-check's thread ended without a result"

    def stop(self) -> None:
        self.token.cancel()
        self.conn.close()


def _check_in_pool(program, sites, options, cancel, context, budget, search=False):
    """Sub-checks, up to ``options.workers`` at once, results in the order
    they finish.

    Where processes fork (:func:`_start_method`): with neither a memory
    limit nor more than one worker, every sub-check runs on a thread of this
    process. Otherwise the check starts with a *trial*: for its first
    ``POOL_AFTER_S`` this process checks sites one after another on a thread,
    under the memory limit (this process's address space capped at it for
    the while, as a pool process's is); a check done by then starts no
    process. Past it, the trial's running sub-check is stopped and its site
    goes to a pool process with what is left of its time budget, and the
    sites not yet checked go to ``workers`` pool processes (under a memory
    limit a fresh one per sub-check, capped). No process is forked while a
    sub-check runs on a thread here (a z3 call in progress would leave the
    child's copy of z3 locked): the pool waits for the trial's thread to end,
    and spawns its processes instead if it has not within ``GRACE_S``. A
    process whose address space is already over half the limit makes no
    trial.

    Where they spawn, this process checks one site after another (on a
    thread) while ``workers - 1`` pool processes beside it take the sites
    it has not started yet, each once it is ready (and again after each
    answer); they start when the check has run ``POOL_AFTER_S``, and one
    left without a site exits; under a memory limit every sub-check runs in
    a pool process.

    Deadline, cancel and crash as every runner
    (:mod:`distaff.analysis.executor`): a cancel stops the running
    sub-checks, one past its allowance (its budget and ``GRACE_S``) is
    stopped (TIMEOUT; a process is killed, a thread is cancelled and left to
    end at its next poll while the next site starts), one whose process dies
    or that raises is CRASHED.

    With ``search``, the search for findings is one more task, started beside
    the last sub-checks with its own budget (yielded as ``(FindingsSearch,
    findings, True)``, also when it was cut, cancelled or crashed), unless a
    sub-check explored every run first (it met every finding then); it is
    stopped when one does while it runs, and check() then runs no other."""
    import multiprocessing as mp
    from multiprocessing.connection import wait

    method = _start_method()
    mpc = mp.get_context(method)
    t0 = time.monotonic()
    cap = None  # this process's memory cap while its trial runs
    if method == "fork":
        here = not options.max_memory_mb and options.workers <= 1
        processes = 0 if here else options.workers
        trial_until = None if here else t0 + POOL_AFTER_S
        if trial_until is not None and options.max_memory_mb:
            now_mb = address_space_mb()
            if now_mb is None or now_mb * 2 > options.max_memory_mb:
                trial_until = None  # too close to the limit already: every sub-check in a process
            else:
                cap = MemoryCap(options.max_memory_mb)
        pool_from = t0  # processes are started once no trial runs
    else:
        here = not options.max_memory_mb  # a memory limit needs a process per sub-check
        processes = options.workers - 1 if here else options.workers
        trial_until = None
        pool_from = t0 + (POOL_AFTER_S if here else 0.0)
    pending = list(sites) + ([FINDINGS] if search else [])
    running: dict = {}  # connection -> the _Local or _Process checking a site
    idle: dict = {}  # connection -> a _Process without a site (starting, or done with its last)
    local = None  # this process's latest sub-check
    threads: list = []  # the threads of the trial's sub-checks
    tried: dict = {}  # site -> when its stopped trial started: its budget counts from then
    watch = Watch()
    complete = False

    def start(worker, site) -> None:
        since = tried.get(site)  # what is left of its time when it starts
        if site == FINDINGS:
            launch = budget.search_options()
        else:
            launch = budget.options(0.0 if since is None else time.monotonic() - since)
        worker.give(site, launch)
        running[worker.conn] = worker
        watch.start(worker.conn, launch.timeout_s)

    def end_trial() -> None:
        """The trial's time is up: its sub-check, unless it has answered,
        goes back to the sites a process will take; once its thread has
        ended, processes fork (or spawn, if it does not end)."""
        nonlocal local, mpc, cap
        if local is not None and local.conn in running and not local.conn.poll():
            running.pop(local.conn)
            watch.done(local.conn)
            local.stop()
            pending.insert(0, local.site)
            tried.setdefault(local.site, local.started)
        ends = time.monotonic() + GRACE_S
        for thread in threads:  # the stopped one, and any stopped past its allowance
            thread.join(max(0.0, ends - time.monotonic()))
        if any(thread.is_alive() for thread in threads):
            mpc = mp.get_context("spawn")
        if cap is not None:
            _restore_when_ended(cap, threads)
            cap = None

    def ready(process):
        """A process said it is ready, or died first (then the next site is
        answered CRASHED, so a pool whose processes cannot start still ends)."""
        try:
            process.conn.recv()
            if not pending:
                process.release()
                return
            site = pending.pop(0)
            start(process, site)
        except (EOFError, OSError):
            site = process.site if process.site is not None else pending.pop(0) if pending else None
            how = process.reap()
            if site is not None:
                yield _lost(site, options, crashed(how), context)

    try:
        while pending or running:
            if complete and FINDINGS in pending:
                pending.remove(FINDINGS)
            if complete:  # a sub-check met every finding: the search is not needed
                for conn, worker in list(running.items()):
                    if worker.site == FINDINGS:
                        worker.stop()
                        running.pop(conn)
            if cancel is not None and cancel.cancelled:
                for worker in running.values():
                    worker.stop()
                    yield _lost(worker.site, options, CANCELLED, context)
                running.clear()
                for site in pending:
                    yield _lost(site, options, CANCELLED, context)
                pending.clear()
                break
            if pending and budget.spent():
                for site in pending:
                    yield budget.ran_out(site, context)
                pending.clear()
            trying = trial_until is not None and time.monotonic() < trial_until
            if trial_until is not None and not trying:
                end_trial()
                trial_until = None
            if (here or trying) and pending and not (local is not None and local.busy()):
                local = _Local(mpc, program, context)
                start(local, pending.pop(0))
                if trying:
                    threads.append(local.thread)
            busy = sum(isinstance(w, _Process) for w in running.values())
            while trial_until is None and len(idle) < len(pending) and busy + len(idle) < processes \
                    and time.monotonic() >= pool_from:
                process = _Process(mpc, program, context)
                idle[process.conn] = process
            if not (pending or running):  # the search was dropped, or the budget answered the rest
                break
            timeout = 0.1 if trial_until is None else max(0.0, min(0.1, trial_until - time.monotonic()))
            for conn in wait(list(running) + list(idle), timeout=timeout):
                if conn in idle:
                    yield from ready(idle.pop(conn))
                    continue
                worker = running.pop(conn)
                site = worker.site
                watch.done(conn)
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    kind, payload = "crash", worker.reap()
                if kind == "ok" and isinstance(worker, _Process) and not options.max_memory_mb:
                    worker.site = None  # it asks for the next site, or is released
                    idle[conn] = worker
                else:  # under a memory limit it exits after one site; a crash has ended it
                    worker.reap()
                if kind == "ok":
                    complete = complete or (site != FINDINGS and payload[2])
                    yield payload
                else:
                    yield _lost(site, options, lost_to(payload), context)
            for conn in watch.overdue():
                if conn in running:
                    worker = running.pop(conn)
                    worker.stop()
                    if worker is local:  # left to end at its next poll; the next site need not wait
                        local = None
                    yield _lost(worker.site, options, overran("the sub-check"), context)
    finally:
        for worker in running.values():
            worker.stop()
        for process in idle.values():  # starting, or done with its last site: it exits when it reads this
            process.release()
        if local is not None and local.thread is not None:
            local.thread.join(GRACE_S)  # a stopped sub-check ends soon; the caller may go on to check more
        if cap is not None:
            _restore_when_ended(cap, threads)
        mp.active_children()  # reaps the processes that have exited: none is left a zombie


def _restore_when_ended(cap: MemoryCap, threads: list) -> None:
    """Give back this process's memory limit once the trial's threads have
    ended: now, or from a thread that waits for them (a z3 call that ignores
    interrupts stays under the cap until it returns)."""
    alive = [t for t in threads if t.is_alive()]
    if not alive:
        cap.restore()
        return

    def wait_then_restore() -> None:
        for thread in alive:
            thread.join()
        cap.restore()
    threading.Thread(target=wait_then_restore, daemon=True, name="distaff-memory-cap").start()


def check_text(text: str, path: str, options: Options, cancel: CancelToken | None = None,
               context: Context | None = None) -> Iterator[AssertionResult | Finding]:
    """Parse ``text`` (named ``path``; local includes are read next to it) and
    :func:`check` it. The front end's findings come first."""
    program = parse_program(text, path, data_model=options.data_model, read_include=disk_includes)
    yield from check(program, options, cancel, context)


def disk_includes(name: str, from_path: str) -> str | None:
    """``#include "name"`` read from the folder of ``from_path`` (None when it
    cannot be read): how a file on disk finds its local headers."""
    candidate = os.path.join(os.path.dirname(from_path) or ".", name)
    try:
        with open(candidate, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


__all__ = [
    "DEFAULT_FINDINGS_TIMEOUT_S", "DEFAULT_MEMORY_MB", "GUIDED_MODES", "MODES", "OPTIMISATIONS", "UNREACH_CALL", "CancelToken", "Context", "ContextThread", "Options", "check",
    "check_assertion", "check_findings", "check_text", "context_at",
]
