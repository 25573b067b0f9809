"""The depth-first explorer: Algorithm 1's driver loop.

:class:`Explorer` runs one sub-check: it builds the z3 context, the solver
chain and the engine, then repeats "advance the current run to its next pivot
or leaf; at a pivot push a node and take an option; at a leaf count the run
and backtrack to the newest node with an option left". Which options are
taken is the :class:`~distaff.analysis.explore.reduction.Reduction`'s business.

Runs are counted as the README's "Runs and statistics" says: a *full run* ends at a leaf (normal end,
violation of the target, deadlock, bound cut); a *pruned run* ends where the
reduction pruned it. Paths ending in a run-time error or an infeasible assume
are not runs; they are counted as ``error_paths`` and ``infeasible_paths``.

Budgets: ``options.timeout_s`` (wall time of this sub-check), ``options.max_runs``
and the cancel token. The engine polls them between instructions and around
solver calls; the process's watcher thread (:mod:`distaff.analysis.explore.watcher`)
interrupts a z3 call in progress (``Context.interrupt``) so that a long
query also stops within a second.
When a budget runs out, the result carries the :class:`~distaff.analysis.report.Reason`.
"""

from __future__ import annotations

import os
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

import z3
from mypy_extensions import mypyc_attr

from distaff.analysis import ir
from distaff.analysis.executor import out_of_memory
from distaff.analysis.explore.races import RaceDetector, exploration_options, watches_races
from distaff.analysis.explore.reduction import Node, Reduction
from distaff.analysis.explore.watcher import WATCHER
from distaff.analysis.record import Record
from distaff.analysis.report import Finding, FindingKind, Reason, Stats, Trace
from distaff.analysis.static.guards import guards
from distaff.analysis.static.symmetry import interchangeable_sites
from distaff.analysis.symex.awaits import in_wait
from distaff.analysis.symex.c11 import graph_kind, race_message
from distaff.analysis.symex.twins import SymmetryBroken
from distaff.analysis.symex.engine import Engine
from distaff.analysis.symex.heap import keep_heap, quiet_collector
from distaff.analysis.symex.pivots import (
    FULL_RUN_LEAVES, Budget, BudgetExpired, EngineLimit, Leaf, LeafKind,
)
from distaff.analysis.symex.solver import SolverChain, SolverStats, SolverUnknown, build_solver
from distaff.analysis.symex.state import State
from distaff.analysis.symex.trace import finish_trace
from distaff.analysis.symex.unmodelled import depends_on, library_dependences, phrase
from distaff.analysis.symex.values import Values


@dataclass(init=False)
class ExploreResult(Record):
    """What one sub-check found. ``violation``: the target's counterexample
    (and the leaf's message). ``reached``: the target was executed on some
    feasible path. ``stop``: why exploration ended early (None when it
    finished), with ``stop_message``. ``cut_sites``: where the unwind bound
    stopped a thread or a run on some path, whatever that path's end (a run
    that blocked or was dropped at a failed assumption after a thread was
    stopped counts): ``(function, line, what, times)``; empty exactly when
    the bound stopped nothing, the exploration's part of a proof.
    ``symmetry_broken``: a run told twins apart (:mod:`distaff.analysis.symex.twins`);
    nothing of this exploration counts, it is to be run again without them."""

    violation: Trace | None = None
    violation_message: str = ""
    # body-less functions the violation's run depends on (distaff.analysis.symex.unmodelled)
    violation_depends: tuple[str, ...] = ()
    reached: bool = False
    stop: Reason | None = None
    stop_message: str = ""
    findings: list = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    mode: str = "baseline"
    cut_sites: tuple = ()
    symmetry_broken: bool = False

    def __init__(self, violation: Trace | None = None, violation_message: str = "",
                 violation_depends: tuple[str, ...] = (), reached: bool = False, stop: Reason | None = None,
                 stop_message: str = "", findings: list | None = None, stats: Stats | None = None,
                 mode: str = "baseline", cut_sites: tuple = (), symmetry_broken: bool = False) -> None:
        self.violation = violation
        self.violation_message = violation_message
        self.violation_depends = violation_depends
        self.reached = reached
        self.stop = stop
        self.stop_message = stop_message
        self.findings = [] if findings is None else findings
        self.stats = Stats() if stats is None else stats
        self.mode = mode
        self.cut_sites = cut_sites
        self.symmetry_broken = symmetry_broken

    @property
    def cut(self) -> bool:
        """The bound stopped a thread or a run on some path."""
        return bool(self.cut_sites)


