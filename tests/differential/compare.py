"""The engine's verdicts on a generated program, against the oracle's.

:func:`discrepancies` runs the front end and ``distaff.analysis.check.check`` in each
mode on the C text of a :mod:`cprog` program and lists, in words, every way
the engine disagrees with :func:`oracle.explore` and the modes disagree with
each other. An empty list is agreement. What counts as disagreement:

* an assertion the oracle can violate that the engine does not report
  VIOLATED (a false "holds"/"unreachable"), or any UNKNOWN verdict but
  "bound reached" where the oracle cut a thread and never evaluates the
  assertion (no budget is set; only spin loops meet the unwind bound);
* "holds" (a proof) where the oracle cut a thread on some run, or "bounded"
  (no violation within the bound) where it cut none; dpor-ag may prove what
  the oracle bounds (its slice may leave the spinning thread out, which
  cannot affect the assertion);
* a violation the engine reports whose failing inputs (mapped to the
  program's inputs by the line of their nondet call) admit no violating
  schedule in the oracle, or whose trace is not a run of the oracle step by
  step (:mod:`trace_replay`); a deadlock or a stuck thread whose inputs admit
  none, or one the oracle has and the engine does not report;
* HOLDS where the oracle never evaluates the assertion (but a proof of the
  thread-modular prover, which the oracle's cut threads cannot refute and
  only bound), or UNREACHABLE where
  it does; a deadlock finding on one side only; any other finding (syntax,
  unsupported, run-time error) on a program that has none;
* two modes giving different statuses or deadlock findings.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis import check as engine
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Reason, Status

from tests.differential import cprog as C
from tests.differential import oracle
from tests.differential.trace_replay import replay_violation

UNWIND = C.UNWIND
TIMEOUT_S = 120.0  # a safety net: a timeout is reported as a discrepancy


@dataclass(frozen=True, slots=True)
class EngineVerdicts:
    """One mode's answer: results by assertion line, and the findings."""

    mode: str
    assertions: dict
    findings: tuple


def run_engine(text: str, mode: str, spurious: bool = False) -> EngineVerdicts:
    program = parse_program(text, "gen.c")
    # the search for deadlocks gets the sub-checks' budget, not the command line's 10 s: a
    # finding it did not reach would be a discrepancy
    results = list(engine.check(program, engine.Options(mode=mode, unwind=UNWIND, timeout_s=TIMEOUT_S,
                                                        findings_timeout_s=TIMEOUT_S,
                                                        spurious_wakeups=spurious)))
    assertions: dict[int, list[AssertionResult]] = {}
    # The front end's findings (its own Finding type) come back from check()
    # too; keep one of each.
    findings = {(f.kind.value, f.span.line, f.message): f for f in program.findings}
    for r in results:
        if isinstance(r, AssertionResult):
            assertions.setdefault(r.span.line, []).append(r)
        elif isinstance(r, Finding):
            findings.setdefault((r.kind.value, r.span.line, r.message), r)
    return EngineVerdicts(mode, assertions, tuple(findings.values()))


def expected_status(verdict: oracle.AssertionVerdict, cut: bool = False) -> Status:
    if verdict.violated:
        return Status.VIOLATED
    if verdict.reached:
        return Status.BOUNDED if cut else Status.HOLDS
    return Status.UNKNOWN if cut else Status.UNREACHABLE  # UNKNOWN: "bound reached"


def engine_inputs(trace, rendered: C.Rendered) -> dict:
    """The trace's failing inputs by our input names (by nondet call line)."""
    by_line = {line: name for name, line in rendered.input_lines.items()}
    return {by_line[i.span.line]: i.value for i in trace.inputs if i.span.line in by_line}


def discrepancies(program: C.Program, modes=None, outcome: oracle.Outcome | None = None,
                  spurious: bool = False) -> list[str]:
    """Every disagreement, one line each (empty: the engine agrees);
    ``spurious``: both sides let condition waits wake without a signal."""
    modes = engine.MODES if modes is None else modes
    rendered = C.render(program)
    outcome = outcome or oracle.explore(program, spurious=spurious)
    problems: list[str] = []
    statuses = {}
    for mode in modes:
        ev = run_engine(rendered.text, mode, spurious)
        statuses[mode] = _compare_mode(program, rendered, outcome, ev, problems, spurious)
    first = modes[0]
    for mode in modes[1:]:
        if statuses[mode] != statuses[first]:
            problems.append(f"modes disagree: {first} {statuses[first]} vs {mode} {statuses[mode]}")
    return problems


