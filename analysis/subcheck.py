"""One sub-check: explore a program with one assertion as the target.

Each assertion is its own sub-check (parallel-property-checking paper). This
module runs one, wherever it runs: in the checking process, in a worker of
the local pool, or as a task on a Dask cluster (:mod:`distaff.analysis.check` and
:mod:`distaff.analysis.cluster` are its two callers; neither imports the other's
internals). It chooses the reduction of the mode (:func:`reduction_for`),
builds the initial state of a program context (:func:`explorer_for`),
deepens the unwind bound, and turns the exploration into a verdict
(the contract is :mod:`distaff.analysis.check`'s module docstring).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from distaff.analysis import ir
from distaff.analysis.context import Context
from distaff.analysis.explore.dpor import Dpor
from distaff.analysis.explore.explorer import Explorer
from distaff.analysis.explore.races import exploration_options
from distaff.analysis.explore.reduction import Baseline, Reduction
from distaff.analysis.modular.prover import ANY_NUMBER_OF_THREADS, Proof, proof_of, starts_without_bound
from distaff.analysis.options import GUIDED_MODES, MODES, OBSERVER_MODES, CancelToken, Options
from distaff.analysis.report import (
    AssertionResult, BoundStop, Finding, FindingKind, FindingsSearch, Reason, SearchEnd, Stats, Status,
)
from distaff.analysis.static.budget import Budget, bounded
from distaff.analysis.symex.arguments import ARGC, bound_phrase, calls_main, read_as_numbers, rebuilt_command_line
from distaff.analysis.symex.c11 import graph_kind
from distaff.analysis.symex.getopt import CUT as GETOPT_CUT
from distaff.analysis.symex.engine import FREE_ITERATIONS
from distaff.analysis.symex.unmodelled import (
    span_within, context_unknowns, library_dependences, phrase, unsupported_on, values_of,
)


def reduction_for(mode: str, program: ir.Program, options: Options, site: ir.AssertionSite | None) -> Reduction:
    """The reduction of ``mode`` (:data:`distaff.analysis.options.MODES`); ValueError
    for any other name, never a quiet fallback to another mode. Without a
    target, ``dpor-ag`` has no assertion to guide by and is DPOR alone; so
    are ``dpor-ag`` and ``rf`` when the runs keep an execution graph (C11
    with weak atomics, or counting executions)."""
    if mode == "baseline":
        return Baseline()
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
    if graph_kind(program, options.memory_model, options.count_executions):
        # runs that keep an execution graph read memory as C11 does: predicate
        # summaries and observers reason about one sequentially consistent
        # memory, so these runs are plain DPOR's (README, "C11")
        return Dpor(program, options, site, False)
    if mode in GUIDED_MODES and site is not None:
        # imported here: a check plain DPOR decides (plain_first) never needs it
        from distaff.analysis.summaries.guided import AssertionGuided

        return AssertionGuided(program, options, site)
    return Dpor(program, options, site, mode in OBSERVER_MODES)


def explorer_for(program: ir.Program, options: Options, site: ir.AssertionSite | None = None,
                 cancel: CancelToken | None = None, context: Context | None = None) -> Explorer:
    """An explorer of ``program`` in ``options.mode``, starting at ``main``
    or, with ``context``, from the context's initial state. The reduction
    sees the options the exploration runs with (reporting races switches
    some pruning off: :func:`distaff.analysis.explore.races.exploration_options`)."""
    options = exploration_options(options)
    start = None
    if context is not None:
        # imported here: the context's analyses are a third of the command line's imports,
        # and only a check from a program context needs them
        from distaff.analysis.context.initial import ContextStart
        start = ContextStart(program, context)
    return Explorer(program, options, site, cancel, reduction_for(options.mode, program, options, site),
                    start, start.hooks if start is not None else None)




def check_assertion(program: ir.Program, site: ir.AssertionSite, options: Options,
                    cancel: CancelToken | None = None, context: Context | None = None,
                    ) -> tuple[AssertionResult, list[Finding]]:
    """Explore ``program`` with ``site`` as the target; the verdict and the
    findings met on the way."""
    result, findings, _ = run(program, site, options, cancel, context)
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


def wrap_up_s(timeout_s: float) -> float:
    """What a sub-check of budget ``timeout_s`` keeps back from its
    exploration to answer in time: the engine polls its budget between
    steps, and one step on terms of hundreds of thousands of nodes (values
    built by repeated arithmetic on each other) can take most of a second;
    a sub-check past its budget and the runner's grace is stopped, and its
    answer lost."""
    return min(WRAP_UP_S, WRAP_UP_SHARE * timeout_s)


# at most this much, and this share of a sub-check's budget, is kept back (wrap_up_s)
WRAP_UP_S, WRAP_UP_SHARE = 0.5, 0.05

# seconds the passes of a deepening below the full bound may take together,
# and at most this share of the sub-check's budget (_explore)
SHALLOW_S, SHALLOW_SHARE = 2.0, 0.25


def _shallow_budget(options: Options) -> float | None:
    """Seconds the deepening's passes below ``options.unwind`` may take
    together: None (no cap) for a check limited by runs, whose counts must
    not depend on the machine's speed."""
    if options.max_runs is not None:
        return None
    return SHALLOW_S if options.timeout_s is None else min(SHALLOW_S, SHALLOW_SHARE * options.timeout_s)


