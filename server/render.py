"""Check results as text, JSON and SARIF: pure functions, no I/O.

The command line (:mod:`distaff.server.cli`) and the Python API
(:func:`distaff.server.api.check_source`) collect what :func:`distaff.analysis.check.check`
yields for each file into a :class:`FileReport` and hand the reports here.

* :func:`text_lines` gives GCC-style lines that editors' quickfix lists read:
  ``file:line:col: severity: message``, each problem followed by its trace as
  ``note`` lines, and one summary line per file (``path: 2 assertions: ...``,
  which has no line number, so quickfix parsers skip it).
* :func:`json_document` gives the ``--format json`` document (version 1): every
  assertion of every file once, with its status, statistics and counterexample.
* :func:`sarif_log` gives a SARIF 2.1.0 log whose results carry the schedule of
  a counterexample as a code flow: one thread flow per thread, the global order
  in each location's ``executionOrder``.
"""

from __future__ import annotations

import hashlib
import pathlib
import urllib.parse
from dataclasses import dataclass, replace

from distaff.analysis.check import Options
from distaff.analysis.ir import Span
from distaff.server import wording
from distaff.server.wording import FINDING_NOUNS, finding_message, input_names, input_value, plural, search_note
from distaff.analysis.report import (
    AssertionResult, Finding, FindingKind, FindingsSearch, Reason, SearchEnd, Stats, Status, Trace, to_json,
)

JSON_VERSION = 2
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


@dataclass(frozen=True, slots=True)
class FileReport:
    """What one check of one file produced.

    ``assertions`` and ``findings`` are kept in the order the engine yielded
    them; renderers sort by position so that output does not depend on which
    worker finished first. ``time_s`` is the wall time of the whole file's
    check; ``positions`` are the (line, column) of each thread of the program
    context a ``--from`` check started at (empty: from ``main``); ``sha256``
    is the digest of the text that was checked (for ``--replay``);
    ``ingredients`` are the context's initial-state ingredients (reaching
    definitions, synchronization invariants) when ``positions`` are given;
    ``options`` what the file was checked with (a command's ``total_timeout_s``:
    what was left of it when the file started); ``linked`` the files of a
    program linked from several, ``(path, sha256)`` each (``path`` is then the
    file whose ``main`` starts it), empty for a file checked alone;
    ``search`` how the search for findings ended (None: not known, a report
    read back from elsewhere).
    """

    path: str
    assertions: tuple[AssertionResult, ...] = ()
    findings: tuple[Finding, ...] = ()
    time_s: float = 0.0
    positions: tuple[tuple[int, int], ...] = ()
    sha256: str = ""
    ingredients: tuple[bool, bool] = (True, True)
    options: Options = Options()
    linked: tuple[tuple[str, str], ...] = ()
    search: FindingsSearch | None = None

    @property
    def files(self) -> tuple[str, ...]:
        """The files checked: the linked ones, or the file alone."""
        return tuple(p for p, _ in self.linked) or (self.path,)

    @property
    def context(self) -> str:
        """``25:9, 36:5`` for a check from a context, else empty."""
        return ", ".join(f"{line}:{col}" for line, col in self.positions)

    @property
    def stats(self) -> Stats:
        """The sum of the assertions' statistics, with the file's wall time."""
        total = sum((a.stats for a in self.assertions), Stats())
        return replace(total, time_s=self.time_s)


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _order(span: Span) -> tuple:
    return (span.file, span.line, span.col)


def sorted_assertions(report: FileReport) -> list[AssertionResult]:
    return sorted(report.assertions, key=lambda a: (_order(a.span), a.id))


def sorted_findings(report: FileReport) -> list[Finding]:
    return sorted(report.findings, key=lambda f: (_order(f.span), f.kind.value, f.message))


# --------------------------------------------------------------------------
# Messages shared by every format


def _context_suffix(a: AssertionResult, report: FileReport) -> str:
    label = a.context or report.context
    return f" [context: {label}]" if label else ""


