"""Static analyses over the IR, bundled for the engine by :func:`facts.analyze`.

* :mod:`pointsto`  Andersen-style points-to: what each address may denote,
  the callees of calls through function pointers, thread routines;
* :mod:`escape`    which objects threads share; :func:`escape.classify` marks
  provably thread-local memory accesses LOCAL (the last step of lowering);
* :mod:`slicing`   the slice of each assertion (control, data, memory and
  interference dependence), for Type A / Type B pivot points;
* :mod:`reach`     may a thread still reach an assertion, and how far it is;
* :mod:`facts`     one picklable bundle of all of it, computed lazily;
* helpers: :mod:`access` (memory operands of an instruction), :mod:`cfg`
  (post-dominators, control dependence), :mod:`defuse` (reaching
  definitions), :mod:`callgraph`, :mod:`writers` (who may write what a read reads),
  :mod:`fixpoint` (per-function equations solved one call-graph SCC at a time);
* :mod:`budget`    the check's deadline and cancel token, polled by the long
  loops of all of the above (BudgetExpired when it runs out).

Costs are near-linear in the program's size: no analysis sweeps the whole
program once per level of call depth, or searches it once per function or per
read (bench/static_bench.py, bench/results/static.md).

Typical use by the engine::

    facts = analyze(program)
    s = facts.slice(assertion.id)        # s.contains(func, pc)
    r = facts.reach(assertion.id)        # r.from_stack(frames), r.distance(func, pc)
    facts.points_to.objects_at(func, pc) # what a Load/Store/sync op may touch
    facts.may_touch_shared(func, pc)
"""