def _ran_out(ex, cancel: CancelToken | None) -> bool:
    """Did exploration ``ex`` stop at its own time budget (not cancelled)?"""
    return ex.stop is Reason.TIMEOUT and not (cancel is not None and cancel.cancelled)


def _explore(program, site, options, cancel, context) -> tuple["_Pass | None", "_Pass", list]:
    """Explore with iterative deepening over the unwind bound (optimisation
    ``deepening``): a pass at each of :func:`deepening_bounds`, each with
    what is left of the time and run budgets, until a pass finds a violation
    of the target, stopped no thread on any path (a deeper bound would change
    nothing: a run that blocked, or was dropped at a failed assumption, after
    the bound stopped a thread counts as stopped), runs out of budget, or is
    the pass at ``options.unwind``. A bug one iteration
    deep is found by the pass at bound 1, and a "holds" still speaks of the
    full bound. The passes below the full bound share
    :func:`_shallow_budget`: one that runs past it gives way to the pass at
    the full bound (counted as ``deepening_gave_way``; a pool of workers
    cut at bound 1 in every run can take longer to explore than the full
    bound, where summaries prune). Returns the deepest pass that ran to its end before the last
    one (None if none), the last pass, and the findings of all passes. The
    last pass's explorer is open: the caller closes it when done with it."""
    bounds = deepening_bounds(options.unwind) if options.enabled("deepening") else [options.unwind]
    start = time.monotonic()
    finished, findings, runs_before, abandoned = None, [], 0, 0
    work = Stats()  # the engine's work in the passes before the last

    def explore_with(opts):
        with bounded(_static_budget(opts, cancel)):  # the static analyses it runs share its budget
            explorer = explorer_for(program, opts, site, cancel, context)
            return explorer, explorer.run()

    shallow_s = _shallow_budget(options)
    gave_way = passes = 0
    for k in bounds:
        timeout = options.timeout_s
        if timeout is not None:
            timeout = max(0.001, timeout - wrap_up_s(timeout) - (time.monotonic() - start))
        capped = False
        if k != bounds[-1] and shallow_s is not None:
            left = shallow_s - (time.monotonic() - start)
            if left <= 0:
                continue
            capped = timeout is None or left < timeout
            if capped:
                timeout = left
        max_runs = None if options.max_runs is None else max(1, options.max_runs - runs_before)
        opts = replace(options, unwind=k, timeout_s=timeout, max_runs=max_runs)
        if k != bounds[-1]:  # constant loops that call or synchronize count here: a shallow bug is found first
            opts = replace(opts, optimisations=opts.optimisations + (("counted_loops", False),))
        passes += 1
        explorer, ex = explore_with(opts)
        if ex.symmetry_broken:  # a run told twins apart: this bound again, without them
            explorer.close()
            options = replace(options, optimisations=options.optimisations + (("symmetry", False),))
            abandoned += 1
            opts = replace(opts, optimisations=options.optimisations)
            opts = _less_time(opts, ex.stats.time_s)
            explorer, ex = explore_with(opts)
        findings.extend(ex.findings)
        last = _Pass(k, opts, explorer, ex)
        shallow_out = capped and ex.violation is None and _ran_out(ex, cancel)
        if not shallow_out and (ex.violation is not None or ex.stop is not None or not ex.cut or k == bounds[-1]):
            break
        explorer.close()  # only its result is read from here on
        if shallow_out:
            gave_way += 1
        else:
            finished = last
        runs_before += ex.stats.runs
        work = work + ex.stats
    if abandoned:
        s = last.result.stats
        last.result.stats = replace(s, counters=tuple(sorted(s.counters + (("symmetry_abandoned", abandoned),))))
    if options.enabled("deepening"):
        extra = (("deepening_passes", passes), ("deepening_runs", runs_before)) \
            + ((("deepening_gave_way", gave_way),) if gave_way else ())
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


