"""The words distaff uses for its results, in one place.

Verdicts, the reasons an assertion is undecided, run counts, failing inputs,
the kinds of findings and the counts of a file's results are phrased here, for
the command line's text, JSON and SARIF (:mod:`distaff.server.render`) and
for the language server's diagnostics, hovers, code lenses and progress
(:mod:`distaff.server.convert`, :mod:`distaff.server.session`). Each outcome
says what it is (violated, holds for all interleavings, holds within the
unwind bound, unreachable, undecided and why, not checked and why) and never
claims more.
"""

from __future__ import annotations

from distaff.analysis.check import Options
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Reason, Stats, Status, Trace
from distaff.analysis.symex.unmodelled import phrase

# --------------------------------------------------------------------------
# the editor's phrases


def stats_phrase(stats: Stats) -> str:
    parts = [f"{stats.runs} run{'s' if stats.runs != 1 else ''}"]
    if stats.pruned_runs:
        parts.append(f"{stats.pruned_runs} pruned")
    if stats.bound_cuts:
        parts.append(f"{stats.bound_cuts} cut by the bound")
    return ", ".join(parts)


UNDECIDED = {
    Reason.TIMEOUT: "undecided: the time limit ran out",
    Reason.MAX_RUNS: "undecided: the run budget ran out",
    Reason.SOLVER: "undecided: the solver gave up",
    Reason.CANCELLED: "not checked: the check was cancelled",
    Reason.SKIPPED: "not checked",
    Reason.CRASHED: "not checked: the checker crashed",
    Reason.UNSUPPORTED: "undecided: the program uses C that distaff does not cover",
    Reason.UNMODELLED: "undecided",  # the message says what it depends on
}


def verdict_phrase(result: AssertionResult) -> str:
    """What the result says about the assertion, e.g. "holds for all
    interleavings, unwind 8: 13 runs, 9 pruned"."""
    s = result.stats
    if result.status is Status.VIOLATED:
        return "can fail"
    if result.status is Status.HOLDS:
        scope = f"within unwind {result.unwind}" if result.bounded else f"for all interleavings, unwind {result.unwind}"
        note = f" ({result.message})" if result.message else ""  # e.g. no run reached it within the bound
        return f"holds {scope}: {stats_phrase(s)}{note}"
    if result.status is Status.UNREACHABLE:
        scope = f" within unwind {result.unwind}" if result.bounded else ""
        return f"is not reached by any run{scope}: {stats_phrase(s)}"
    phrase = UNDECIDED.get(result.reason, "undecided")
    if s.runs and result.reason is not Reason.SKIPPED:
        phrase += f" after {stats_phrase(s)}"
    if result.message and result.message not in phrase:
        phrase += f" ({result.message})"
    return phrase


def lens_title(result: AssertionResult | None, checking: bool, not_checked: str = "not checked") -> str:
    if checking and result is None:
        return "checking…"
    if result is None:
        return not_checked
    if result.status is Status.HOLDS:
        scope = f" within unwind {result.unwind}" if result.bounded else ""
        return f"holds{scope} · {result.stats.runs} runs"
    if result.status is Status.VIOLATED:
        # as the diagnostic, a warning: real only if what it depends on can be so
        return "may fail" if result.depends_on else "fails"
    if result.status is Status.UNREACHABLE:
        return "unreachable"
    return {
        Reason.TIMEOUT: "undecided: timeout",
        Reason.MAX_RUNS: "undecided: run budget",
        Reason.SOLVER: "undecided: solver",
        Reason.CANCELLED: "cancelled",
        Reason.SKIPPED: "skipped",
        Reason.CRASHED: "not checked: crashed",
        Reason.UNSUPPORTED: "undecided: unsupported C",
        Reason.UNMODELLED: "undecided: unmodelled library call",
    }.get(result.reason, "undecided")


# --------------------------------------------------------------------------
# the command line's phrases


def seconds(x: float) -> str:
    return f"{x:g}"


def plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"


def input_names(trace: Trace) -> list[str]:
    """Short names for the inputs: the symbol's name up to its ``@`` suffix,
    unless two inputs would then read the same."""
    short = [i.name.split("@", 1)[0] or i.name for i in trace.inputs]
    return [s if short.count(s) == 1 else i.name for s, i in zip(short, trace.inputs)]


def inputs_text(trace: Trace | None) -> str:
    """`` [inputs: x=3, y=-1]`` or the empty string."""
    if trace is None or not trace.inputs:
        return ""
    pairs = (f"{n}={i.value}" for n, i in zip(input_names(trace), trace.inputs))
    return f" [inputs: {', '.join(pairs)}]"


def scope_phrase(a: AssertionResult, options: Options) -> str:
    unwind = a.unwind or options.unwind
    return f"all interleavings within unwind {unwind}" if a.bounded else f"all interleavings, unwind {unwind}"


def runs_phrase(s: Stats) -> str:
    text = plural(s.runs, "run")
    if s.pruned_runs:
        text += f", {s.pruned_runs} pruned"
    return text


def undecided_reason(a: AssertionResult, options: Options) -> str:
    """Why an UNKNOWN assertion was not decided, in a few words."""
    r = a.reason
    if r is Reason.TIMEOUT:
        if a.message.startswith("not checked"):  # the whole check's time ran out before it started
            return a.message
        return f"timeout after {seconds(options.timeout_s)} s" if options.timeout_s else "timeout"
    if r is Reason.MAX_RUNS:
        return f"run limit of {options.max_runs} reached" if options.max_runs else "run limit reached"
    if r is Reason.CANCELLED:
        return "cancelled"
    if r is Reason.SOLVER:
        return "the solver gave up" + (f": {a.message}" if a.message else "")
    if r is Reason.SKIPPED:
        return "skipped" + (f": {a.message}" if a.message else "")
    if r is Reason.CRASHED:
        return "the checker crashed" + (f": {a.message}" if a.message else "")
    return a.message or "no reason given"


FINDING_WORDS = {
    FindingKind.ASSERTION: ("error", "assertion can fail"),
    FindingKind.DEADLOCK: ("warning", "deadlock"),
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
    FindingKind.ASSERTION: "failed assertion", FindingKind.DEADLOCK: "deadlock",
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
    words = {"holds": "hold", "violated": "fail"}
    return ", ".join(f"{n} {words.get(k, k)}" for k, n in sorted(c.items())) or "no assertions"
