"""The words distaff uses for its results, in one place.

An assertion's verdict and a finding are each one message, the same on the
command line (:mod:`distaff.server.render`: text, JSON and SARIF) and in the
editor (:mod:`distaff.server.convert`: diagnostics and hovers), e.g.
``assertion `hits == 2` can fail with n = 3``; the front ends add only where
(a position, the context a check started from) and the counterexample's steps
in their own form. ``tests/server/test_same_words.py`` compares the two on
every example. Each outcome says what it is (violated; the proofs "holds for
all interleavings" and "not reached by any run"; "no violation within unwind
N", which is not a proof and says so; "not reached within the bound" and the
other undecided answers with why; not checked and why) and never claims more. Code lens titles, run counts and
the counts of a file's results are phrased here too.
"""

from __future__ import annotations

from distaff.analysis.check import Options
from distaff.analysis.modular.prover import ANY_NUMBER_OF_THREADS, invariants_text
from distaff.analysis.report import (AssertionResult, Finding, FindingKind, FindingsSearch, Reason, SearchEnd, Stats,
                                     Status, Trace)
from distaff.analysis.subcheck import CONFIRMED, CONFIRMED_TEXT, SC_FIRST_TEXT
from distaff.analysis.symex.unmodelled import phrase

# --------------------------------------------------------------------------
# small words


def seconds(x: float) -> str:
    return f"{x:g}"


def plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"


def stats_phrase(stats: Stats) -> str:
    """``13 runs, 9 pruned, 2 cut by the bound``."""
    parts = [plural(stats.runs, "run")]
    if stats.pruned_runs:
        parts.append(f"{stats.pruned_runs} pruned")
    if stats.bound_cuts:
        parts.append(f"{stats.bound_cuts} cut by the bound")
    return ", ".join(parts)


def input_names(trace: Trace) -> list[str]:
    """Short names for the inputs: the symbol's name up to its ``@`` suffix,
    unless two inputs would then read the same."""
    short = [i.name.split("@", 1)[0] or i.name for i in trace.inputs]
    return [s if short.count(s) == 1 else i.name for s, i in zip(short, trace.inputs)]


def input_value(i) -> str:
    """An input's value as the counterexample shows it: ``3``, or a
    command-line argument's C string ``"9"``."""
    return i.text or str(i.value)


def inputs_text(trace: Trace | None) -> str:
    """`` with x = 3, y = -1`` or the empty string."""
    if trace is None or not trace.inputs:
        return ""
    return " with " + ", ".join(f"{n} = {input_value(i)}" for n, i in zip(input_names(trace), trace.inputs))


# --------------------------------------------------------------------------
# an assertion's verdict: one message for the command line, JSON, SARIF,
# diagnostics and hovers

# reasons for which the assertion was never explored at all
_NOT_CHECKED = (Reason.SKIPPED, Reason.CANCELLED, Reason.CRASHED)


def _not_checked(a: AssertionResult) -> bool:
    """Never explored: skipped, cancelled, crashed, or the whole check's
    time ran out before its turn (a TIMEOUT whose message says so)."""
    return a.reason in _NOT_CHECKED or (a.reason is Reason.TIMEOUT and a.message.startswith("not checked"))


def undecided_reason(a: AssertionResult, options: Options | None = None) -> str:
    """Why an UNKNOWN assertion was not decided, in a few words; the limits
    are quoted from ``options`` when given."""
    r = a.reason
    if r is Reason.TIMEOUT:
        if _not_checked(a):
            return a.message.removeprefix("not checked: ")
        why = f"timeout after {seconds(options.timeout_s)} s" if options and options.timeout_s else "timeout"
        return f"{why}; {a.message}" if a.finished_unwind else why  # how far deepening got
    if r is Reason.MAX_RUNS:
        why = f"run limit of {options.max_runs} reached" if options and options.max_runs else "run limit reached"
        return f"{why}; {a.message}" if a.finished_unwind else why
    if r is Reason.BOUND:
        return f"not reached within the bound: {a.message}"
    if r is Reason.CANCELLED:
        return "cancelled"
    if r is Reason.SOLVER:
        return "the solver gave up" + (f": {a.message}" if a.message else "")
    if r is Reason.SKIPPED:
        return a.message or "skipped"
    if r is Reason.CRASHED:
        return "the checker crashed" + (f": {a.message}" if a.message else "")
    if r is Reason.MEMORY:
        return f"memory limit of {options.max_memory_mb} MB reached" if options and options.max_memory_mb \
            else "memory limit reached"
    return a.message or "no reason given"  # unmodelled, unsupported: the message says what


