"""The choice of what to explore at a pivot point, behind a small protocol.

The explorer (:mod:`distaff.analysis.explore.explorer`) owns the depth-first search;
a :class:`Reduction` decides, at each pivot point, which options to explore,
and may add options later (DPOR's backtrack sets) or prune a run
(assertion-guided pruning, slicing). The explorer calls:

* ``start(explorer)`` once, before the first run;
* ``on_pivot(node)`` when a pivot point is met: returns the option indices to
  explore first (into ``node.pivot.options``); an empty list prunes the run
  there (a *pruned run*, README "Runs and statistics"). It may also fill ``node.store``,
  which ``new_store()`` made when the explorer made the node;
* ``on_event(event, state)`` after every scheduling step of the current run
  (an :class:`~distaff.analysis.symex.state.Event`: thread, accesses with their
  possibly symbolic addresses, synchronizations); ``explorer.stack`` holds
  the nodes of the current run, each with ``event_index`` (the number of
  events before it), so a DPOR can find the interleaving node before an
  event and add to its ``todo``;
* ``next_choice(node)`` when backtracking to ``node``: the next option to
  explore, or None when the node is finished (default: the first of
  ``node.todo`` not yet in ``node.done``);
* ``on_backtrack(node)`` when ``node`` is finished and leaves the stack
  (summaries are merged here: ``node.store`` has what the runs below left);
* ``on_run_end(leaf, state)`` when a run ends (any leaf, including pruned and
  infeasible ones, before backtracking).

``may_choose(node)``, which the explorer does not call, says whether
``next_choice`` may still give an option at a node on the stack (mode dpor-ag
asks it to know when the exploration only unwinds).

Three attributes configure the engine: ``pivot_on_single`` (a scheduling
point with one enabled thread is a node too, e.g. to check a summary there),
``record_effects`` (every executed instruction leaves an
:class:`~distaff.analysis.symex.state.Effect` in ``state.effects``, from which
weakest preconditions can be computed backwards) and ``silent_stores`` (a
store of what the memory holds already is recorded as a read: see
:class:`~distaff.analysis.symex.engine.Engine`; only for a reduction whose
dependence is read off the run it is in, not carried to other runs). Each state also offers
``control_key()``, the global control state for a summary table.

:class:`Baseline` explores every option: Algorithm 1 of the
assertion-guided paper. The table from a mode's name to its reduction lives
where modes are chosen (:func:`distaff.analysis.subcheck.reduction_for`), so new
reductions plug in without touching the explorer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from distaff.analysis.record import Record
from distaff.analysis.symex.pivots import Leaf, Pivot, PivotKind
from distaff.analysis.symex.state import Event, State


@dataclass(eq=False, slots=True, init=False)
class Node(Record):
    """A pivot point of the current run. ``state`` is the snapshot the options
    are taken from (never mutated); ``depth`` its index in the explorer's stack;
    ``event_index`` how many scheduling steps the run had made before it;
    ``todo``/``done`` option indices; ``store`` belongs to the reduction
    (what its ``new_store()`` made)."""

    pivot: Pivot
    state: State
    depth: int
    event_index: int
    todo: list = field(default_factory=list)
    done: list = field(default_factory=list)
    store: Any = None

    def __init__(self, pivot: Pivot, state: State, depth: int, event_index: int, todo: list | None = None,
                 done: list | None = None, store: Any = None) -> None:
        self.pivot = pivot
        self.state = state
        self.depth = depth
        self.event_index = event_index
        self.todo = [] if todo is None else todo
        self.done = [] if done is None else done
        self.store = store

    @property
    def kind(self) -> PivotKind:
        return self.pivot.kind

    @property
    def options(self) -> range:
        return range(len(self.pivot.options))

    def thread_of(self, index: int) -> int:
        """The thread an interleaving option schedules."""
        return self.pivot.options[index][1].payload

    def option_for_thread(self, tid: int) -> int | None:
        for k, (_, o) in enumerate(self.pivot.options):
            if o.payload == tid:
                return k
        return None


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed outside the compiled core
class Reduction:
    """Explore everything (the protocol's defaults); subclass to reduce."""

    # (ClassVar: the compiled core reads a subclass's own value, as Python does)
    name: ClassVar[str] = "baseline"
    pivot_on_single: ClassVar[bool] = False
    record_effects: ClassVar[bool] = False
    silent_stores: ClassVar[bool] = False
    # the engine marks rounds that changed nothing for on_event (Event.ghost_from)
    ghost_rounds: ClassVar[bool] = False
    # the engine parks a thread whose round failed, for the rest of the run (symex/awaits.park)
    park_futile: ClassVar[bool] = False

    def start(self, explorer) -> None:
        self.explorer = explorer

    def new_store(self) -> Any:
        """What the reduction keeps at a new node (its ``store``)."""
        return {}

    def on_pivot(self, node: Node) -> list[int]:
        return list(node.options)

    def on_event(self, event: Event, state: State) -> None:
        pass

    def next_choice(self, node: Node) -> int | None:
        while node.todo:
            c = node.todo.pop(0)
            if c not in node.done:
                return c
        return None

    def may_choose(self, node: Node) -> bool:
        """May :meth:`next_choice` still give an option at ``node``? (True
        whenever it would; it may also say True when it then gives none.)"""
        return any(c not in node.done for c in node.todo)

    def on_backtrack(self, node: Node) -> None:
        pass

    def on_run_end(self, leaf: Leaf, state: State) -> None:
        pass

    def visited_every_state(self) -> bool:
        """After a finished exploration: did it reach every state a run of
        the program can (so it met every deadlock and stuck thread)? A
        reduction that skips states it knows hold no failure of its
        assertion says no."""
        return True

    def counters(self) -> dict[str, int]:
        """The reduction's own counts, merged into Stats.counters."""
        return {}


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed outside the compiled core
class Baseline(Reduction):
    """Algorithm 1: every enabled thread at an interleaving pivot, every
    feasible outcome at a branch pivot."""
