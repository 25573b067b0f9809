"""From distaff's results to LSP values: diagnostics, hovers, code lenses,
code actions. Pure functions of their arguments; no I/O and no analysis.

The words come from :mod:`distaff.server.wording`.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from distaff.analysis import ir
from distaff.analysis.ir import AssertionSite, Span
from distaff.analysis.options import Options
from distaff.analysis.report import AssertionResult, Finding, FindingsSearch, Status, Trace
from distaff.server.documents import Snapshot
from distaff.server.wording import assertion_message, finding_message, input_names, input_value, search_note

SOURCE = "distaff"
CONTEXT_SOURCE = "distaff (context)"

CHECK_FILE = "distaff.checkFile"
CHECK_FROM_HERE = "distaff.checkFromHere"
PIN_THREAD = "distaff.pinThread"
CLEAR_CONTEXT = "distaff.clearContext"
WRITE_REPRODUCER = "distaff.writeReproducer"

MAX_FOLDED_STEPS = 60


# --------------------------------------------------------------------------
# positions


def lsp_range(snapshot: Snapshot, span: Span) -> lsp.Range:
    """The range of ``span`` in the document; a span elsewhere (a header, a
    built-in) maps to the document's first character."""
    if not snapshot.covers(span):
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    l0, c0 = snapshot.lsp_position(span.line, span.col)
    end_line, end_col = (span.end_line, span.end_col) if span.end_line > 0 else (span.line, span.col)
    l1, c1 = snapshot.lsp_position(end_line, end_col)
    if (l1, c1) < (l0, c0):
        l1, c1 = l0, c0
    return lsp.Range(lsp.Position(l0, c0), lsp.Position(l1, c1))


def _location(snapshot: Snapshot, span: Span) -> lsp.Location:
    if snapshot.covers(span) or not span.file.startswith("/"):
        return lsp.Location(snapshot.uri, lsp_range(snapshot, span))
    pos = lsp.Position(max(span.line - 1, 0), max(span.col - 1, 0))
    return lsp.Location(Path(span.file).as_uri(), lsp.Range(pos, pos))


def _where(snapshot: Snapshot, span: Span) -> str:
    if snapshot.covers(span):
        return f"line {span.line}"
    if span.line <= 0:
        return "built-in"
    return f"{Path(span.file).name}:{span.line}"


# --------------------------------------------------------------------------
# diagnostics


def _trace_parts(snapshot: Snapshot, trace: Trace | None, fold: bool):
    """(text to append to the message, relatedInformation)."""
    if trace is None or not trace.steps:
        return "", None
    names = input_names(trace)
    if fold:
        lines = [f"input {n} = {input_value(i)} ({_where(snapshot, i.span)})" for n, i in zip(names, trace.inputs)]
        steps = [
            f"{n}. {s.thread} ({_where(snapshot, s.span)}): {s.action}"
            for n, s in enumerate(trace.steps, 1)
        ]
        if len(steps) > MAX_FOLDED_STEPS:  # a message is read, not scrolled: keep the start and the end
            head, tail = MAX_FOLDED_STEPS // 4, MAX_FOLDED_STEPS - MAX_FOLDED_STEPS // 4
            steps = steps[:head] + [f"… {len(steps) - head - tail} more steps …"] + steps[-tail:]
        return "\nSchedule:\n" + "\n".join(lines + steps), None
    related = [
        lsp.DiagnosticRelatedInformation(_location(snapshot, i.span), f"input {n} = {input_value(i)}")
        for n, i in zip(names, trace.inputs)
    ]
    related += [
        lsp.DiagnosticRelatedInformation(_location(snapshot, s.span), f"{n}. {s.thread}: {s.action}")
        for n, s in enumerate(trace.steps, 1)
    ]
    return "", related


SEVERITY = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "note": lsp.DiagnosticSeverity.Information,
}


def _code(result: AssertionResult) -> str:
    if result.status is Status.UNKNOWN and result.reason is not None:
        return result.reason.value
    return result.status.label


def assertion_diagnostic(
    snapshot: Snapshot, result: AssertionResult, options: Options | None = None, *, fold: bool,
    source: str = SOURCE, prefix: str = "",
) -> lsp.Diagnostic:
    """An assertion's verdict in the words of the command line
    (:func:`distaff.server.wording.assertion_message`), its counterexample
    folded into the message or as related information."""
    severity, message = assertion_message(result, options)
    extra, related = _trace_parts(snapshot, result.trace, fold) if result.status is Status.VIOLATED else ("", None)
    return lsp.Diagnostic(
        range=lsp_range(snapshot, result.span),
        message=prefix + message + extra,
        severity=SEVERITY[severity],
        code=_code(result),
        source=source,
        related_information=related,
        data={"assertion": result.id},
    )