def assertion_message(a: AssertionResult, options: Options, report: FileReport) -> tuple[str, str]:
    """(severity, message) of one assertion's verdict: the words of
    :func:`distaff.server.wording.assertion_message` and, for a check from a
    context, which context."""
    severity, message = wording.assertion_message(a, options)
    return severity, message + _context_suffix(a, report)


# --------------------------------------------------------------------------
# Text


def _where(span: Span, fallback: str) -> str:
    return f"{span.file or fallback}:{span.line}:{span.col}"


def trace_lines(trace: Trace, fallback_path: str) -> list[str]:
    """The inputs and then the steps of a trace, as ``note`` lines."""
    out = [
        f"{_where(i.span, fallback_path)}: note: input {n} = {input_value(i)}"
        for n, i in zip(input_names(trace), trace.inputs)
    ]
    out += [f"{_where(s.span, fallback_path)}: note: [{s.thread}] {s.action}" for s in trace.steps]
    return out


def summary_line(report: FileReport) -> str:
    """``fig2.c: 1 assertion: 1 holds; 7 runs (5 full, 2 pruned), 0.41 s``."""
    counts: dict[Status, int] = {}
    for a in report.assertions:
        counts[a.status] = counts.get(a.status, 0) + 1
    parts = [f"{counts[s]} {s.label}" for s in sorted(counts, reverse=True)]
    head = plural(len(report.assertions), "assertion")
    text = f"{report.path}"
    others = [f for f in report.files if f != report.path]
    if others:  # stderr named them all when they were linked
        text += f" (linked with {', '.join(others) if len(others) <= 4 else plural(len(others), 'file')})"
    if report.context:
        text += f" (from {report.context})"
    text += f": {head}" + (f": {', '.join(parts)}" if parts else "")
    kinds: dict[FindingKind, int] = {}
    for f in report.findings:
        kinds[f.kind] = kinds.get(f.kind, 0) + 1
    if kinds:
        text += "; " + ", ".join(plural(kinds[k], FINDING_NOUNS[k]) for k in FindingKind if k in kinds)
    s = report.stats
    detail = [f"{s.full_runs} full", f"{s.pruned_runs} pruned"]
    if s.bound_cuts:
        detail.append(plural(s.bound_cuts, "bound cut"))
    text += f"; {plural(s.runs, 'run')} ({', '.join(detail)}), {report.time_s:.2f} s"
    left = sorted(a.span.line for a in report.assertions if a.reason is Reason.TIMEOUT)
    if left:
        text += f"; time ran out, undecided: line{'s' if len(left) > 1 else ''} {', '.join(map(str, left))}"
    note = search_note(report.search)
    if note:
        text += f"; {note}"
    return text


def search_json(search: FindingsSearch) -> dict:
    out = to_json(search)
    out["complete"] = search.complete
    return out


def assertion_lines(a: AssertionResult, report: FileReport, options: Options) -> list[str]:
    """One assertion's verdict as a GCC-style line, then its trace."""
    severity, msg = assertion_message(a, options, report)
    lines = [f"{_where(a.span, report.path)}: {severity}: {msg}"]
    if a.trace is not None:
        lines += trace_lines(a.trace, report.path)
    return lines


def text_lines(report: FileReport, options: Options, assertions: bool = True) -> list[str]:
    """One file's result as GCC-style lines, problems in source order, each
    followed by its trace, then the summary line. ``assertions`` False: the
    findings and the summary only (the command line printed each assertion
    as it was decided)."""
    blocks: list[tuple[tuple, list[str]]] = []
    for a in sorted_assertions(report) if assertions else ():
        blocks.append((_order(a.span), assertion_lines(a, report, options)))
    for f in sorted_findings(report):
        severity, msg = finding_message(f)
        lines = [f"{_where(f.span, report.path)}: {severity}: {msg}"]
        if f.trace is not None:
            lines += trace_lines(f.trace, report.path)
        blocks.append((_order(f.span), lines))
    blocks.sort(key=lambda b: b[0])  # stable: an assertion before a finding at the same place
    out = [line for _, lines in blocks for line in lines]
    out.append(summary_line(report))
    return out