# seconds a check from main may take to confirm or refute a violation found
# from a program context on values the context does not know (at most what is
# left of the sub-check's own budget)
CONFIRM_S = 10.0
# the counter a violation confirmed from main carries, and what it adds to the message
CONFIRMED, CONFIRMED_TEXT = "context_confirmed", "a run from main violates it too"


def run(program, site, options, cancel, context):
    """``check_assertion`` plus whether the exploration ran to its end."""
    started = time.monotonic()
    context = _with_thread_invariants(program, options, context)
    proof = _any_number_of_threads(program, site, options, context)
    # the prover's time (a second on a program of fifty functions) is the
    # sub-check's: a sub-check that explored its whole budget after it was
    # past the runner's grace and was lost, its runs with it
    left = _less_time(options, time.monotonic() - started)
    if proof is not None:
        explored = left
        if starts_without_bound(program):  # exploring cannot finish: it only has a short while to answer first
            confirm = MODULAR_CONFIRM_S if left.timeout_s is None else min(left.timeout_s, MODULAR_CONFIRM_S)
            explored = replace(left, timeout_s=confirm)
        result, findings, complete = _run(program, site, explored, cancel, context)
        result = _modular_answer(result, *proof)
    else:
        result, findings, complete = _run(program, site, left, cancel, context)
    if context is not None and _possible(result) and options.enabled("context_confirm"):
        result = _confirm_from_main(program, site, options, cancel, result, started)
    if options.memory_model == "rc11":
        result = _resting_on_races(result, findings)
    return result, findings, complete


def _less_time(options, seconds: float):
    """``options`` with ``seconds`` fewer of the sub-check's budget (a
    millisecond at least), when it has one."""
    if options.timeout_s is None:
        return options
    return replace(options, timeout_s=max(0.001, options.timeout_s - seconds))


# seconds the exploration has to answer first when the thread-modular prover
# proved the assertion: a complete exploration says more (its runs), and a
# violation it finds would contradict the prover, which is then not believed
MODULAR_CONFIRM_S = 1.0


def _with_thread_invariants(program, options, context: Context | None) -> Context | None:
    """``context`` with the thread-modular prover's bounds as an ingredient
    of its initial state (optimisation ``thread_modular``, under sequential
    consistency), when the prover followed the whole program: every run
    from ``main`` stays inside them, whatever the number of threads, so a
    context loses no state a run can reach by assuming them."""
    if context is None or not _prover_applies(program, options):
        return context
    proof, _ = proof_of(program)
    return replace(context, thread_invariants=True) if proof.globals or proof.frames else context


def _prover_applies(program, options) -> bool:
    """The thread-modular prover answers for ``program`` checked with
    ``options``: under sequential consistency, switched on, on a program
    the front end lowered in full."""
    return options.memory_model == "sc" and options.enabled("thread_modular") and \
        not any(f.kind in (ir.FindingKind.UNSUPPORTED, ir.FindingKind.SYNTAX) for f in program.findings)


def _any_number_of_threads(program, site, options, context) -> tuple[Proof, float] | None:
    """The thread-modular prover's proof of ``site`` and the seconds it took,
    for a program that starts threads in a loop (optimisation
    ``thread_modular``; whole-program checks under sequential consistency of
    programs the front end lowered in full); None otherwise. When the loop is
    not counted (:func:`~distaff.analysis.modular.prover.starts_without_bound`),
    exploring has :data:`MODULAR_CONFIRM_S` to answer first; a counted one's
    threads it explores with what the prover left of its budget, and the
    proof answers only where that left the assertion undecided or bounded."""
    if context is not None or not any(t.in_loop for t in program.threads) or not _prover_applies(program, options):
        return None
    proof, seconds = proof_of(program)
    return (proof, seconds) if site.id in proof.proved else None


def _modular_answer(result: AssertionResult, proof: Proof, seconds: float) -> AssertionResult:
    """The answer when the prover proved the assertion: the exploration's
    when it decided (a violation it found is believed over the prover:
    counted as ``thread_modular_contradicted``), else "holds for any number
    of threads" with the invariants (counted as ``thread_modular_proved``)."""
    counted = {"thread_modular_ms": round(seconds * 1000)}
    if result.status is Status.VIOLATED:
        return _counted(result, {**counted, "thread_modular_contradicted": 1})
    if result.status in (Status.HOLDS, Status.UNREACHABLE):
        return _counted(result, counted)
    return _counted(replace(result, status=Status.HOLDS, reason=None, trace=None, stops=(), depends_on=(),
                            message=f"{ANY_NUMBER_OF_THREADS}: {proof.invariant_text()}",
                            invariants=proof.invariants),
                    {**counted, "thread_modular_proved": 1})