MODEL_WORDS = {"sc": "sequential consistency", "rc11": "C11 (RC11)"}


def holds_phrase(options: Options | None) -> str:
    """A proof's words, with the memory model it holds under."""
    model = (options or Options()).memory_model
    if model == "rc11":
        return "holds for all executions under C11 (RC11)"
    return "holds for all interleavings under sequential consistency"


def executions_phrase(count) -> str:
    """What ``--count-executions`` found (an
    :class:`~distaff.analysis.executions.ExecutionCount`)."""
    text = f"{plural(count.executions, 'execution')} under {MODEL_WORDS[count.memory_model]}"
    if count.blocked:
        text += f", {count.blocked} blocked"
    text += f" ({plural(count.stats.runs, 'run')}, {count.stats.time_s:.2f} s)"
    if count.stop is not None:
        text += f"; incomplete: {count.stop_message or count.stop.value}"
    elif count.cut:
        text += "; incomplete: the unwind bound stopped a thread"
    return text


def bound_words(a: AssertionResult, unwind: int) -> str:
    """Which bound a "no violation within the bound" answer is within: the
    unwind bound when it stopped a thread, else main's command line (the
    message says how long)."""
    return f"unwind {unwind}" if a.stops or not a.message.startswith("command lines") else "the argument bound"


def verdict_phrase(a: AssertionResult, options: Options | None = None) -> str:
    """What the result says of the assertion, e.g. ``holds for all
    interleavings, unwind 8: 13 runs, 9 pruned`` or ``can fail with n = 3``."""
    unwind = a.unwind or (options.unwind if options else 0)
    if a.status is Status.VIOLATED:
        text = f"can fail{inputs_text(a.trace)}"
        notes = [phrase(a.depends_on, False)] if a.depends_on else []
        if a.stats.counter(CONFIRMED):
            notes.append(CONFIRMED_TEXT)
        if a.stats.counter("sc_first_decided"):
            notes.append(SC_FIRST_TEXT)
        return text + (f" ({'; '.join(notes)})" if notes else "")
    if a.status is Status.HOLDS:
        note = f" ({a.message})" if a.message else ""
        if a.stats.counter("thread_modular_proved"):
            return (f"holds {ANY_NUMBER_OF_THREADS} under sequential consistency, from the invariants "
                    f"{invariants_text(a.invariants)} ({stats_phrase(a.stats)} explored first)")
        return f"{holds_phrase(options)}: {stats_phrase(a.stats)}{note}"
    if a.status is Status.BOUNDED:  # says it is not a proof, and why
        return f"has no violation within {bound_words(a, unwind)}, not a proof ({a.message}): {stats_phrase(a.stats)}"
    if a.status is Status.UNREACHABLE:
        return f"is not reached by any run: {stats_phrase(a.stats)}"
    not_checked = _not_checked(a)
    runs = f": {stats_phrase(a.stats)}" if a.stats.runs and not not_checked else ""
    return f"{'not checked' if not_checked else 'undecided'} ({undecided_reason(a, options)}){runs}"


def assertion_message(a: AssertionResult, options: Options | None = None) -> tuple[str, str]:
    """(severity, message) of an assertion's verdict: ``error`` for a
    violation that needs nothing assumed, ``warning`` for one that relies on
    the program's own body-less functions, for "no violation within the
    bound" (not a proof) and for an undecided assertion, ``note`` for a
    proof (holds, or not reached by any run)."""
    head = f"assertion `{a.text}`" if a.text else "assertion"
    message = f"{head} {verdict_phrase(a, options)}"
    if a.status is Status.VIOLATED:
        return ("warning" if a.depends_on else "error"), message
    if a.status.proof:
        return "note", message
    return "warning", message