def _compare_mode(program, rendered, outcome, ev: EngineVerdicts, problems, spurious: bool = False) -> tuple:
    m = ev.mode
    summary = []
    for verdict in outcome.assertions:
        line = rendered.assert_lines[verdict.label]
        results = ev.assertions.get(line, [])
        if len(results) != 1:
            problems.append(f"[{m}] line {line}: {len(results)} results for the assertion")
            summary.append((line, None))
            continue
        r = results[0]
        want = expected_status(verdict, outcome.cut)
        bound_reached = want is Status.UNKNOWN and r.reason is Reason.BOUND
        # dpor-ag's slicing need not run a thread that cannot affect the
        # assertion, so it may never meet the cut the oracle sees elsewhere:
        # its proof stands for the oracle's bounded answer
        unmet_cut = m in engine.GUIDED_MODES and (r.status, want) in ((Status.HOLDS, Status.BOUNDED),
                                                            (Status.UNREACHABLE, Status.UNKNOWN))
        # the thread-modular prover proves for any number of threads what the
        # oracle, which cuts the threads started without end, can only bound
        unmet_cut = unmet_cut or (r.status is Status.HOLDS and want in (Status.BOUNDED, Status.UNKNOWN)
                                  and r.stats.counter("thread_modular_proved") == 1)
        summary.append((line, want.label if unmet_cut else r.status.label))
        if r.status == Status.UNKNOWN and not bound_reached:
            problems.append(f"[{m}] line {line}: {r.status.label} (reason={r.reason}, {r.message!r}); "
                            f"oracle: {want.label}, cut={outcome.cut}")
            continue
        if r.status == Status.VIOLATED:
            if r.trace is None:
                problems.append(f"[{m}] line {line}: violated without a trace")
                continue
            fixed = engine_inputs(r.trace, rendered)
            again = oracle.explore(program, fixed, spurious=spurious).assertions[verdict.label]
            if not again.violated:
                problems.append(f"[{m}] line {line}: engine reports a violation with inputs "
                                f"{fixed} that no schedule has (oracle: {want.label})")
                continue
            why = replay_violation(program, rendered, r.trace, verdict.label, fixed)
            if why is not None:
                problems.append(f"[{m}] line {line}: the engine's trace does not replay: {why}")
        elif verdict.violated:
            w = verdict.violation
            problems.append(f"[{m}] line {line}: engine says {r.status.label}, oracle violates it "
                            f"with inputs {dict(w.inputs)}: " + "; ".join(w.steps))
        elif r.status != want and not unmet_cut:
            problems.append(f"[{m}] line {line}: engine says {r.status.label}, oracle {want.label}")
    others = [f for f in ev.findings if f.kind.value not in
              (FindingKind.DEADLOCK.value, FindingKind.STUCK.value, FindingKind.DATA_RACE.value)]
    for f in others:
        problems.append(f"[{m}] unexpected finding {f.kind.value} at line {f.span.line}: {f.message}")
    for kind, witness_of in ((FindingKind.DEADLOCK, lambda o: o.deadlock), (FindingKind.STUCK, lambda o: o.stuck)):
        found = [f for f in ev.findings if f.kind.value == kind.value]
        w = witness_of(outcome)
        if w is not None and not found:
            problems.append(f"[{m}] {kind.value} missed; oracle is {kind.value} with inputs {dict(w.inputs)}: "
                            + "; ".join(w.steps))
        for f in found:
            fixed = engine_inputs(f.trace, rendered) if f.trace is not None else {}
            if witness_of(oracle.explore(program, fixed, spurious=spurious)) is None:
                problems.append(f"[{m}] engine reports {kind.value} (line {f.span.line}) with inputs "
                                f"{fixed} that no schedule has")
        summary.append((kind.value, bool(found)))
    return tuple(summary)