def _resting_on_races(result: AssertionResult, findings) -> AssertionResult:
    """Under C11 a verdict on runs that showed a data race says so: C leaves
    the program undefined, and the verdict holds only of the accesses as
    written (a compiler may reorder, merge or tear them)."""
    races = sorted({(f.span.line, f.span.file) for f in findings if f.kind is FindingKind.DATA_RACE})
    if not races:
        return result
    lines = ", ".join(str(line) for line, _ in races[:3]) + (", ..." if len(races) > 3 else "")
    note = f"it rests on data races (line {lines}), which C leaves undefined"
    return replace(result, message="; ".join(m for m in (result.message, note) if m))


def _possible(result: AssertionResult) -> bool:
    """A violation from a context that relies on values the context left unknown."""
    return result.status is Status.VIOLATED and bool(context_unknowns(result.depends_on))


def _confirm_from_main(program, site, options, cancel, result: AssertionResult, started: float) -> AssertionResult:
    """Check ``site`` from ``main`` within :data:`CONFIRM_S` (optimisation
    ``context_confirm``): when every run from ``main`` was explored, none cut
    by the bound, and none violates the assertion, no execution reaches the
    context with the values the violation needs, so the assertion holds
    there too (a false alarm taken back: ``context_refuted``). A violation
    from ``main`` is noted in the message (``context_confirmed``); anything
    else leaves the possible violation as it was (``context_unconfirmed``)."""
    budget = CONFIRM_S
    if options.timeout_s is not None:
        budget = min(budget, options.timeout_s - (time.monotonic() - started))
    if budget <= 0.05 or (cancel is not None and cancel.cancelled):
        return _counted(result, {"context_unconfirmed": 1})
    _, whole, _ = _explore(program, site, replace(options, timeout_s=budget, findings=False), cancel, None)
    whole.explorer.close()
    ex, s = whole.result, whole.result.stats
    work = {"context_confirm_runs": s.runs, "context_confirm_ms": round(s.time_s * 1000)}
    if ex.violation is None and ex.stop is None and not ex.cut:
        held = replace(result, status=Status.HOLDS, trace=None, depends_on=(), message=(
            f"from this context it fails only with {values_of(context_unknowns(result.depends_on))} "
            f"here that no run from main gives (all {s.runs} runs from main checked)"))
        return _counted(held, {"context_refuted": 1, **work})
    if ex.violation is not None:
        return _counted(replace(result, message="; ".join(m for m in (result.message, CONFIRMED_TEXT) if m)),
                        {CONFIRMED: 1, **work})
    return _counted(result, {"context_unconfirmed": 1, **work})


def _counted(result: AssertionResult, counters: dict) -> AssertionResult:
    """``result`` with ``counters`` set in its statistics."""
    return replace(result, stats=_counted_stats(result.stats, counters))


def _counted_stats(stats: Stats, counters: dict) -> Stats:
    counts = dict(stats.counters)
    counts.update(counters)
    return replace(stats, counters=tuple(sorted(counts.items())))


# seconds the plain DPOR a guided sub-check tries first may take (optimisation
# plain_first), and at most half the sub-check's own budget
PLAIN_FIRST_S = 1.0


def _plain_first(program, site, options, cancel, context):
    """A guided sub-check whose summaries nobody reads (``summary_text``
    off: the command line without ``--summaries``) first explores with plain
    DPOR for :data:`PLAIN_FIRST_S` seconds (optimisation ``plain_first``; not
    with ``max_runs``, whose counts would then be of two explorations). A
    guided run costs ten to twenty times a plain one (it learns summaries from weakest preconditions), so
    plain DPOR decides most programs sooner, and one that ran to its end met
    every deadlock on the way, so no search for findings follows. Returns
    ``(_explore's answer, None)`` when that exploration decided (ran to
    its end, found a violation, or stopped for a reason of its own), else
    ``(None, (runs, findings, seconds))`` it spent before giving way to the
    guided exploration (no run at all when its time ran out first: a slow
    machine); ``(None, None)`` when it does not apply."""
    if options.mode not in GUIDED_MODES or options.summary_text or options.max_runs is not None \
            or not options.enabled("plain_first") \
            or graph_kind(program, options.memory_model, options.count_executions):
        return None, None  # (with an execution graph the guided exploration is plain DPOR already)
    cap_s = PLAIN_FIRST_S if options.timeout_s is None else min(PLAIN_FIRST_S, options.timeout_s / 2)
    started = time.monotonic()
    plain = replace(options, mode="dpor", timeout_s=cap_s)
    finished, last, findings = _explore(program, site, plain, cancel, context)
    if not _ran_out(last.result, cancel):
        return (finished, last, findings), None
    last.explorer.close()
    s = last.result.stats
    return None, (s.runs + s.counter("deepening_runs"), findings, time.monotonic() - started)


