"""What a check explores and how: its options, the modes and optimisations
they name, and the token that cancels it.

These are the vocabulary every layer shares (the explorer reads the bounds
and switches, the check its budgets and workers, the CLI and the language
server fill them in), so they sit low, beside the IR.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from distaff.analysis.ir import DataModel

MODES = ("baseline", "dpor", "dpor-ag", "rf")
# the modes that prune by the assertion (summaries, slicing) on top of their DPOR
GUIDED_MODES = ("dpor-ag",)
# the modes whose DPOR orders two blind writes only once a read observes the
# second (reads-from exploration, distaff.analysis.explore.dpor). Not with
# assertion-guided pruning: a summary and the races it stands in for are
# learned from the runs below a node, and with observers which pairs of writes
# those runs must reverse depends on reads that a pruned run never makes (a
# first rf-ag said "holds" of violated assertions: the differential test's
# regression rf_ag_pruned_run_hides_the_observer.c)
OBSERVER_MODES = ("rf",)
# the address-space cap (MB) of a sub-check's process by default, on the command
# line and in the language server (``Options.max_memory_mb`` 0: none)
DEFAULT_MEMORY_MB = 2048
# seconds the search for findings may take by default (Options.findings_timeout_s)
DEFAULT_FINDINGS_TIMEOUT_S = 10.0
# main's symbolic command line by default: 2 arguments of at most 8 bytes
DEFAULT_SYM_ARGS = 2
DEFAULT_SYM_ARG_LEN = 8
UNREACH_CALL = "unreach-call"  # the one property Options.property knows
MEMORY_MODELS = ("sc", "rc11")

# The optimisations Options.optimisations switches off by name, each counted
# in the statistics where it acts (a test keeps this list equal to the names
# the code asks Options.enabled about).
OPTIMISATIONS = frozenset({
    "concrete_loops", "deepening", "park_blocked", "race_prefix_reuse", "thread_cuts", "awaits",  # engine, check
    # loops counted in registers around calls and synchronization, or in memory, run free (symex.engine);
    # off in the deepening's passes below the full bound, where bounding them finds a shallow bug first
    "counted_loops",
    "free_waits",  # a condition wait returns at the schedule's choice (assertion sub-checks, distaff.analysis.symex.sync)
    "guard_waits",  # a wait in `while (guard) wait` awaits a change of the guard from its first call (symex.awaits)
    "symmetry",  # twins: threads explored up to their permutation (distaff.analysis.symex.twins)
    "solver_cache", "solver_incremental", "solver_independence",  # solver layers
    "sleep_sets", "wakeup_trees", "dpor_order", "dpor_step_index", "footprint_memo", "silent_stores", "ghost_rounds",  # DPOR
    "park_futile",  # DPOR: a thread whose round failed (a compare-and-swap) is parked for the rest of the run
    "commuting_rmws",  # DPOR: atomic adds whose old value is unused commute (distaff.analysis.symex.rmw)
    "summaries", "rvar_wvar", "slicing", "unread_summaries", "instance_memo",  # assertion-guided
    "cut_summaries",  # assertion-guided: a run a bound cut vouches for its bound (distaff.analysis.summaries.guided)
    "prune_check_limit",  # assertion-guided: a pruning check stops at a resource limit of z3's (summaries.guided)
    "plain_first",  # dpor-ag without summary text: plain DPOR first, for up to a second (distaff.analysis.subcheck)
    "sc_first",  # C11 with weak atomics: a violation looked for under sequential consistency first (subcheck)
    # an answer bounded by the command line alone, of a program that reads it only as numbers, is
    # explored again under the model of every command line (distaff.analysis.symex.arguments)
    "every_command_line",
    # programs that start threads in a loop: the thread-modular prover (distaff.analysis.modular)
    "thread_modular",
    "context_confirm",  # check from here: a check from main confirms or refutes a possible violation
})


@dataclass(frozen=True, slots=True)
class Options:
    """How to check. ``timeout_s`` and ``max_runs`` are per assertion,
    ``total_timeout_s`` for the whole check; None is no limit. ``optimisations`` switches single optimisations off by name
    (e.g. ``{"solver_cache": False}``); every one is on by default and counted
    in the statistics' counters.

    The default mode is ``dpor-ag``: the same verdicts as ``dpor`` (the
    differential test compares every mode with a concrete oracle) in fewer
    runs."""

    mode: str = "dpor-ag"
    unwind: int = 8
    timeout_s: float | None = None
    # wall time of the whole check (every sub-check and the findings search):
    # each sub-check gets what is left when it starts; None is no limit
    total_timeout_s: float | None = None
    findings: bool = True  # the search for deadlocks and run-time errors (see check)
    # wall time of that search, from its start (it starts beside the last
    # sub-checks or after them); None is no limit but total_timeout_s
    findings_timeout_s: float | None = DEFAULT_FINDINGS_TIMEOUT_S
    # "unreach-call": the error calls are one property, as in SV-COMP (see check)
    property: str | None = None
    max_runs: int | None = None
    data_model: DataModel = DataModel.LP64
    workers: int = 1
    optimisations: tuple[tuple[str, bool], ...] = ()
    report_races: bool = False
    scheduler: str | None = None  # a Dask scheduler's address: sub-checks run there (distaff.analysis.cluster)
    # a condition wait may also return without a signal, as POSIX allows (any
    # number of times, but not again when the last one changed nothing:
    # distaff.analysis.symex.awaits); False: only when signalled
    spurious_wakeups: bool = True
    # print the predicate summaries learned (mode dpor-ag) as C, for the hover
    # and the JSON; printing costs, so a caller that shows neither turns it off
    summary_text: bool = True
    # address-space limit (MB) of the process a sub-check runs in; 0 is none.
    # A sub-check over it stops, undecided for Reason.MEMORY (see analysis/executor)
    max_memory_mb: int = 0
    # how memory is read: "sc" (sequentially consistent) or "rc11" (C11 as RC11
    # repairs it: distaff.analysis.symex.weak)
    memory_model: str = "sc"
    # explore every execution whatever the assertions and count them (litmus tests)
    count_executions: bool = False
    # main's command line (distaff.analysis.symex.arguments): at most
    # ``sym_args`` arguments after the program's name, each a string of at most
    # ``sym_arg_len`` symbolic bytes; an answer that relies on them says so
    sym_args: int = DEFAULT_SYM_ARGS
    sym_arg_len: int = DEFAULT_SYM_ARG_LEN
    # the model of a command line read only as numbers, whatever its length
    # (set by the sub-check that tries to prove for every command line:
    # distaff.analysis.symex.arguments.read_as_numbers)
    command_line_numbers: bool = False
    # inputs fixed by name (symbol name, value): the bounded model run again on
    # the command line a violation under command_line_numbers had
    fixed_inputs: tuple[tuple[str, int], ...] = ()

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


__all__ = ["DEFAULT_FINDINGS_TIMEOUT_S", "DEFAULT_MEMORY_MB", "DEFAULT_SYM_ARGS", "DEFAULT_SYM_ARG_LEN", "GUIDED_MODES", "MEMORY_MODELS", "MODES", "OBSERVER_MODES", "OPTIMISATIONS", "UNREACH_CALL", "CancelToken", "Options"]