def lens_title(result: AssertionResult | None, checking: bool, not_checked: str = "not checked",
               memory_model: str = "sc") -> str:
    """The code lens's short label of a result; a proof says its memory model
    ("holds under C11", "holds under SC")."""
    if checking and result is None:
        return "checking…"
    if result is None:
        return not_checked
    if result.status is Status.HOLDS:
        under = " under C11" if memory_model == "rc11" else " under SC"
        return f"holds{under} · {plural(result.stats.runs, 'run')}"
    if result.status is Status.BOUNDED:
        return f"no violation within {bound_words(result, result.unwind)} · {plural(result.stats.runs, 'run')}"
    if result.status is Status.VIOLATED:
        # as the diagnostic, a warning: real only if what it depends on can be so
        return "may fail" if result.depends_on else "fails"
    if result.status is Status.UNREACHABLE:
        return "unreachable"
    return {
        Reason.TIMEOUT: "undecided: timeout",
        Reason.MAX_RUNS: "undecided: run limit",
        Reason.SOLVER: "undecided: solver",
        Reason.CANCELLED: "not checked: cancelled",
        Reason.SKIPPED: "not checked: skipped",
        Reason.CRASHED: "not checked: crashed",
        Reason.UNSUPPORTED: "undecided: unsupported C",
        Reason.UNMODELLED: "undecided: unmodelled library call",
        Reason.MEMORY: "undecided: memory limit",
        Reason.BOUND: "undecided: not reached within the bound",
        Reason.NO_ENTRY: "undecided: no main reaches it",
    }.get(result.reason, "undecided")


# --------------------------------------------------------------------------
# findings


FINDING_WORDS = {
    FindingKind.ASSERTION: ("error", "assertion can fail"),
    FindingKind.DEADLOCK: ("warning", "deadlock"),
    FindingKind.STUCK: ("warning", "stuck"),
    FindingKind.DATA_RACE: ("warning", "data race"),
    FindingKind.ERROR: ("error", ""),
    FindingKind.SYNTAX: ("error", "syntax error"),
    FindingKind.UNSUPPORTED: ("warning", "unsupported"),
}


def finding_message(f: Finding, with_inputs: bool = True) -> tuple[str, str]:
    """(severity, message) of a finding; the kind's words prefix the message
    unless it already starts with them."""
    severity, words = FINDING_WORDS[f.kind]
    msg = f.message.strip() or f.kind.value
    if words and not msg.lower().startswith(words):
        msg = f"{words}: {msg}"
    msg += inputs_text(f.trace) if with_inputs else ""
    if f.depends_on:
        severity, msg = "warning", f"{msg} ({phrase(f.depends_on, False)})"
    return severity, msg


FINDING_NOUNS = {
    FindingKind.ASSERTION: "failed assertion", FindingKind.DEADLOCK: "deadlock", FindingKind.STUCK: "stuck thread",
    FindingKind.DATA_RACE: "data race", FindingKind.ERROR: "run-time error",
    FindingKind.SYNTAX: "syntax error", FindingKind.UNSUPPORTED: "unsupported construct",
}


# --------------------------------------------------------------------------
# counts of a file's results (progress and the command results)


def counts(results) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results:
        key = r.reason.value if r.status is Status.UNKNOWN and r.reason else r.status.label
        out[key] = out.get(key, 0) + 1
    return out


def counts_line(results) -> str:
    c = counts(results)
    words = {"holds": "hold", "violated": "fail", Reason.BOUND.value: "not reached within the bound"}
    return ", ".join(f"{n} {words.get(k, k)}" for k, n in sorted(c.items())) or "no assertions"


def search_note(search: FindingsSearch | None) -> str:
    """What to tell of a search for findings that did not finish (empty when
    it finished, was not needed or not asked for): the findings shown may
    not be all there are."""
    if search is None or search.complete or search.end in (SearchEnd.OFF, SearchEnd.SKIPPED):
        return ""
    if search.end is SearchEnd.CUT and search.budget_s is not None and search.runs:
        return (f"the search for deadlocks and run-time errors stopped at its time budget of {search.budget_s:.1f} s "
                f"after {plural(search.runs, 'run')}")
    return f"the search for deadlocks and run-time errors did not finish: {search.message}"