# seconds a sub-check under C11 of a program with weak atomics first looks for
# a violation among its sequentially consistent executions (optimisation
# sc_first), and at most a quarter of the sub-check's own budget
SC_FIRST_S = 1.0
# what a violation found so says of its counterexample
SC_FIRST_TEXT = "on a sequentially consistent execution (each read sees the latest write), which C11 allows too"


def _sc_first(program, site, options, cancel, context):
    """Under C11 a program with an atomic weaker than ``seq_cst`` keeps an
    execution graph per run and explores with plain DPOR; every
    sequentially consistent execution is one C11 allows, and a bug most
    often shows on one, so a sub-check first explores as under ``sc`` (mode
    ``dpor`` for ``dpor-ag``) for up to :data:`SC_FIRST_S` seconds
    (optimisation ``sc_first``; not from a program context nor with
    ``max_runs``). Returns ``(_explore's answer, None)`` when that found a
    violation (the answer: its trace is an interleaving, which
    ``--playback`` can reproduce), else ``(None, (runs, seconds))`` it
    spent; ``(None, None)`` when it does not apply."""
    if context is not None or options.max_runs is not None or options.count_executions \
            or not options.enabled("sc_first") or graph_kind(program, options.memory_model, False) != "rc11":
        return None, None
    cap_s = SC_FIRST_S if options.timeout_s is None else min(SC_FIRST_S, options.timeout_s / 4)
    started = time.monotonic()
    mode = "dpor" if options.mode in GUIDED_MODES else options.mode
    sc = replace(options, memory_model="sc", mode=mode, timeout_s=cap_s)
    finished, last, findings = _explore(program, site, sc, cancel, context)
    if last.result.violation is not None:
        return (finished, last, findings), None
    last.explorer.close()
    s = last.result.stats
    return None, (s.runs + s.counter("deepening_runs"), time.monotonic() - started)


def _run(program, site, options, cancel, context):
    proved, every_spent = _every_command_line(program, site, options, cancel, context)
    if proved is not None:
        return proved
    if every_spent is not None:
        options = _less_time(options, every_spent[1])
    started = time.monotonic()
    found, sc_spent = _sc_first(program, site, options, cancel, context)
    if sc_spent is not None:
        options = _less_time(options, sc_spent[1])
    plain, spent = (None, None) if found is not None else _plain_first(program, site, options, cancel, context)
    if found is not None:
        finished, last, findings = found
        last.result.stats = _counted_stats(last.result.stats, {"sc_first_decided": 1})
    elif plain is not None:
        finished, last, findings = plain
        last.result.stats = _counted_stats(last.result.stats, {"plain_first_decided": 1})
    else:
        guided, findings, counted = options, [], {}
        if spent is not None:
            plain_runs, findings, plain_s = spent
            counted = {"plain_first_runs": plain_runs, "plain_first_ms": round(plain_s * 1000)}
            guided = _less_time(options, plain_s)
        finished, last, more = _explore(program, site, guided, cancel, context)
        findings = findings + more
        if counted:
            last.result.stats = _counted_stats(last.result.stats, counted)
    if sc_spent is not None:
        last.result.stats = _counted_stats(last.result.stats, {"sc_first_runs": sc_spent[0],
                                                               "sc_first_ms": round(sc_spent[1] * 1000)})
    if every_spent is not None:
        last.result.stats = _counted_stats(last.result.stats, {"every_command_line_runs": every_spent[0],
                                                               "every_command_line_ms": round(every_spent[1] * 1000)})
    ex = last.result
    complete = ex.violation is None and ex.stop is None
    # a pass that cut no thread, or found a violation, answers for the full bound
    result = replace(_verdict(program, site, last.options, ex, context), unwind=options.unwind, mode=options.mode)
    if found is not None and result.status is Status.VIOLATED:
        result = replace(result, message="; ".join(m for m in (result.message, SC_FIRST_TEXT) if m))
    if finished is not None and ex.stop in (Reason.TIMEOUT, Reason.MAX_RUNS):
        result = _deepest_finished(program, site, finished, last, result, context)
    reduction = last.explorer.reduction
    engine = last.explorer.engine
    if not reduction.visited_every_state() or (
            engine is not None and (engine.counters.get("free_waits") or engine.counters.get("free_wait_awaits"))):
        complete = False  # the search for findings must still run (a free wait meets no lost wake-up)
    summaries = getattr(reduction, "statement_summaries", None)  # mode dpor-ag
    if summaries is not None and options.summary_text:
        # within the sub-check's budget: a verdict printed late is a verdict lost to its runner
        deadline = started + options.timeout_s if options.timeout_s is not None else None
        result = replace(result, summaries=tuple(summaries(deadline=deadline)))
        # printing them is counted after the exploration's stats were taken
        result = _counted(result, {k: v for k, v in reduction.counters().items() if k.startswith("summary_simplif")})
    del reduction, summaries, engine
    last.explorer.close()
    if every_spent is not None and every_spent[2] is not None and result.status is not Status.VIOLATED:
        # the bounded model found no violation the wider one did: check the command line it stands for
        timeout = None if options.timeout_s is None else options.timeout_s - (time.monotonic() - started)
        again = _on_the_command_line(program, site, options, cancel, context, every_spent[2], timeout)
        if again is not None:
            return again
    return result, findings, complete