def finding_diagnostic(
    snapshot: Snapshot, finding: Finding, *, fold: bool, source: str = SOURCE, prefix: str = "",
) -> lsp.Diagnostic:
    """A finding of a check (deadlock, race, run-time error), in the words
    of the command line."""
    severity, message = finding_message(finding)
    extra, related = _trace_parts(snapshot, finding.trace, fold)
    return lsp.Diagnostic(
        range=lsp_range(snapshot, finding.span),
        message=prefix + message + extra,
        severity=SEVERITY[severity],
        code=finding.kind.value,
        source=source,
        related_information=related,
    )


def front_end_diagnostic(snapshot: Snapshot, finding: ir.Finding) -> lsp.Diagnostic:
    """A syntax error or unsupported construct met by the front end; one in
    another file (a header) names where."""
    severity, message = finding_message(Finding(finding.kind, finding.span, finding.message))
    if not snapshot.covers(finding.span) and finding.span.line > 0:
        message = f"{_where(snapshot, finding.span)}: {message}"
    return lsp.Diagnostic(
        range=lsp_range(snapshot, finding.span),
        message=message,
        severity=SEVERITY[severity],
        code=finding.kind.value,
        source=SOURCE,
    )


def search_diagnostic(snapshot: Snapshot, search: FindingsSearch, source: str = SOURCE) -> lsp.Diagnostic | None:
    """A search for findings that did not finish, said on the first line (the
    findings shown may not be all); None when it finished or was not needed."""
    note = search_note(search)
    if not note:
        return None
    return _first_line(note[0].upper() + note[1:], lsp.DiagnosticSeverity.Information,
                       "findings-search-unfinished", source)


def problem_diagnostic(snapshot: Snapshot, message: str, source: str = SOURCE) -> lsp.Diagnostic:
    """A check that went wrong as a whole (crash, deadline), on the first line."""
    return _first_line(message, lsp.DiagnosticSeverity.Warning, "check-failed", source)


def _first_line(message: str, severity: lsp.DiagnosticSeverity, code: str, source: str) -> lsp.Diagnostic:
    """A diagnostic about the whole check, at the start of the file."""
    return lsp.Diagnostic(range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), message=message,
                          severity=severity, code=code, source=source)


# --------------------------------------------------------------------------
# hover


def contains(span: Span, line: int, col: int) -> bool:
    """True when 1-based (line, col) lies in ``span``; a span without an
    extent covers its whole first line."""
    if span.line <= 0:
        return False
    if span.end_line <= 0 or (span.end_line, span.end_col) <= (span.line, span.col):
        return line == span.line
    return (span.line, span.col) <= (line, col) < (span.end_line, span.end_col)


def assertion_hover(result: AssertionResult | None, site: AssertionSite, checking: bool,
                    options: Options | None = None) -> str:
    if result is None:
        return f"**distaff** · `{site.text or 'assertion'}`: " + ("checking…" if checking else "not checked yet")
    s = result.stats
    lines = [f"**distaff** · {assertion_message(result, options)[1]}"]
    detail = [f"{s.runs} runs ({s.full_runs} full, {s.pruned_runs} pruned)"]
    if s.bound_cuts:
        detail.append(f"{s.bound_cuts} cut by the bound")
    detail.append(f"{s.solver_calls} solver calls ({s.solver_time_s:.2f} s)")
    detail.append(f"{s.time_s:.2f} s")
    if result.mode:
        detail.append(f"mode {result.mode}")
    lines.append(" · ".join(detail))
    if result.context:
        lines.append(f"from context: {result.context}")
    return "\n\n".join(lines)


def summaries_hover(results, line: int, col: int) -> str | None:
    """The predicate summaries stored at the statement under (line, col): the
    summaries whose span contains the position, else those on its line (a
    summary sits on one instruction, e.g. the read in ``b = x;``)."""
    parts = []
    for r in results:
        here = [s for s in r.summaries if contains(s.span, line, col)] or \
            [s for s in r.summaries if s.span.line == line]
        for summary in here:
            pruned = f"pruned {summary.pruned_runs} run{'s' if summary.pruned_runs != 1 else ''}"
            if summary.expr.strip() in ("1", "true"):
                parts.append(f"Predicate summary for `{r.text}` ({pruned}): true, "
                             "no explored run through here violates it")
            else:
                parts.append(f"Predicate summary for `{r.text}` ({pruned}):\n```c\n{summary.expr}\n```")
    return "\n\n".join(parts) if parts else None


