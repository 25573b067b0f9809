"""Counting a program's executions (``--count-executions``): how a litmus
test, which has no assertion, is read.

Contract: :func:`count_executions` explores every run of the program from
``main`` whatever its assertions (a failing one ends its run, as ``abort``
does) with DPOR and no assertion-guided pruning, each run keeping its
execution graph (:mod:`distaff.analysis.symex.weak`), and counts the
distinct graphs (reads-from and modification order, the events named by
thread and position) of the runs that ended: RC11-consistent executions
under ``rc11``, sequentially consistent ones under ``sc``; those of runs
that ended blocked (a deadlock) apart, as GenMC counts them. Several runs
may make one execution (a read and a write of two threads in either order
when the read does not read that write): ``runs`` is at least
``executions``. The count is complete only when the exploration was
(``stop`` None): no budget ran out and no loop was cut by the bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from distaff.analysis import ir
from distaff.analysis.options import CancelToken, Options
from distaff.analysis.report import Finding, Reason, Stats
from distaff.analysis.subcheck import explorer_for


@dataclass(frozen=True)
class ExecutionCount:
    memory_model: str
    executions: int
    blocked: int
    stats: Stats
    stop: Reason | None = None
    stop_message: str = ""
    cut: bool = False  # a thread was stopped at the unwind bound on some run
    findings: tuple[Finding, ...] = field(default=())

    @property
    def complete(self) -> bool:
        return self.stop is None and not self.cut


def count_executions(program: ir.Program, options: Options, cancel: CancelToken | None = None) -> ExecutionCount:
    """See the module docstring; ``options.total_timeout_s`` bounds the exploration."""
    mode = "baseline" if options.mode == "baseline" else "dpor"
    opts = replace(options, mode=mode, count_executions=True, timeout_s=options.total_timeout_s)
    explorer = explorer_for(program, opts, None, cancel)
    try:
        result = explorer.run()
    finally:
        explorer.close()
    counters = dict(result.stats.counters)
    return ExecutionCount(options.memory_model, counters.get("executions", 0), counters.get("blocked_executions", 0),
                          result.stats, result.stop, result.stop_message, bool(result.cut_sites),
                          tuple(result.findings))


__all__ = ["ExecutionCount", "count_executions"]