# seconds the exploration under every command line may take when the
# sub-check has no budget (with one: half of it); argc up to INT_MAX may
# start more threads than the bounded command line, and the bounded answer
# must still come
EVERY_COMMAND_LINE_S = 30.0
# what a proof under the model of every command line says
EVERY_COMMAND_LINE = "for every command line: argc up to INT_MAX, arguments of any length, read only as numbers"


def _every_command_line(program, site, options, cancel, context):
    """When ``main`` reads its command line only as numbers
    (:func:`~distaff.analysis.symex.arguments.read_as_numbers`), the
    sub-check first explores under the model of every command line
    (``Options.command_line_numbers``) with half its budget (optimisation
    ``every_command_line``; not from a program context): a proof there is a
    proof for every command line (with no budget, :data:`EVERY_COMMAND_LINE_S`).
    Returns ``(_run's answer, None)`` for such a proof (counted as
    ``every_command_line_proved``), else ``(None, (runs, seconds, trace))``:
    what it spent (the bounded exploration then answers: its
    counterexamples show real command lines, the smallest first) and the
    failing trace of the wider model when it had one; ``(None, None)``
    when it does not apply. (``_run`` checks that trace's command line when
    the bounded model finds no violation: :func:`_on_the_command_line`.)"""
    main = program.function(program.entry)
    if context is not None or options.command_line_numbers or not options.enabled("every_command_line") \
            or main is None or not main.params \
            or not read_as_numbers(main, options.sym_args, program.data_model.pointer_bits) or calls_main(program):
        return None, None
    started = time.monotonic()
    every = replace(options, command_line_numbers=True,
                    timeout_s=EVERY_COMMAND_LINE_S if options.timeout_s is None else options.timeout_s / 2)
    result, findings, complete = _run(program, site, every, cancel, context)
    if result.status in (Status.HOLDS, Status.UNREACHABLE):
        # (an exploration that visited every state met every finding of every command line)
        return (_counted(replace(result, unwind=options.unwind), {"every_command_line_proved": 1}), findings,
                complete), None
    failed = result.trace if result.status is Status.VIOLATED else None
    return None, (result.stats.runs, time.monotonic() - started, failed)


def _on_the_command_line(program, site, options, cancel, context, trace, timeout):
    """A violation under the model of every command line, found again by the
    bounded model on the command line its run stands for
    (:func:`~distaff.analysis.symex.arguments.rebuilt_command_line`), its
    inputs fixed (``Options.fixed_inputs``), within ``timeout`` seconds (None:
    no limit): ``_run``'s answer when that finds it (counted as
    ``every_command_line_violated``: a counterexample with a real command
    line, which ``--playback`` can run), else None."""
    if timeout is not None and timeout <= 0:
        return None
    line = rebuilt_command_line(trace.inputs)
    argc = next((i for i in trace.inputs if i.name.startswith(ARGC + "@")), None)
    if line is None or argc is None:
        return None
    n, strings = line
    where = argc.name.split("@", 1)[1]
    length = max([len(s) for s in strings] + [1])
    fixed = ((argc.name, n),) + tuple((f"argv[{k}]@{where}", int.from_bytes(s.ljust(length, b"\0"), "little"))
                                      for k, s in enumerate(strings, 1))
    bounded = replace(options, sym_args=max(n - 1, options.sym_args), sym_arg_len=max(length, options.sym_arg_len),
                      fixed_inputs=fixed, timeout_s=timeout, command_line_numbers=False,
                      optimisations=tuple(dict(options.optimisations, every_command_line=False).items()))
    result, findings, _ = _run(program, site, bounded, cancel, context)
    if result.status is not Status.VIOLATED:
        return None
    # (one command line explored: the search for findings must still run)
    return _counted(replace(result, unwind=options.unwind), {"every_command_line_violated": 1}), findings, False