# --------------------------------------------------------------------------
# JSON


def _position(span: Span, path: str) -> dict:
    pos = {"line": span.line, "column": span.col, "end_line": span.end_line, "end_column": span.end_col}
    if span.file and span.file != path:
        pos["file"] = span.file
    return pos


def count_json(path: str, count) -> dict:
    """One file's ``--count-executions`` answer (an
    :class:`~distaff.analysis.executions.ExecutionCount`)."""
    return {"path": path, "memory_model": count.memory_model, "executions": count.executions,
            "blocked_executions": count.blocked, "complete": count.complete,
            "stop": count.stop.value if count.stop is not None else None,
            "stats": {"runs": count.stats.runs, "time_s": count.stats.time_s,
                      "counters": dict(count.stats.counters)},
            "findings": [{"kind": f.kind.value, "line": f.span.line, "message": f.message} for f in count.findings]}


def options_json(options: Options) -> dict:
    return {
        "mode": options.mode, "unwind": options.unwind, "timeout_s": options.timeout_s,
        "total_timeout_s": options.total_timeout_s, "findings": options.findings,
        "findings_timeout_s": options.findings_timeout_s,
        "max_runs": options.max_runs, "data_model": options.data_model.value,
        "workers": options.workers, "spurious_wakeups": options.spurious_wakeups,
        "max_memory_mb": options.max_memory_mb, "memory_model": options.memory_model,
        "sym_args": options.sym_args, "sym_arg_len": options.sym_arg_len,
    }


def assertion_json(a: AssertionResult, report: FileReport, options: Options) -> dict:
    out = {"id": a.id, "path": a.span.file or report.path, **_position(a.span, report.path), "text": a.text,
           "status": a.status.label, "reason": a.reason.value if a.reason else None,
           # a proof's message says its memory model, and any note of its own in parentheses
           "message": (a.message if a.message and a.status is not Status.HOLDS
                       else assertion_message(a, options, report)[1]),
           "mode": a.mode or options.mode, "unwind": a.unwind or options.unwind,
           "context": a.context or report.context, "stats": to_json(a.stats),
           "reached_paths": a.reached_paths}
    if a.stops:
        out["stops"] = to_json(a.stops)
    if a.finished_unwind:
        out["finished_unwind"] = a.finished_unwind
    if a.depends_on:
        out["depends_on"] = list(a.depends_on)
    if a.trace is not None:
        out["counterexample"] = to_json(a.trace)
    if a.invariants:
        out["invariants"] = [{"object": name, "invariant": text} for name, text in a.invariants]
    if a.summaries:
        out["summaries"] = [
            {**_position(s.span, report.path), "expr": s.expr, "pruned_runs": s.pruned_runs,
             **({"raw": s.raw} if s.raw else {})}
            for s in a.summaries
        ]
    return out


def finding_json(f: Finding, report: FileReport) -> dict:
    out = {"kind": f.kind.value, "path": f.span.file or report.path, **_position(f.span, report.path),
           "message": finding_message(f, with_inputs=False)[1]}
    if f.depends_on:
        out["depends_on"] = list(f.depends_on)
    if f.trace is not None:
        out["trace"] = to_json(f.trace)
    return out


def file_json(report: FileReport, options: Options) -> dict:
    out = {
        "path": report.path,
        "assertions": [assertion_json(a, report, options) for a in sorted_assertions(report)],
        "findings": [finding_json(f, report) for f in sorted_findings(report)],
        "stats": to_json(report.stats),
    }
    if report.search is not None:
        out["findings_search"] = search_json(report.search)
    if report.positions:
        out["context"] = report.context
        out["from"] = [list(p) for p in report.positions]
        out["ingredients"] = {"reaching_defs": report.ingredients[0], "sync_invariants": report.ingredients[1]}
    if report.sha256:
        out["sha256"] = report.sha256
    if report.linked:
        out["linked"] = [{"path": p, "sha256": d} for p, d in report.linked]
    return out