def invariants_hover(results, name: str, shown: str) -> str | None:
    """The invariants of the global ``name`` (in a linked program, as the
    results show it: ``shown``) that proofs for any number of threads rest on
    (the thread-modular prover), with the assertions proved."""
    found: dict[str, list[str]] = {}
    for r in results:
        for obj, text in r.invariants:
            if obj in (name, shown):
                found.setdefault(text, []).append(f"`{r.text}`")
    return "\n\n".join(f"Invariant for any number of threads: `{shown}` {text} (proves {', '.join(proved)})"
                       for text, proved in found.items()) or None


def sharing_hover(sharing, gvar: ir.GlobalVar) -> str:
    def names(xs):
        return ", ".join(f"`{x}`" for x in xs) if xs else "no thread"

    lines = [f"**distaff** · global `{gvar.name}` ({gvar.type})"]
    lines.append(f"read by {names(sharing.readers)}; written by {names(sharing.writers)}")
    if sharing.synchronizers:
        lines.append(f"synchronized on by {names(sharing.synchronizers)}")
    lines.append(
        ("shared between threads" if sharing.shared else "used by one thread only")
        + " (direct accesses; accesses through pointers are not shown)"
    )
    return "\n\n".join(lines)


def hover(markdown_parts: list[str]) -> lsp.Hover | None:
    parts = [p for p in markdown_parts if p]
    if not parts:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n\n---\n\n".join(parts)))


# --------------------------------------------------------------------------
# code lenses and actions


def position_args(snapshot: Snapshot, span: Span) -> list:
    """Command arguments naming a position: ``[{uri, line, character}]``
    (0-based, LSP units), the form the editors' palette commands send too."""
    line0, char = snapshot.lsp_position(span.line, span.col)
    return [{"uri": snapshot.uri, "line": line0, "character": char}]


def assertion_lens(snapshot: Snapshot, site: AssertionSite, title: str) -> lsp.CodeLens:
    return lsp.CodeLens(
        range=lsp_range(snapshot, site.span),
        command=lsp.Command(title=title, command=CHECK_FILE, arguments=[{"uri": snapshot.uri}]),
    )


def entry_lens(snapshot: Snapshot, function: ir.Function) -> lsp.CodeLens:
    first = next((i.span for i in function.body if snapshot.covers(i.span)), function.span)
    return lsp.CodeLens(
        range=lsp_range(snapshot, function.span),
        command=lsp.Command(title="Check from here", command=CHECK_FROM_HERE,
                            arguments=position_args(snapshot, first)),
    )


def pin_lens(snapshot: Snapshot, line: int, col: int) -> lsp.CodeLens:
    l0, c0 = snapshot.lsp_position(line, col)
    pos = lsp.Position(l0, c0)
    return lsp.CodeLens(
        range=lsp.Range(pos, pos),
        command=lsp.Command(title="thread pinned here · clear", command=CLEAR_CONTEXT,
                            arguments=[{"uri": snapshot.uri}]),
    )


def code_actions(snapshot: Snapshot, statement: Span | None, has_context: bool,
                 violated: Span | None = None) -> list[lsp.Command]:
    """The code actions at a position, as plain commands: every client runs
    those, and pygls-based clients misread a CodeAction that has a command.
    ``violated``: the span of a violated assertion at the position."""
    out = []
    if violated is not None:
        out.append(lsp.Command("Write a reproducer", WRITE_REPRODUCER, arguments=position_args(snapshot, violated)))
    if statement is not None:
        args = position_args(snapshot, statement)
        out.append(lsp.Command("Check from here", CHECK_FROM_HERE, arguments=args))
        out.append(lsp.Command("Pin this thread here", PIN_THREAD, arguments=args))
    if has_context:
        out.append(lsp.Command("Clear context results and pins", CLEAR_CONTEXT,
                               arguments=[{"uri": snapshot.uri}]))
    return out


def statement_at(function: ir.Function, line: int, col: int) -> Span | None:
    """Where the statement at (line, col) in ``function`` starts executing:
    the span of its first instruction. The statement is the widest
    instruction span containing the position (else the first instruction on
    that line); its first instruction is the lowest pc inside it, e.g. the
    read of ``x`` in ``a = x;``, so a context started there runs all of it."""
    containing = [(pc, i.span) for pc, i in enumerate(function.body) if contains(i.span, line, col)]
    if containing:
        stmt = max(containing, key=lambda c: ((c[1].end_line, c[1].end_col), (-c[1].line, -c[1].col)))[1]
    else:
        stmt = next((i.span for i in function.body if i.span.line == line), None)
        if stmt is None:
            return None

    def inside(s: Span) -> bool:
        return (stmt.line, stmt.col) <= (s.line, s.col) and (s.end_line, s.end_col) <= (stmt.end_line, stmt.end_col)

    return next((i.span for i in function.body if inside(i.span)), stmt)