def _deepest_finished(program, site, finished: _Pass, last: _Pass, result, context) -> AssertionResult:
    """The verdict when the budget ran out in a deepening pass after an
    earlier pass finished: undecided, saying how far the check got ("no
    violation within unwind 2; unwind 4 unfinished (timeout)") and, when
    that pass found no violation, with ``finished_unwind`` its bound. Never
    a "holds": the deeper pass might have found what the shallower missed."""
    earlier = _verdict(program, site, finished.options, finished.result, context)
    why = "timeout" if last.result.stop is Reason.TIMEOUT else "run limit"
    unfinished = f"unwind {last.unwind} unfinished ({why})"
    if earlier.status is Status.BOUNDED:
        return replace(result, message=f"no violation within unwind {finished.unwind}; {unfinished}",
                       finished_unwind=finished.unwind, stops=earlier.stops)
    if earlier.reason is Reason.BOUND:
        return replace(result, message=f"no run reached it within unwind {finished.unwind}; {unfinished}",
                       finished_unwind=finished.unwind, stops=earlier.stops)
    return result


def _static_budget(options: Options, cancel: CancelToken | None):
    """The budget of the static analyses a sub-check runs on the way (slices,
    reachability, a context's initial state): the sub-check's own deadline
    and cancel token, so that ``timeout_s`` and a cancel stop them too."""
    deadline = time.monotonic() + options.timeout_s if options.timeout_s else None
    if deadline is None and cancel is None:
        return None
    return Budget(deadline, cancel)


def _verdict(program, site, options, ex, context) -> AssertionResult:
    """The answer of one exploration (the three answers of
    :mod:`distaff.analysis.report`): a proof only when the bound stopped no
    thread on any path and no budget ran out."""
    s = ex.stats
    trace, reason, message, depends = None, None, "", ()
    stops = tuple(BoundStop(f, line, what, n) for f, line, what, n in ex.cut_sites)
    library = library_dependences(ex.violation_depends, program.user_externals)
    through = unsupported_on(library)
    if ex.violation is not None and through:  # the run went through C distaff does not cover
        status, reason = Status.UNKNOWN, Reason.UNSUPPORTED
        message = f"the failing run goes through what distaff does not cover: {'; '.join(through)}"
    elif ex.violation is not None and library:  # not vouched for: distaff does not model what it relies on
        status, reason, message = Status.UNKNOWN, Reason.UNMODELLED, phrase(library, True)
    elif ex.violation is not None:
        status, trace, message = Status.VIOLATED, ex.violation, ex.violation_message
        depends = ex.violation_depends
    elif ex.stop is not None:
        status, reason, message = Status.UNKNOWN, ex.stop, ex.stop_message
    elif not ex.cut:  # every execution explored: a proof
        reached = ex.reached and site.kind is not ir.AssertKind.UNREACH_CALL  # an error call reached fails
        status = Status.HOLDS if reached else Status.UNREACHABLE
    elif ex.reached:  # some run executed it (an error call: took a branch that decides it)
        status = Status.BOUNDED
        checked = s.counter("reached_paths")
        message = f"{_stopped_by(stops, options.unwind)}; checked on {checked} path{'s' if checked != 1 else ''}"
        if s.counter("thread_creation_cuts"):  # "within 5 threads"
            message += f"; within {s.counter('threads_max')} threads"
    else:  # nothing about it was checked: "not reached within the bound", undecided
        status, reason = Status.UNKNOWN, Reason.BOUND
        message = f"no run reached it: {_stopped_by(stops, options.unwind)}; a larger --unwind may reach it"
    if options.command_line_numbers and status in (Status.HOLDS, Status.UNREACHABLE) and s.counter("command_line_read"):
        message = EVERY_COMMAND_LINE  # (every command line is one of the modelled ones)
    elif status in (Status.HOLDS, Status.UNREACHABLE, Status.BOUNDED) and (
            s.counter("command_line_reached") or status is Status.UNREACHABLE and s.counter("command_line_read")):
        # every command line within the bound, not every one
        within = bound_phrase(options.sym_args, options.sym_arg_len)
        if status is Status.UNREACHABLE:
            status, reason = Status.UNKNOWN, Reason.BOUND
            message = (f"no run reached it within the argument bound ({within}); larger --sym-args or "
                       f"--sym-arg-len may reach it")
        else:
            message = f"{message}; {within}" if status is Status.BOUNDED else within
            status = Status.BOUNDED
    unsupported = [f for f in program.findings if f.kind is ir.FindingKind.UNSUPPORTED]
    if unsupported and status is Status.VIOLATED:
        met = _unsupported_on_run(program, unsupported, trace)
        if met is not None:
            status, reason, trace = Status.UNKNOWN, Reason.UNSUPPORTED, None
            message = (f"the failing run goes through what distaff does not cover: {met.message} "
                       f"(line {met.span.line})")
    if unsupported and status in (Status.HOLDS, Status.UNREACHABLE, Status.BOUNDED):
        first = unsupported[0]
        status, reason = Status.UNKNOWN, Reason.UNSUPPORTED
        message = f"the program uses what distaff does not cover: {first.message} (line {first.span.line})"
    return AssertionResult(
        id=site.id, span=site.span, text=site.text, status=status, reason=reason,
        message=message, trace=trace, stats=s, unwind=options.unwind, mode=ex.mode,
        context=context.label if context is not None else "", depends_on=depends,
        stops=stops if status is Status.BOUNDED or reason is Reason.BOUND else (),
        reached_paths=s.counter("reached_paths"),
    )