def json_document(reports: list[FileReport], options: Options, version: str) -> dict:
    """The ``--format json`` document (see the module docstring)."""
    doc = {
        "version": JSON_VERSION,
        "tool": {"name": "distaff", "version": version},
        "options": options_json(options),
        "files": [file_json(r, options) for r in reports],
    }
    answer = property_answer(reports, options)
    if answer is not None:
        doc["property"] = {"name": options.property, "answer": answer}
    return doc


def property_answer(reports: list[FileReport], options: Options) -> str | None:
    """With ``options.property``, the answer as SV-COMP reads one: ``false``
    when an error call is reached, ``true`` only when every one of them is
    proven unreachable (a bounded search is not a proof), else ``unknown``;
    None without a property."""
    if options.property is None:
        return None
    if any(a.status is Status.VIOLATED for r in reports for a in r.assertions):
        return "false"
    wanted = [a for r in reports for a in r.assertions if a.reason is not Reason.SKIPPED]
    front = any(f.kind in (FindingKind.SYNTAX, FindingKind.UNSUPPORTED) for r in reports for f in r.findings)
    return "true" if all(a.status.proof for a in wanted) and not front else "unknown"


# --------------------------------------------------------------------------
# SARIF 2.1.0


@dataclass(frozen=True, slots=True)
class _Rule:
    id: str
    text: str


_RULES = (
    _Rule("assertion-violated", "An assertion can fail for some input and thread schedule."),
    _Rule("assertion-undecided", "The check of an assertion ended before it was decided."),
    _Rule("assertion-holds", "An assertion holds on every execution: a proof."),
    _Rule("assertion-bounded", "No run within the unwind bound violates an assertion, but the bound stopped "
          "some thread: not a proof."),
    _Rule("assertion-unreachable", "No execution reaches an assertion: a proof."),
    _Rule("deadlock", "Some schedule leaves threads waiting with none able to run."),
    _Rule("stuck", "Some schedule leaves a thread spinning forever: what its loop waits for never changes."),
    _Rule("runtime-error", "A run has undefined behaviour (division by zero, bad pointer, overflow)."),
    _Rule("data-race", "Two threads access the same memory without order, at least one writing."),
    _Rule("syntax-error", "The text could not be parsed; the file's assertions were not checked."),
    _Rule("unsupported", "A construct outside the C that distaff models."),
)
_RULE_INDEX = {r.id: i for i, r in enumerate(_RULES)}

_STATUS_RULE = {
    Status.VIOLATED: ("assertion-violated", "error", "fail"),
    Status.UNKNOWN: ("assertion-undecided", "none", "review"),  # SARIF: a kind other than fail has level none
    Status.HOLDS: ("assertion-holds", "none", "pass"),  # pass: proofs only
    Status.BOUNDED: ("assertion-bounded", "none", "informational"),
    Status.UNREACHABLE: ("assertion-unreachable", "none", "notApplicable"),
}
_FINDING_RULE = {
    FindingKind.ASSERTION: "assertion-violated", FindingKind.DEADLOCK: "deadlock", FindingKind.STUCK: "stuck",
    FindingKind.ERROR: "runtime-error", FindingKind.DATA_RACE: "data-race",
    FindingKind.SYNTAX: "syntax-error", FindingKind.UNSUPPORTED: "unsupported",
}


def artifact_uri(path: str) -> str:
    """A relative path as a relative URI reference; an absolute one as file: URI."""
    p = pathlib.PurePath(path)
    if p.is_absolute():
        return pathlib.Path(path).as_uri()
    return urllib.parse.quote(p.as_posix())


