"""Check from here, precisely: symbolic execution from a program context.

Implements the arbitrary-context paper (Bergan, Grossman, Ceze, OOPSLA
2014; ``shared/seeds/symbolic-execution-from-arbitrary-contexts.txt``) on
our IR and engine:

* :mod:`.threads` -- the context's threads: routines, call stacks, which
  routines start at their entry, where threads are created and with what;
* :mod:`.terms` -- abstract values: IR expressions over symbols;
* :mod:`.stored` -- what a shared global can hold once threads run;
* :mod:`.assumed` -- branches decided by what ``main`` assumed;
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

:class:`Context` names a program context (where each thread starts and which
ingredients of the initial state are on); :func:`context_at` and
:func:`program_context` map source positions to one. These types are what the
check and the language server pass around; the analyses that build the
initial state from them are imported by whoever builds it
(:mod:`distaff.analysis.subcheck`, :mod:`distaff.analysis.replay`).
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis import ir


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
    their entry (or, when run again they might not get through, may have
    ended already: the run chooses). ``naive``: every value not fixed by the program text is a
    fresh symbol (the arbitrary-context paper's naive approach)."""

    threads: tuple[ContextThread, ...]
    naive: bool = True
    # the initial state's ingredients (the modules of this package); both off is the naive approach
    reaching_defs: bool = False
    sync_invariants: bool = False
    # the thread-modular prover's bounds of globals and registers (the check turns it on when the prover
    # followed the whole program under sequential consistency: :mod:`distaff.analysis.modular.prover`)
    thread_invariants: bool = False

    @property
    def approximate(self) -> bool:
        """Some ingredient of the initial state is off."""
        return not (self.reaching_defs and self.sync_invariants)

    @property
    def label(self) -> str:
        """What results from this context say about it."""
        if not self.reaching_defs and not self.sync_invariants:
            label = NAIVE_CONTEXT_LABEL
        elif not self.reaching_defs:
            label = "approximate context (no reaching definitions)"
        elif not self.sync_invariants:
            label = "approximate context (no synchronization invariants)"
        else:
            label = "context (reaching definitions, synchronization invariants)"
        return label[:-1] + "; invariants for any number of threads)" if self.thread_invariants else label


NAIVE_CONTEXT_LABEL = "approximate context (fresh symbols)"


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


def program_context(program: ir.Program, positions: list[tuple[int, int]], reaching_defs: bool = True,
                    sync_invariants: bool = True):
    """The context whose threads start at ``positions`` (1-based line and
    column, the cursor's thread first; the same position twice is two
    threads), with the given ingredients of the initial state. Raises
    ValueError naming a position without a statement."""
    base = context_at(program, positions)
    return Context(base.threads, naive=not (reaching_defs or sync_invariants), reaching_defs=reaching_defs,
                   sync_invariants=sync_invariants)


__all__ = ["NAIVE_CONTEXT_LABEL", "Context", "ContextThread", "context_at", "program_context"]