def _stopped_by(stops: tuple[BoundStop, ...], unwind: int) -> str:
    """Where the bound stopped threads, in words: ``unwind 8 stopped main's
    loop at line 33 and the recursion of walk (line 5)``."""
    def one(s: BoundStop) -> str:
        if s.what == "recursion":
            return f"the recursion of {s.function} (line {s.line})"
        if s.what.startswith(GETOPT_CUT):
            return f"{s.function}'s getopt at line {s.line} ({s.what.removeprefix(GETOPT_CUT)})"
        if s.what == "free loops":
            return f"{s.function}'s loop at line {s.line} (past {FREE_ITERATIONS:,} iterations)"
        return f"{s.function}'s {s.what} at line {s.line}"
    named = [one(s) for s in stops[:3]] + ([f"{len(stops) - 3} more"] if len(stops) > 3 else [])
    if not named:
        return f"unwind {unwind} stopped a thread"
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"unwind {unwind} stopped {listed}"


def _unsupported_on_run(program: ir.Program, unsupported, trace):
    """The first unsupported construct inside a function the run executed (a
    step of the trace lies in that function), or outside every function (a
    declaration, such as a thread-local variable modelled as a shared one,
    whose approximation every run inherits), or None: only a run that stays
    clear of them is a counterexample we can vouch for."""
    for f in unsupported:
        inside = [fn for fn in program.functions if span_within(f.span, fn.span)]
        if not inside:
            return f
        for fn in inside:
            if any(span_within(s.span, fn.span) for s in trace.steps):
                return f
    return None


def undecided(site: ir.AssertionSite, options: Options, reason: Reason, message: str,
               context: Context | None = None) -> AssertionResult:
    return AssertionResult(
        id=site.id, span=site.span, text=site.text, status=Status.UNKNOWN, reason=reason, message=message,
        unwind=options.unwind, mode=options.mode, context=context.label if context is not None else "",
    )


def check_findings(program: ir.Program, options: Options, cancel: CancelToken | None = None,
                   context: Context | None = None) -> tuple[FindingsSearch, list[Finding]]:
    """Explore a program without assertions for deadlocks and run-time errors,
    within ``options.timeout_s`` (the search's own budget, which check()
    sets): how the search ended, and what it found (all of it, however it
    ended)."""
    start = time.monotonic()
    _, last, findings = _explore(program, None, options, cancel, context)
    last.explorer.close()
    ex = last.result
    took = round(time.monotonic() - start, 3)
    if ex.stop is None:
        end, message = SearchEnd.FINISHED, "explored every run" + (" within the bound" if ex.cut else "")
    elif ex.stop is Reason.CANCELLED:
        end, message = SearchEnd.CANCELLED, "cancelled"
    else:
        end, message = SearchEnd.CUT, f"stopped after {took:g} s: {ex.stop_message or ex.stop.value}"
    return FindingsSearch(end, message, ex.stats.runs, took, options.timeout_s, ex.cut), findings


__all__ = ["check_assertion", "check_findings", "deepening_bounds", "explorer_for", "reduction_for", "run",
           "undecided"]
