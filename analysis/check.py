"""The public API: check a program's assertions.

``check(program, options, cancel)`` yields results as they are decided: one
:class:`~distaff.analysis.report.AssertionResult` per assertion of the program
(every assertion exactly once, in the order its sub-check finishes), and
:class:`~distaff.analysis.report.Finding` s (deadlocks, run-time errors, and the front
end's syntax/unsupported findings) as they are met, each finding once.

Each assertion is its own sub-check (parallel-property-checking paper): a
sub-check explores the program guided by that assertion only. With
``options.workers > 1`` sub-checks run in a process pool; with 1 they run in
this process, one after the other; with ``options.scheduler`` set they run on
that Dask cluster (:mod:`distaff.analysis.cluster`, which raises its
``ClusterUnavailable`` when the scheduler cannot be used).

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
import time
from dataclasses import replace
from typing import Iterator

from distaff.analysis import ir
from distaff.analysis.cluster import check_on_cluster, findings_on_cluster
from distaff.analysis.context import Context, ContextThread, context_at
from distaff.analysis.explore.races import finding_key
from distaff.analysis.frontend import parse_program
from distaff.analysis.options import MODES, OPTIMISATIONS, UNREACH_CALL, CancelToken, Options
from distaff.analysis.executor import CANCELLED, Lost, Watch, limit_memory, lost_to, overran
from distaff.analysis.report import AssertionResult, Finding, Reason, Status
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
    if options.scheduler is not None and sites:
        results = check_on_cluster(program, sites, budget.options(), cancel, context)
    elif (options.workers > 1 and len(sites) > 1) or options.max_memory_mb:  # a memory limit needs a process
        search = options.findings and options.property is None
        results = _check_in_pool(program, sites, options, cancel, context, budget, search)
    else:
        results = _check_in_process(program, sites, options, cancel, context, budget)
    complete = False  # some sub-check explored every run (so met every finding)
    answered = set()
    for result, findings, done in results:
        yield from fresh(findings)
        complete = complete or done
        if result is None:  # the pool's search for findings, run beside the sub-checks
            continue
        yield result
        answered.add(result.id)
        if options.property is not None and result.status is Status.VIOLATED:
            results.close()  # the property is violated: the other sites' checks stop
            why = f"the property {options.property} is already violated at line {result.span.line}"
            for site in sites:
                if site.id not in answered:
                    yield undecided(site, options, Reason.SKIPPED, why, context)
            return
    if not complete and options.findings and options.property is None \
            and not (cancel is not None and cancel.cancelled) and not budget.spent():
        if options.scheduler is not None:
            yield from fresh(findings_on_cluster(program, budget.options(), cancel, context))
        else:
            yield from fresh(check_findings(program, budget.options(), cancel, context))


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
        left = self.left()
        return left is not None and left <= 0

    def options(self) -> Options:
        """The options of a sub-check starting now: its own timeout no longer
        than what is left of the whole."""
        left = self.left()
        if left is None:
            return self._options
        own = self._options.timeout_s
        return replace(self._options, timeout_s=max(0.001, left if own is None else min(own, left)),
                       total_timeout_s=None)

    def ran_out(self, site, context):
        return _lost(site, self._options, Lost(Reason.TIMEOUT, "not checked: the check's time budget ran out first"),
                     context)


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


def _lost(site, options, lost: Lost, context):
    """What a task that gave no result yields: an undecided assertion, or for
    the search for findings, a search check() need not run again."""
    if site == FINDINGS:
        return None, [], True
    return undecided(site, options, lost.reason, lost.message, context), [], False


def _pool_worker(conn, program, site, options, context) -> None:
    try:
        limit_memory(options.max_memory_mb)
        if site == FINDINGS:
            conn.send(("ok", (None, check_findings(program, options, None, context), True)))
        else:
            conn.send(("ok", run(program, site, options, None, context)))
    except BaseException as e:  # noqa: BLE001 - reported to the parent as a crash
        conn.send(("crash", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def _check_in_pool(program, sites, options, cancel, context, budget, search=False):
    """Sub-checks in up to ``options.workers`` processes, each killable; results
    in the order they finish. Deadline, cancel and crash as every runner
    (:mod:`distaff.analysis.executor`): a cancel terminates the running
    workers, a worker past its allowance is terminated (TIMEOUT), one that
    dies is CRASHED.

    With ``search``, the search for findings is one more task, started beside
    the last sub-checks (yielded as ``(None, findings, True)``), unless a
    sub-check explored every run first (it met every finding then); it is
    stopped when one does while it runs, and check() then runs no other."""
    import multiprocessing as mp
    from multiprocessing.connection import wait

    mpc = mp.get_context("spawn")
    pending = list(sites) + ([FINDINGS] if search else [])
    running: dict = {}  # connection -> (process, site)
    watch = Watch()
    complete = False
    try:
        while pending or running:
            if complete and FINDINGS in pending:
                pending.remove(FINDINGS)
            if complete:  # a sub-check met every finding: the search is not needed
                for conn, (proc, site) in list(running.items()):
                    if site == FINDINGS:
                        proc.terminate()
                        running.pop(conn)
            while pending and len(running) < options.workers:
                if cancel is not None and cancel.cancelled:
                    break
                site = pending.pop(0)
                if budget.spent():
                    yield budget.ran_out(site, context)
                    continue
                launch = budget.options()
                parent, child = mpc.Pipe(duplex=False)
                proc = mpc.Process(target=_pool_worker, args=(child, program, site, launch, context), daemon=True)
                proc.start()
                child.close()
                running[parent] = (proc, site)
                watch.start(parent, launch.timeout_s)
            if cancel is not None and cancel.cancelled:
                for conn, (proc, site) in list(running.items()):
                    proc.terminate()
                    yield _lost(site, options, CANCELLED, context)
                running.clear()
                for site in pending:
                    yield _lost(site, options, CANCELLED, context)
                pending.clear()
                break
            for conn in wait(list(running), timeout=0.1):
                proc, site = running.pop(conn)
                watch.done(conn)
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    kind, payload = "crash", f"the worker died (exit code {proc.exitcode})"
                proc.join(1)
                if kind == "ok":
                    complete = complete or (site != FINDINGS and payload[2])
                    yield payload
                else:
                    yield _lost(site, options, lost_to(payload), context)
            for conn in watch.overdue():
                if conn in running:
                    proc, site = running.pop(conn)
                    proc.terminate()
                    yield _lost(site, options, overran("the worker"), context)
    finally:
        for proc, _ in running.values():
            proc.terminate()


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
    "MODES", "OPTIMISATIONS", "UNREACH_CALL", "CancelToken", "Context", "ContextThread", "Options", "check",
    "check_assertion", "check_findings", "check_text", "context_at",
]
