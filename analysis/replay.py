"""Replaying a counterexample deterministically.

``replay(program, trace, options)`` re-executes the run a
:class:`~distaff.analysis.report.Trace` describes: every fresh symbol named in
``trace.inputs`` is fixed to its value as it is created, every scheduling
point takes the next thread of ``trace.schedule``, and every fork the engine
could not decide by constant folding takes the next outcome of
``trace.choices`` (no solver is asked which way to go). The run's steps are
rendered again under a model of the final path condition, so the result equals
the original trace whenever the printed values depend on the inputs only
(memory reached through symbolic array indices before it was written is the
exception). Replay raises ValueError when the trace does not fit the program.

The target assertion is ``target`` (an ``AssertionSite.id``) or, when not
given, the assertion whose span is that of the trace's last step; other
assertions are assumed, as during the check.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis import ir
from distaff.analysis.context.initial import ContextStart
from distaff.analysis.report import Trace
from distaff.analysis.symex.arguments import bound_for
from distaff.analysis.symex.engine import Engine
from distaff.analysis.symex.pivots import Budget, EngineLimit, Leaf, LeafKind, Pivot
from distaff.analysis.symex.solver import SolverStats, build_solver
from distaff.analysis.symex.trace import finish_trace
from distaff.analysis.symex.values import Values


def replay(program: ir.Program, trace: Trace, options, target: str | None = None, context=None) -> Trace:
    run = replay_run(program, trace, options, target, context)
    return finish_trace(run.engine, run.state, run.leaf)


@dataclass(frozen=True)
class Run:
    """A replayed run: the engine, its final state (the record of the run in
    ``state.steps``) and the leaf it ended at."""

    engine: Engine
    state: object
    leaf: Leaf


def replay_run(program: ir.Program, trace: Trace, options, target: str | None = None, context=None,
               observer=None) -> Run:
    """Re-execute ``trace`` (see the module docstring) and keep the run;
    ``observer(event, state)`` is called as each event of it ends."""
    if target is None and trace.steps:
        last = trace.steps[-1].span
        for site in program.assertions():
            if site.span == last:
                target = site.id
    values = Values()
    solver = build_solver(options, values, SolverStats())
    start = ContextStart(program, context) if context is not None else None
    E = Engine(program, values, solver, options.unwind, Budget(), target=target,
               spurious_wakeups=options.spurious_wakeups, concrete_loops=options.enabled("concrete_loops"),
               counted_loops=options.enabled("counted_loops"),
               thread_cuts=options.enabled("thread_cuts"), awaits=options.enabled("awaits"),
               guard_waits=options.enabled("guard_waits"),
               command_line=bound_for(trace.inputs, options.sym_args, options.sym_arg_len) + (False,),
               replay=(iter(trace.schedule), iter(trace.choices)), free_waits=trace.free_waits,
               fixed_inputs={i.name: i.value for i in trace.inputs},
               context_hooks=start.hooks if start is not None else None, observer=observer)
    st = E.initial_state() if start is None else start(E)  # the same state the check started from
    try:
        out = E.advance(st)
    except EngineLimit as e:
        raise ValueError(f"the trace does not fit the program: {e}") from None
    if isinstance(out, Pivot):
        raise ValueError("the trace does not fit the program: a decision is missing")
    if out.kind is LeafKind.INFEASIBLE:
        raise ValueError("the trace does not fit the program: its inputs make the run infeasible")
    return Run(E, st, out)


__all__ = ["replay", "replay_run", "Run", "Leaf"]
