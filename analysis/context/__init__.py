"""Check from here, precisely: symbolic execution from a program context.

Implements the arbitrary-context paper (Bergan, Grossman, Ceze, OOPSLA
2014; ``shared/seeds/symbolic-execution-from-arbitrary-contexts.txt``) on
our IR and engine:

* :mod:`.threads` -- the context's threads: routines, call stacks, which
  routines start at their entry, where threads are created and with what;
* :mod:`.terms` -- abstract values: IR expressions over symbols;
* :mod:`.reaching` -- context-specific must-reaching definitions of
  registers and memory, forward from ``main`` to the context;
* :mod:`.conflicts` -- conflict-free versus shared memory;
* :mod:`.frames` -- live registers and branch outcomes known at a frame's pc;
* :mod:`.locksets` -- may-held and must-held locksets with relative
  function summaries;
* :mod:`.barriers` -- barrier expected counts and barrier matching with
  symbolic trip counts;
* :mod:`.initial` -- the engine state built from all of the above;
* :mod:`.heap` -- the lazily initialised symbolic heap (primary objects,
  conditional aliasing restricted by points-to);
* :mod:`.invariants` -- the lock and barrier invariants and the order of
  initial waiters on the global wait queue.

:func:`program_context` maps source positions to an
:class:`analysis.check.Context` with the ingredients asked for.
"""

from __future__ import annotations

from analysis import ir


def program_context(program: ir.Program, positions: list[tuple[int, int]], reaching_defs: bool = True,
                    sync_invariants: bool = True):
    """The context whose threads start at ``positions`` (1-based line and
    column, the cursor's thread first; the same position twice is two
    threads), with the given ingredients of the initial state. Raises
    ValueError naming a position without a statement."""
    from analysis.check import Context, context_at

    base = context_at(program, positions)
    return Context(base.threads, naive=not (reaching_defs or sync_invariants), reaching_defs=reaching_defs,
                   sync_invariants=sync_invariants)


__all__ = ["program_context"]