def _location(span: Span, path: str, message: str | None = None) -> dict:
    region = {"startLine": max(span.line, 1), "startColumn": max(span.col, 1)}
    if span.end_line >= span.line and span.end_line > 0:
        region["endLine"] = span.end_line
        if span.end_col > 0:
            region["endColumn"] = span.end_col
    loc = {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(span.file or path)},
                                "region": region}}
    if message is not None:
        loc["message"] = {"text": message}
    return loc


def code_flow(trace: Trace, path: str) -> dict:
    """The schedule of a trace as one code flow: a thread flow per thread, in
    order of first appearance; ``executionOrder`` numbers the steps globally."""
    flows: dict[int, dict] = {}
    for order, step in enumerate(trace.steps, start=1):
        flow = flows.setdefault(step.tid, {"id": step.thread, "message": {"text": f"thread {step.thread}"},
                                           "locations": []})
        flow["locations"].append({
            "location": _location(step.span, path, f"[{step.thread}] {step.action}"),
            "executionOrder": order,
        })
    threads = ", ".join(f["id"] for f in flows.values())
    return {"message": {"text": f"schedule over threads {threads}" if threads else "schedule"},
            "threadFlows": list(flows.values())}


def _sarif_result(rule: str, level: str, kind: str, message: str, span: Span, path: str,
                  trace: Trace | None, properties: dict) -> dict:
    result = {"ruleId": rule, "ruleIndex": _RULE_INDEX[rule], "kind": kind, "level": level,
              "message": {"text": message}, "locations": [_location(span, path)],
              "properties": properties}
    if trace is not None and trace.steps:
        result["codeFlows"] = [code_flow(trace, path)]
    if trace is not None:
        properties["inputs"] = [{"name": i.name, "value": i.value} | ({"text": i.text} if i.text else {})
                                for i in trace.inputs]
    return result


def _search_notifications(reports: list[FileReport]) -> list[dict]:
    """A warning for each file whose search for findings did not finish."""
    out = []
    for r in reports:
        note = search_note(r.search)
        if note:
            out.append({"level": "warning", "descriptor": {"id": "findings-search"},
                        "message": {"text": f"{r.path}: {note}"},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(r.path)}}}]})
    return out


def sarif_log(reports: list[FileReport], options: Options, version: str) -> dict:
    """A SARIF 2.1.0 log of one run of distaff over ``reports``: every
    assertion is a result (holding ones with kind ``pass``), every finding too."""
    results = []
    for report in reports:
        for a in sorted_assertions(report):
            rule, level, kind = _STATUS_RULE[a.status]
            severity, msg = assertion_message(a, options, report)
            if severity == "warning" and level == "error":
                level = "warning"
            props = {"status": a.status.label, "assertion": a.text, "stats": to_json(a.stats)}
            if a.stops:
                props["stops"] = to_json(a.stops)
            if a.reason:
                props["reason"] = a.reason.value
            results.append(_sarif_result(rule, level, kind, msg, a.span, report.path, a.trace, props))
        for f in sorted_findings(report):
            severity, msg = finding_message(f)
            level = {"error": "error", "warning": "warning"}.get(severity, "note")
            results.append(_sarif_result(_FINDING_RULE[f.kind], level, "fail", msg, f.span,
                                         report.path, f.trace, {"kind": f.kind.value}))
    driver = {
        "name": "distaff", "version": version,
        "rules": [{"id": r.id, "shortDescription": {"text": r.text}} for r in _RULES],
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "columnKind": "unicodeCodePoints",
            "artifacts": [{"location": {"uri": artifact_uri(p)}} for p in dict.fromkeys(
                p for r in reports for p in r.files)],
            "invocations": [{"executionSuccessful": True,
                             "toolExecutionNotifications": _search_notifications(reports),
                             "properties": {"options": options_json(options),
                                            "findings_search": {r.path: search_json(r.search) for r in reports
                                                                if r.search is not None}}}],
            "results": results,
        }],
    }
