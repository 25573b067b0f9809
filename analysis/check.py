"""The public API: check a program's assertions.

``check(program, options, cancel)`` yields results as they are decided: one
:class:`~analysis.report.AssertionResult` per assertion of the program
(every assertion exactly once, in the order its sub-check finishes), and
:class:`~analysis.report.Finding` s (deadlocks, run-time errors, and the front
end's syntax/unsupported findings) as they are met, each finding once.

Each assertion is its own sub-check (parallel-property-checking paper): a
sub-check explores the program guided by that assertion only. With
``options.workers > 1`` sub-checks run in a process pool; with 1 they run in
this process, one after the other; with ``options.scheduler`` set they run on
that Dask cluster (:mod:`analysis.cluster`, which raises its
``ClusterUnavailable`` when the scheduler cannot be used).

Cancellation: ``cancel.cancelled`` is polled often by the engine (between
instructions and solver calls) and by the static analyses a sub-check runs
(slices, reachability: :mod:`analysis.static.budget`, which also holds them to
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
* UNKNOWN with a :class:`~analysis.report.Reason` when a budget ran out, the
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

A sub-check deepens the bound (:func:`_explore`): passes at unwind 1, 2,
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
from dataclasses import dataclass, field, replace
from typing import Iterator

from analysis import ir
from analysis.ir import DataModel
from analysis.report import GRACE_S, AssertionResult, Finding, FindingKind, Reason, Stats, Status
from analysis.symex.unmodelled import library_dependences, phrase

MODES = ("baseline", "dpor", "dpor-ag")
UNREACH_CALL = "unreach-call"  # the one property Options.property knows

# The optimisations Options.optimisations switches off by name, each counted
# in the statistics where it acts (a test keeps this list equal to the names
# the code asks Options.enabled about).
OPTIMISATIONS = frozenset({
    "concrete_loops", "deepening", "park_blocked", "race_prefix_reuse", "thread_cuts",  # engine, check
    "solver_cache", "solver_incremental", "solver_independence",  # solver layers
    "sleep_sets", "wakeup_trees", "dpor_order", "dpor_step_index",  # DPOR
    "summaries", "rvar_wvar", "slicing",  # assertion-guided reduction
})


@dataclass(frozen=True, slots=True)
class Options:
    """How to check. ``timeout_s`` and ``max_runs`` are per assertion,
    ``total_timeout_s`` for the whole check; None is no limit. ``optimisations`` switches single optimisations off by name
    (e.g. ``{"solver_cache": False}``); every one is on by default and counted
    in the statistics' counters.

    The default mode is ``dpor-ag``, as DESIGN has it: the same verdicts as
    ``dpor`` (the differential test compares every mode with a concrete
    oracle) in fewer runs."""

    mode: str = "dpor-ag"
    unwind: int = 8
    timeout_s: float | None = None
    # wall time of the whole check (every sub-check and the findings search):
    # each sub-check gets what is left when it starts; None is no limit
    total_timeout_s: float | None = None
    findings: bool = True  # the search for deadlocks and run-time errors (see check)
    # "unreach-call": the error calls are one property, as in SV-COMP (see check)
    property: str | None = None
    max_runs: int | None = None
    data_model: DataModel = DataModel.LP64
    workers: int = 1
    optimisations: tuple[tuple[str, bool], ...] = ()
    report_races: bool = False
    scheduler: str | None = None  # a Dask scheduler's address: sub-checks run there (analysis.cluster)
    # a condition wait may also return without a signal, as POSIX allows (at
    # most once per thread and run: one is what an "if" instead of "while" needs)
    spurious_wakeups: bool = False
    # print the predicate summaries learned (mode dpor-ag) as C, for the hover
    # and the JSON; printing costs, so a caller that shows neither turns it off
    summary_text: bool = True

    def enabled(self, name: str) -> bool:
        return dict(self.optimisations).get(name, True)


@dataclass
class CancelToken:
    """Set once to ask a running check to stop; cheap to poll."""

    _event: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass(frozen=True, slots=True)
class ContextThread:
    """A thread of a program context: it starts at ``pc`` of ``func`` (its call
    stack beyond ``func`` unknown: when ``func`` returns, the thread ends)."""

    func: str
    pc: int


@dataclass(frozen=True, slots=True)
class Context:
    """A program context for "check from here": the first thread is the
    cursor's. Threads that may run in parallel and are not listed start at
    their entry. ``naive``: every value not fixed by the program text is a
    fresh symbol (the arbitrary-context paper's naive approach)."""

    threads: tuple[ContextThread, ...]
    naive: bool = True
    # the initial state's ingredients (analysis.context, issue 7); both off is the naive approach
    reaching_defs: bool = False
    sync_invariants: bool = False

    @property
    def approximate(self) -> bool:
        """Some ingredient of the initial state is off."""
        return not (self.reaching_defs and self.sync_invariants)

    @property
    def label(self) -> str:
        """What results from this context say about it."""
        if not self.reaching_defs and not self.sync_invariants:
            return NAIVE_CONTEXT_LABEL
        if not self.reaching_defs:
            return "approximate context (no reaching definitions)"
        if not self.sync_invariants:
            return "approximate context (no synchronization invariants)"
        return "context (reaching definitions, synchronization invariants)"


NAIVE_CONTEXT_LABEL = "approximate context (fresh symbols)"


# --------------------------------------------------------------------------
# one sub-check


def check_assertion(program: ir.Program, site: ir.AssertionSite, options: Options,
                    cancel: CancelToken | None = None, context: Context | None = None,
                    ) -> tuple[AssertionResult, list[Finding]]:
    """Explore ``program`` with ``site`` as the target; the verdict and the
    findings met on the way."""
    result, findings, _ = _sub_check(program, site, options, cancel, context)
    return result, findings


def deepening_bounds(unwind: int) -> list[int]:
    """The bounds of iterative deepening up to ``unwind``: 1, 2, 4, ... and
    ``unwind`` itself last."""
    out, k = [], 1
    while k < unwind:
        out.append(k)
        k *= 2
    return out + [unwind]


@dataclass
class _Pass:
    """One exploration of a deepening: its bound, options, explorer and result."""

    unwind: int
    options: Options
    explorer: object
    result: object


def _explore(program, site, options, cancel, context) -> tuple["_Pass | None", "_Pass", list]:
    """Explore with iterative deepening over the unwind bound (optimisation
    ``deepening``): a pass at each of :func:`deepening_bounds`, each with
    what is left of the time and run budgets, until a pass finds a violation
    of the target, cuts no thread (a deeper bound would change nothing), runs
    out of budget, or is the pass at ``options.unwind``. A bug one iteration
    deep is found by the pass at bound 1, and a "holds" still speaks of the
    full bound. Returns the deepest pass that ran to its end before the last
    one (None if none), the last pass, and the findings of all passes."""
    from analysis.explore.explorer import Explorer
    from analysis.static.budget import bounded

    bounds = deepening_bounds(options.unwind) if options.enabled("deepening") else [options.unwind]
    start = time.monotonic()
    finished, findings, runs_before = None, [], 0
    work = Stats()  # the engine's work in the passes before the last
    for k in bounds:
        timeout = options.timeout_s
        if timeout is not None:
            timeout = max(0.001, timeout - (time.monotonic() - start))
        max_runs = None if options.max_runs is None else max(1, options.max_runs - runs_before)
        opts = replace(options, unwind=k, timeout_s=timeout, max_runs=max_runs)
        with bounded(_static_budget(opts, cancel)):  # the static analyses it runs share its budget
            explorer = Explorer(program, opts, site, cancel, context)
            ex = explorer.run()
        findings.extend(ex.findings)
        last = _Pass(k, opts, explorer, ex)
        if ex.violation is not None or ex.stop is not None or ex.stats.bound_cuts == 0 or k == bounds[-1]:
            break
        finished = last
        runs_before += ex.stats.runs
        work = work + ex.stats
    if options.enabled("deepening"):
        extra = (("deepening_passes", bounds.index(last.unwind) + 1), ("deepening_runs", runs_before))
        s = last.result.stats
        # runs are the last pass's (deepening_runs has the others'); the
        # engine's work and the time are every pass's
        last.result.stats = replace(s, time_s=round(time.monotonic() - start, 6),
                                    counters=tuple(sorted(s.counters + extra)),
                                    steps=s.steps + work.steps, events=s.events + work.events,
                                    static_time_s=round(s.static_time_s + work.static_time_s, 6),
                                    solver_calls=s.solver_calls + work.solver_calls,
                                    solver_time_s=round(s.solver_time_s + work.solver_time_s, 6))
    return finished, last, findings


def _sub_check(program, site, options, cancel, context):
    """``check_assertion`` plus whether the exploration ran to its end."""
    finished, last, findings = _explore(program, site, options, cancel, context)
    ex = last.result
    complete = ex.violation is None and ex.stop is None
    # a pass that cut no thread, or found a violation, answers for the full bound
    result = replace(_verdict(program, site, last.options, ex, context), unwind=options.unwind)
    if finished is not None and ex.stop in (Reason.TIMEOUT, Reason.MAX_RUNS):
        result = _deepest_finished(program, site, finished, last, result, context)
    summaries = getattr(last.explorer.reduction, "statement_summaries", None)  # mode dpor-ag
    if summaries is not None and options.summary_text:
        result = replace(result, summaries=tuple(summaries()))
    return result, findings, complete


def _deepest_finished(program, site, finished: _Pass, last: _Pass, result, context) -> AssertionResult:
    """The verdict when the budget ran out in a deepening pass after an
    earlier pass finished: "holds within unwind 2; unwind 4 unfinished"
    (when that pass's verdict was a bounded "holds"), else undecided saying
    how far the check got."""
    earlier = _verdict(program, site, finished.options, finished.result, context)
    why = "timeout" if last.result.stop is Reason.TIMEOUT else "run limit"
    unfinished = f"unwind {last.unwind} unfinished ({why})"
    if earlier.status is Status.HOLDS:
        stats = replace(earlier.stats, time_s=last.result.stats.time_s, counters=last.result.stats.counters)
        return replace(earlier, message="; ".join(m for m in (earlier.message, unfinished) if m), stats=stats)
    if earlier.reason is not Reason.BOUND:
        return result
    return replace(result, message=f"no run reached it within unwind {finished.unwind}; {unfinished}")


def _static_budget(options: Options, cancel: CancelToken | None):
    """The budget of the static analyses a sub-check runs on the way (slices,
    reachability, a context's initial state): the sub-check's own deadline
    and cancel token, so that ``timeout_s`` and a cancel stop them too."""
    from analysis.static.budget import Budget

    deadline = time.monotonic() + options.timeout_s if options.timeout_s else None
    if deadline is None and cancel is None:
        return None
    return Budget(deadline, cancel)


def _verdict(program, site, options, ex, context) -> AssertionResult:
    s = ex.stats
    trace, reason, message, bounded, depends = None, None, "", False, ()
    library = library_dependences(ex.violation_depends, program.user_externals)
    if ex.violation is not None and library:  # not vouched for: distaff does not model what it relies on
        status, reason, message = Status.UNKNOWN, Reason.UNMODELLED, phrase(library, True)
    elif ex.violation is not None:
        status, trace, message = Status.VIOLATED, ex.violation, ex.violation_message
        depends = ex.violation_depends
    elif ex.stop is not None:
        status, reason, message = Status.UNKNOWN, ex.stop, ex.stop_message
    elif ex.reached:
        status, bounded = Status.HOLDS, s.bound_cuts > 0
        if s.counter("thread_creation_cuts"):  # "holds within 5 threads"
            message = f"within {s.counter('threads_max')} threads: the bound stops the loop creating them"
    elif s.bound_cuts > 0 and site.kind is ir.AssertKind.UNREACH_CALL:
        status, bounded = Status.HOLDS, True  # an error call no run reaches: the property holds
    elif s.bound_cuts > 0:  # nothing about it was checked: "bound reached", undecided
        status, reason = Status.UNKNOWN, Reason.BOUND
        message = f"no run reached it within the unwind bound ({options.unwind}); a larger bound may"
    else:
        status = Status.UNREACHABLE
    unsupported = [f for f in program.findings if f.kind is ir.FindingKind.UNSUPPORTED]
    if unsupported and status is Status.VIOLATED:
        met = _unsupported_on_run(program, unsupported, trace)
        if met is not None:
            status, reason, trace = Status.UNKNOWN, Reason.UNSUPPORTED, None
            message = (f"the failing run goes through what distaff does not cover: {met.message} "
                       f"(line {met.span.line})")
    if unsupported and status in (Status.HOLDS, Status.UNREACHABLE):
        first = unsupported[0]
        status, reason, bounded = Status.UNKNOWN, Reason.UNSUPPORTED, False
        message = f"the program uses what distaff does not cover: {first.message} (line {first.span.line})"
    return AssertionResult(
        id=site.id, span=site.span, text=site.text, status=status, bounded=bounded, reason=reason,
        message=message, trace=trace, stats=s, unwind=options.unwind, mode=ex.mode,
        context=context.label if context is not None else "", depends_on=depends,
    )


def _within(inner, outer) -> bool:
    return inner.file == outer.file and ((outer.line, outer.col) <= (inner.line, inner.col)
            and (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col))


def _unsupported_on_run(program: ir.Program, unsupported, trace):
    """The first unsupported construct inside a function the run executed (a
    step of the trace lies in that function), or outside every function (a
    declaration, such as a thread-local variable modelled as a shared one,
    whose approximation every run inherits), or None: only a run that stays
    clear of them is a counterexample we can vouch for."""
    for f in unsupported:
        inside = [fn for fn in program.functions if _within(f.span, fn.span)]
        if not inside:
            return f
        for fn in inside:
            if any(_within(s.span, fn.span) for s in trace.steps):
                return f
    return None


def _undecided(site: ir.AssertionSite, options: Options, reason: Reason, message: str,
               context: Context | None = None) -> AssertionResult:
    return AssertionResult(
        id=site.id, span=site.span, text=site.text, status=Status.UNKNOWN, reason=reason, message=message,
        unwind=options.unwind, mode=options.mode, context=context.label if context is not None else "",
    )


def check_findings(program: ir.Program, options: Options, cancel: CancelToken | None = None,
                   context: Context | None = None) -> list[Finding]:
    """Explore a program without assertions for deadlocks and run-time errors."""
    return _explore(program, None, options, cancel, context)[2]


# --------------------------------------------------------------------------
# the public entry points


def check(program: ir.Program, options: Options, cancel: CancelToken | None = None,
          context: Context | None = None) -> Iterator[AssertionResult | Finding]:
    """Check every assertion of ``program`` (see the module docstring)."""
    from analysis.explore.races import finding_key

    seen: set = set()

    def fresh(findings):
        for f in findings:
            key = finding_key(f)  # a data race: its two statements, whichever run showed it
            if key not in seen:
                seen.add(key)
                yield f

    front = [Finding(FindingKind(f.kind.value), f.span, f.message) for f in program.findings]
    yield from fresh(front)
    sites = program.assertions()
    syntax = [f for f in program.findings if f.kind is ir.FindingKind.SYNTAX]
    if syntax:
        first = syntax[0]
        msg = f"not checked: syntax error at line {first.span.line}: {first.message}"
        for site in sites:
            yield _undecided(site, options, Reason.SKIPPED, msg, context)
        return
    if options.property == UNREACH_CALL:
        wanted = [s for s in sites if s.kind is ir.AssertKind.UNREACH_CALL]
        for site in sites:
            if site.kind is not ir.AssertKind.UNREACH_CALL:
                yield _undecided(site, options, Reason.SKIPPED, f"not part of the property {UNREACH_CALL}", context)
        sites = wanted
    elif options.property is not None:
        raise ValueError(f"unknown property {options.property!r} (known: {UNREACH_CALL})")
    budget = _Budget(options)
    if options.scheduler is not None and sites:
        from analysis.cluster import check_on_cluster

        results = check_on_cluster(program, sites, budget.options(), cancel, context)
    elif options.workers > 1 and len(sites) > 1:
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
                    yield _undecided(site, options, Reason.SKIPPED, why, context)
            return
    if not complete and options.findings and options.property is None \
            and not (cancel is not None and cancel.cancelled) and not budget.spent():
        if options.scheduler is not None:
            from analysis.cluster import findings_on_cluster

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
        return _lost(site, self._options, Reason.TIMEOUT, "not checked: the check's time budget ran out first",
                     context)


def _check_in_process(program, sites, options, cancel, context, budget):
    for site in sites:
        if cancel is not None and cancel.cancelled:
            yield _undecided(site, options, Reason.CANCELLED, "cancelled", context), [], False
            continue
        if budget.spent():
            yield budget.ran_out(site, context)
            continue
        yield _sub_check(program, site, budget.options(), cancel, context)


FINDINGS = "findings"  # the pool's task that searches for deadlocks and run-time errors


def _lost(site, options, reason: Reason, message: str, context):
    """What a task that gave no result yields: an undecided assertion, or for
    the search for findings, a search check() need not run again."""
    if site == FINDINGS:
        return None, [], True
    return _undecided(site, options, reason, message, context), [], False


def _pool_worker(conn, program, site, options, context) -> None:
    try:
        if site == FINDINGS:
            conn.send(("ok", (None, check_findings(program, options, None, context), True)))
        else:
            conn.send(("ok", _sub_check(program, site, options, None, context)))
    except BaseException as e:  # noqa: BLE001 - reported to the parent as a crash
        conn.send(("crash", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def _check_in_pool(program, sites, options, cancel, context, budget, search=False):
    """Sub-checks in up to ``options.workers`` processes, each killable; results
    in the order they finish. A cancel terminates the running workers; a worker
    exceeding its time budget by more than a grace period is terminated
    (UNKNOWN, TIMEOUT); a worker that dies is reported as CRASHED.

    With ``search``, the search for findings is one more task, started beside
    the last sub-checks (yielded as ``(None, findings, True)``), unless a
    sub-check explored every run first (it met every finding then); it is
    stopped when one does while it runs, and check() then runs no other."""
    import multiprocessing as mp
    from multiprocessing.connection import wait

    mpc = mp.get_context("spawn")
    pending = list(sites) + ([FINDINGS] if search else [])
    running: dict = {}  # connection -> (process, site, start time)
    complete = False
    try:
        while pending or running:
            if complete and FINDINGS in pending:
                pending.remove(FINDINGS)
            if complete:  # a sub-check met every finding: the search is not needed
                for conn, (proc, site, _, _) in list(running.items()):
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
                running[parent] = (proc, site, time.monotonic(), launch.timeout_s)
            if cancel is not None and cancel.cancelled:
                for conn, (proc, site, _, _) in list(running.items()):
                    proc.terminate()
                    yield _lost(site, options, Reason.CANCELLED, "cancelled", context)
                running.clear()
                for site in pending:
                    yield _lost(site, options, Reason.CANCELLED, "cancelled", context)
                pending.clear()
                break
            for conn in wait(list(running), timeout=0.1):
                proc, site, _, _ = running.pop(conn)
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    kind, payload = "crash", f"the worker died (exit code {proc.exitcode})"
                proc.join(1)
                if kind == "ok":
                    complete = complete or (site != FINDINGS and payload[2])
                    yield payload
                else:
                    yield _lost(site, options, Reason.CRASHED, payload, context)
            now = time.monotonic()
            for conn, (proc, site, started, timeout) in list(running.items()):
                if timeout is not None and now - started > timeout + GRACE_S:
                    proc.terminate()
                    running.pop(conn)
                    yield _lost(site, options, Reason.TIMEOUT, "the worker overran its time budget", context)
    finally:
        for proc, _, _, _ in running.values():
            proc.terminate()


def check_text(text: str, path: str, options: Options, cancel: CancelToken | None = None,
               context: Context | None = None) -> Iterator[AssertionResult | Finding]:
    """Parse ``text`` (named ``path``; local includes are read next to it) and
    :func:`check` it. The front end's findings come first."""
    from analysis.frontend import parse_program

    program = parse_program(text, path, data_model=options.data_model, read_include=_disk_includes)
    yield from check(program, options, cancel, context)


def _disk_includes(name: str, from_path: str) -> str | None:
    candidate = os.path.join(os.path.dirname(from_path) or ".", name)
    try:
        with open(candidate, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


def context_at(program: ir.Program, positions: list[tuple[int, int]]) -> Context:
    """The program context whose threads start at ``positions`` (1-based line
    and column, one per thread, the cursor's first). A position maps to the
    statement starting on its line: the first instruction (lowest pc) whose span
    starts on that line at or after the column (any column when none does);
    when no instruction starts on the line, to the instruction with the
    smallest span containing the position. Raises ValueError naming the
    position when no instruction is there."""
    threads = []
    for line, col in positions:
        col = col or 1
        on_line, containing = [], []
        for fi, f in enumerate(program.functions):
            for pc, i in enumerate(f.body):
                s = i.span
                if s.line == line:
                    on_line.append((s.col >= col, fi, pc, f.name))
                elif (s.line, s.col) <= (line, col) < (s.end_line, s.end_col):
                    containing.append(((s.end_line - s.line, s.end_col - s.col), fi, pc, f.name))
        if on_line:
            after = [x for x in on_line if x[0]] or on_line
            _, _, pc, name = min(after, key=lambda x: (x[1], x[2]))
        elif containing:
            _, _, pc, name = min(containing)
        else:
            raise ValueError(f"no statement at line {line}, column {col}")
        threads.append(ContextThread(name, pc))
    return Context(tuple(threads))


__all__ = [
    "MODES", "CancelToken", "Context", "ContextThread", "Options", "check", "check_assertion",
    "check_text", "context_at",
]