@mypyc_attr(native_class=False)  # (as symex/pivots.py's exceptions: see README, "compiled core")
class MaxRunsReached(Exception):
    pass


class Explorer:
    """One exploration of ``program`` with ``target`` (an
    :class:`~distaff.analysis.ir.AssertionSite`, or None to look for findings only),
    pruned by ``reduction``. ``initial`` builds the first state from the
    engine (a program context's, :mod:`distaff.analysis.context.initial`),
    whose ``context_hooks`` the engine is made with; None starts at ``main``.
    :func:`distaff.analysis.subcheck.explorer_for` builds an explorer for a
    mode and a context."""

    def __init__(self, program: ir.Program, options, target: ir.AssertionSite | None, cancel,
                 reduction: Reduction, initial: Callable[[Engine], State] | None = None, context_hooks=None):
        self.program = program
        self.options = options = exploration_options(options)
        self.target = target
        self.cancel = cancel
        self.initial = initial
        self.context_hooks = context_hooks
        # (None once closed)
        self.reduction: Reduction | None = reduction
        self.values: Values | None = None
        self.solver: SolverChain | None = None
        self.engine: Engine | None = None
        self.stack: list[Node] = []
        self.full_runs = 0
        self.pruned_runs = 0
        self.bound_cuts = 0
        self.reached_paths = 0  # paths, runs or not, that executed the target (Engine.reach)
        self.counters: dict[str, int] = {}
        self.result = ExploreResult(mode=self.reduction.name)
        self._finding_keys: set = set()
        self._vouchless: dict = {}  # finding key -> the UNSUPPORTED finding a tainted run gave
        self.done = False
        self.races: RaceDetector | None = None
        # the executions the runs made (execution graphs: State.weak), ended and blocked
        self.executions: set = set()
        self.blocked_executions: set = set()
        self._graph_races: set = set()  # span pairs a graph showed racing, reported once

    # ------------------------------------------------------------------

    def run(self) -> ExploreResult:
        t0 = time.monotonic()
        opts = self.options
        self.deadline = t0 + opts.timeout_s if opts.timeout_s else None
        keep_heap()  # (once per process) making the context costs a fifth
        self.values = Values()  # its z3 context is made with the first term
        self.sstats = SolverStats()
        timeout_ms = int(opts.timeout_s * 1000) + 1 if opts.timeout_s else None
        self.solver = build_solver(opts, self.values, self.sstats, timeout_ms)
        self.budget = Budget(self.deadline, self.cancel)
        graph = graph_kind(self.program, opts.memory_model, opts.count_executions)
        # with a graph, the optimisations that reason about memory as one
        # sequentially consistent store (silent stores, commuting updates,
        # twins) are off: they say nothing of what a read may see. Awaits stay:
        # a round that read an older value than memory holds is CHANGED (the
        # read of the newer one is another choice of the same read), one that
        # read the latest and is UNCHANGED awaits a write that becomes latest
        plain = not graph
        races = watches_races(opts) and plain
        E = self.engine = Engine(self.program, self.values, self.solver, opts.unwind, self.budget,
                                 target=self.target.id if self.target else None,
                                 record_effects=self.reduction.record_effects,
                                 park_blocked=opts.enabled("park_blocked"),
                                 spurious_wakeups=opts.spurious_wakeups,
                                 concrete_loops=opts.enabled("concrete_loops"),
                                 counted_loops=opts.enabled("counted_loops"),
                                 awaits=opts.enabled("awaits"),
                                 thread_cuts=opts.enabled("thread_cuts"),
                                 silent_stores=(self.reduction.silent_stores and opts.enabled("silent_stores")
                                                and not opts.report_races and plain),
                                 pivot_on_single=self.reduction.pivot_on_single,
                                 observer=self.reduction.on_event, placed_accesses=races,
                                 context_hooks=self.context_hooks, guards=self._guards(),
                                 twin_sites=self._twin_sites() if plain else frozenset(),
                                 free_waits=opts.enabled("free_waits") and self.target is not None,
                                 ghost_rounds=self.reduction.ghost_rounds and opts.enabled("ghost_rounds"),
                                 park_futile=self.reduction.park_futile and opts.enabled("park_futile"),
                                 commuting_rmws=opts.enabled("commuting_rmws") and plain,
                                 guard_waits=opts.enabled("guard_waits"), graph=graph,
                                 command_line=(opts.sym_args, opts.sym_arg_len, opts.command_line_numbers),
                                 fixed_inputs=dict(opts.fixed_inputs) if opts.fixed_inputs else None)
        # (a graph finds the races of its runs itself, with C11's happens-before)
        self.races = RaceDetector(E, opts.enabled("race_prefix_reuse")) if races else None
        if graph:  # (the statistics say when runs kept a graph, and of which model)
            self.count(f"graph_{graph}")
        s0 = time.monotonic()
        self.reduction.start(self)
        self.static_s = time.monotonic() - s0
        watched = self.deadline is not None or self.cancel is not None
        if watched:
            WATCHER.watch(self)
        try:
            s0 = time.monotonic()
            state = self._initial_state()
            self.static_s += time.monotonic() - s0
            with quiet_collector():
                self._loop(state)
        except BudgetExpired as out:
            self._stopped(Reason.CANCELLED if out.args[0] == "cancelled" else Reason.TIMEOUT)
        except MaxRunsReached:
            self._stopped(Reason.MAX_RUNS, f"stopped after {self.full_runs + self.pruned_runs} runs")
        except MemoryError:
            self._stopped(Reason.MEMORY, "memory limit reached")
        except (SolverUnknown, z3.Z3Exception) as gave_up:
            why = self._interrupt_reason() or (Reason.MEMORY if out_of_memory(str(gave_up)) else None)
            self._stopped(why or Reason.SOLVER, "" if why else f"the solver gave up: {gave_up}")
        except EngineLimit as limit:
            self._stopped(Reason.UNSUPPORTED, str(limit))
        except SymmetryBroken as broken:  # the caller explores again without twins
            self.result.symmetry_broken = True
            self._stopped(Reason.UNSUPPORTED, f"twins told apart: {broken}")
        except RecursionError:
            self._stopped(Reason.UNSUPPORTED, "expression too deep")
        except Exception as e:  # noqa: BLE001 - an engine bug must not take the caller down
            if os.environ.get("DISTAFF_DEBUG"):
                traceback.print_exc()
            self._stopped(Reason.CRASHED, f"internal error: {type(e).__name__}: {e}")
        finally:
            if watched:
                WATCHER.unwatch(self)
        r = self.result
        r.reached = E.reached
        r.cut_sites = tuple(sorted((f, line, what, n) for (f, line, what), n in E.cut_sites.items()))
        if self.races is not None:
            r.findings.extend(self.races.flush())
        counters = dict(self.counters)
        for k, v in list(E.counters.items()) + list(self.sstats.counters.items()):
            counters[k] = counters.get(k, 0) + v
        for k, v in self.reduction.counters().items():
            counters[k] = counters.get(k, 0) + v
        if self.reached_paths:
            counters["reached_paths"] = self.reached_paths
        if opts.count_executions and E.graph:
            counters["executions"] = len(self.executions)
            counters["blocked_executions"] = len(self.blocked_executions)
        if self.races is not None:
            for k, v in self.races.counters.items():
                counters[k] = counters.get(k, 0) + v
        r.stats = Stats(
            runs=self.full_runs + self.pruned_runs,
            full_runs=self.full_runs,
            pruned_runs=self.pruned_runs,
            bound_cuts=self.bound_cuts,
            solver_calls=self.sstats.calls,
            solver_time_s=round(self.sstats.time_s, 6),
            time_s=round(time.monotonic() - t0, 6),
            counters=tuple(sorted(counters.items())),
            steps=E.steps,
            events=E.events,
            static_time_s=round(self.static_s, 6),
        )
        return r

    def _twin_sites(self) -> frozenset:
        """Create sites whose threads are explored up to their permutation
        (optimisation ``symmetry``): in every mode but the baseline, which
        explores every interleaving, and not when reporting races."""
        opts = self.options
        if not opts.enabled("symmetry") or self.reduction.name == "baseline" or opts.report_races:
            return frozenset()
        return interchangeable_sites(self.program)

    def _guards(self) -> dict[str, frozenset[int]] | None:
        """The branches that execute the target when it is an error call."""
        t = self.target
        if t is None or t.kind is not ir.AssertKind.UNREACH_CALL:
            return None
        return guards(self.program, t)

    def poke(self) -> None:
        """(From the watcher thread, every 50 ms while the exploration runs.)
        Interrupt the z3 call in progress once the budget is gone: again at
        every poke, since an interrupt only reaches the call running when it
        is sent, and some of z3's phases look at it late."""
        if self._interrupt_reason() is not None:
            values = self.values
            if values is not None and values.has_terms:
                values.ctx.interrupt()

    def close(self) -> None:
        """Let go of the exploration's engine, reduction and solver once its
        result (and, in mode dpor-ag, the summaries) have been read, so that
        its terms and z3 context are freed now. Through the cycles between
        the engine's observer, the reduction and this explorer they waited
        for a garbage collection, which deleted the context (milliseconds)
        inside whatever check was running then. (A context is not handed to
        the next exploration: z3's term ids, and with them the models it
        finds and the order simplified summaries print in, would then depend
        on what ran before; the command line and the editor must agree.)"""
        engine = self.engine
        if engine is not None:
            engine.observer = None
        if self.reduction is not None:
            self.reduction.explorer = None
        self.values = self.solver = self.engine = self.races = self.reduction = None
        self.initial = self.context_hooks = None  # a program context's state may hold terms too
        self.stack = []

    def _interrupt_reason(self) -> Reason | None:
        if self.cancel is not None and self.cancel.cancelled:
            return Reason.CANCELLED
        if self.deadline is not None and time.monotonic() > self.deadline:
            return Reason.TIMEOUT
        return None

    def _stopped(self, reason: Reason, message: str = "") -> None:
        if self.result.violation is not None:
            return
        self.result.stop = reason
        self.result.stop_message = message or reason.value

    def _initial_state(self) -> State:
        if self.initial is None:
            return self.engine.initial_state()
        if self.engine.graph == "rc11":
            # a context's state is memory values; what each thread may still
            # read under C11 depends on the writes before it, which it does not keep
            raise EngineLimit("check from here reads weak atomics as C11 does only from main: check from main, "
                              "or with --memory-model sc")
        return self.initial(self.engine)

    def count(self, name: str, n: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + n

    # ------------------------------------------------------------------
    # the depth-first search

    def _loop(self, state: State | None) -> None:
        E, R = self.engine, self.reduction
        assert E is not None and R is not None
        while state is not None:
            out = E.advance(state)
            if isinstance(out, Leaf):
                self._leaf(out, state)
                if self.done:
                    return
                state = self._backtrack()
                continue
            node = Node(out, state, len(self.stack), state.event_count, store=R.new_store())
            choices = R.on_pivot(node)
            if not choices:
                self._leaf(Leaf(LeafKind.PRUNED, span=out.span), state)
                if self.done:
                    return
                state = self._backtrack()
                continue
            node.todo = list(choices)
            self.stack.append(node)
            c = R.next_choice(node)
            state = self._take(node, c) if c is not None else self._backtrack()

    def _take(self, node: Node, choice: int) -> State:
        node.done.append(choice)
        s = node.state.clone()
        self.engine.resume(s, node.pivot, choice)
        return s

    def _backtrack(self) -> State | None:
        R = self.reduction
        limit = self.options.max_runs
        while self.stack:
            node = self.stack[-1]
            c = R.next_choice(node)
            if c is not None:
                if limit is not None and self.full_runs + self.pruned_runs >= limit:
                    raise MaxRunsReached()
                return self._take(node, c)
            R.on_backtrack(node)
            self.stack.pop()
        return None

    def _leaf(self, leaf: Leaf, state: State) -> None:
        k = leaf.kind
        if len(state.threads) > self.counters.get("threads_max", 0):
            self.counters["threads_max"] = len(state.threads)
        if self.races is not None:
            self.result.findings.extend(self.races.on_run(state))
        g = state.weak
        if g is not None:
            if k in (LeafKind.END, LeafKind.STOPPED, LeafKind.VIOLATION):
                self.executions.add(g.signature())
            elif k is LeafKind.DEADLOCK:
                self.blocked_executions.add(g.signature())
            if g.races:
                self._race_findings(g.races, state, leaf)
        if k in FULL_RUN_LEAVES:
            self.full_runs += 1
        elif k is LeafKind.PRUNED:
            self.pruned_runs += 1
        if state.reached:  # (a path dropped later, at a failed assumption, checked it too)
            self.reached_paths += 1
        elif k is LeafKind.ERROR:
            self.count("error_paths")
        elif k is LeafKind.INFEASIBLE:
            self.count("infeasible_paths")
        if k is LeafKind.CUT or (k in FULL_RUN_LEAVES and state.has_cut()):
            self.bound_cuts += 1
        if k is LeafKind.VIOLATION:
            self.result.violation = finish_trace(self.engine, state, leaf)
            self.result.violation_message = leaf.message
            self.result.violation_depends = depends_on(state)
            self.done = True
        elif k in (LeafKind.ERROR, LeafKind.DEADLOCK):
            # a deadlock is reported once per place, whichever threads are stuck there;
            # one a run distaff cannot vouch for showed gives way to one a real run shows
            key = (k, leaf.span) if k is LeafKind.DEADLOCK else (k, leaf.span, leaf.message)
            if key not in self._finding_keys:
                finding = self._finding(leaf, state)
                if finding.kind is not FindingKind.UNSUPPORTED:
                    self._finding_keys.add(key)
                    self.result.findings.append(finding)
                    vouchless = self._vouchless.pop(key, None)
                    if vouchless is not None:
                        self.result.findings.remove(vouchless)
                elif key not in self._vouchless:
                    self._vouchless[key] = finding
                    self.result.findings.append(finding)
        self.reduction.on_run_end(leaf, state)

    def _race_findings(self, races, state: State, leaf: Leaf) -> None:
        """DATA_RACE findings for the races an execution graph recorded
        (:mod:`distaff.analysis.symex.weak`), each pair of statements once."""
        for race in races:
            key = frozenset((race.first, race.second))
            if key in self._graph_races:
                continue
            self._graph_races.add(key)
            self.count("c11_races")
            self.result.findings.append(Finding(FindingKind.DATA_RACE, race.second,
                                                race_message(self.engine, state, race),
                                                finish_trace(self.engine, state, leaf)))

    def _finding(self, leaf: Leaf, state: State) -> Finding:
        """A run-time error or deadlock. One whose run depends on a library
        function distaff does not model is not vouched for: it becomes an
        UNSUPPORTED finding saying so."""
        kind = FindingKind.ERROR if leaf.kind is LeafKind.ERROR else FindingKind.DEADLOCK
        if kind is FindingKind.DEADLOCK and state.awaiting and any(
                t.phase == "await" and not in_wait(t) for t in state.threads):  # some thread spins forever
            kind = FindingKind.STUCK
        span = leaf.span or ir.NO_SPAN
        depends = depends_on(state)
        library = library_dependences(depends, self.program.user_externals)
        if library:  # no counterexample to show: no model of the path condition is asked for
            words = kind.value if kind in (FindingKind.DEADLOCK, FindingKind.STUCK) else leaf.message
            return Finding(FindingKind.UNSUPPORTED, span, f"{words} may happen, but it {phrase(library, True)}")
        return Finding(kind, span, leaf.message, finish_trace(self.engine, state, leaf), depends)




