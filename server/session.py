"""What the server knows about each open document, and when it acts.

:class:`Session` is driven by the handlers of :mod:`distaff.server.app` and by the
scheduler's events, all on the event loop. Its rules:

* Every edit makes a new :class:`~distaff.server.documents.Snapshot`, cancels the
  document's checks, and parses the new text off the loop (one parse at a
  time per document; a parse that finishes for an older text is redone for
  the newest). Syntax and unsupported findings are published as soon as the
  parse of the current text is done.
* Diagnostics are published only from the parse of the current version and
  the results of checks of that same version, tagged with that version.
  Results of any other version are dropped on arrival.
* A check starts on open and save (``checkOn: save``), after a quiet
  ``debounceMs`` on change (``checkOn: change``), or when asked. A file with
  syntax errors is not checked (its assertions say so; none "holds").
  Assertions whose cached result still applies (:mod:`distaff.server.cache`) are
  shown at once; when all of them and the run's findings are known, no
  check runs.
* "Check from here" runs beside the whole-program check, from the context
  of the cursor's thread and the pinned threads; its results carry their own
  source and can be cleared.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from lsprotocol import types as lsp

from distaff.analysis import ir
from distaff.analysis.options import Options
from distaff.analysis.report import AssertionResult, Finding, FindingKind, FindingsSearch, Reason, Status
from distaff.server import convert
from distaff.server.api import write_reproducer
from distaff.server.cache import DECIDED, ProgramDigest, ResultCache, options_key, program_digest
from distaff.server.documents import ParsedDocument, Snapshot, build_flags_for, parse_snapshot, syntax_findings
from distaff.server.linked import KEY_PREFIX, LinkedChecks, LinkedState, database_listing
from distaff.server.outcomes import CONTEXT, PROGRAM, DocumentState, Outcomes
from distaff.server.progress import CheckProgress
from distaff.server import wording
from distaff.server.scheduler import (
    DEFAULT_CHECK_FN, DONE, CheckRequest, CheckRun, Finished, Item, RunState, Scheduler, Started,
)
from distaff.analysis.context import program_context
from distaff.server.settings import Settings, parse_settings
from distaff.server.sharing import sharing_of, thread_functions

log = logging.getLogger(__name__)

# Above this many lines, syntax errors are published from a parse alone
# (milliseconds) before the full front end (hundreds of milliseconds) is done.
QUICK_SYNTAX_LINES = 300


def _digest(program: ir.Program) -> ProgramDigest | None:
    try:
        return program_digest(program)
    except Exception:
        log.exception("digest of %s failed", program.path)
        return None


class Session(LinkedChecks):
    """See the module docstring. ``ls`` is the pygls server (or a stand-in
    with the same methods); ``check_fn`` is passed to the scheduler."""

    def __init__(self, ls, *, check_fn: str = DEFAULT_CHECK_FN, max_parallel: int = 2):
        self.ls = ls
        self.check_fn = check_fn
        self.max_parallel = max_parallel
        self.settings = Settings()
        self.client_name = ""
        self.docs: dict[str, DocumentState] = {}
        self.cache = ResultCache()
        self._scheduler: Scheduler | None = None
        self._parse_pool = ThreadPoolExecutor(4, thread_name_prefix="distaff-parse")
        # Load the grammar and the front end now, not on the first open.
        self._parse_pool.submit(parse_snapshot, Snapshot.of("file:///warm-up.c", 0, "int main(void) { return 0; }\n"))
        self.progress = CheckProgress(ls, lambda: self.client_supports("window.work_done_progress"))
        self._lens_refresh: asyncio.TimerHandle | None = None
        self._said_flags: dict[str, str] = {}  # uri -> what the log last said of its build flags
        self.linked: dict[str, LinkedState] = {}  # programs of several files, by their scheduler key

    # -- plumbing ----------------------------------------------------------

    @property
    def scheduler(self) -> Scheduler:
        if self._scheduler is None:
            self._scheduler = Scheduler(
                self._on_event, check_fn=self.check_fn, max_parallel=self.max_parallel,
                loop=asyncio.get_running_loop(),
            )
        return self._scheduler

    def close(self) -> None:
        if self._scheduler is not None:
            self._scheduler.close()
        self._parse_pool.shutdown(wait=False, cancel_futures=True)

    def client_supports(self, dotted: str) -> bool:
        """Whether the client declared a capability, by its dotted path in
        :class:`lsprotocol.types.ClientCapabilities` (snake_case)."""
        node = getattr(self.ls, "client_capabilities", None)
        for part in dotted.split("."):
            node = getattr(node, part, None)
            if node is None:
                return False
        return bool(node)

    def fold_traces(self) -> bool:
        mode = self.settings.trace_in_message
        if mode != "auto":
            return mode == "always"
        neovim = self.client_name.lower() in ("neovim", "nvim")
        return neovim or not self.client_supports("text_document.publish_diagnostics.related_information")

    def apply_settings(self, raw) -> tuple[str, ...]:
        """Take new settings. When the options of a check change (mode,
        bounds, races, limits, ...), the open documents are checked again
        where that can change what they show (every result for what a check
        computes; running checks and undecided results for its limits),
        unless checks are manual: the settings a client sends just after
        start-up may arrive after a document's first check began."""
        before = self.settings.options()
        self.settings, problems = parse_settings(raw, self.settings)
        for p in problems:
            log.warning("%s", p)
        if problems:
            self.ls.window_show_message(lsp.ShowMessageParams(
                type=lsp.MessageType.Warning, message="distaff: " + "; ".join(problems)))
        if self.settings.options() != before and self.settings.check_on != "manual":
            for st in list(self.docs.values()):
                self._start(st, PROGRAM, 0.0)
        return problems

    def _snapshot(self, uri: str) -> Snapshot:
        doc = self.ls.workspace.get_text_document(uri)
        encoding = getattr(self.ls.workspace, "position_encoding", None) or "utf-16"
        return Snapshot.of(uri, doc.version, doc.source, str(getattr(encoding, "value", encoding)))

    # -- document events ---------------------------------------------------

    def opened(self, uri: str) -> None:
        st = DocumentState(self._snapshot(uri))
        self.docs[uri] = st
        if self.settings.check_on != "manual":
            st.want_check = 0.0
        self._text_changed(st)

    def changed(self, uri: str) -> None:
        st = self.docs.get(uri)
        if st is None:
            return self.opened(uri)
        st.snapshot = self._snapshot(uri)
        if self.settings.check_on == "change":
            st.want_check = self.settings.debounce_ms / 1000
        self._text_changed(st)

    def saved(self, uri: str) -> None:
        st = self.docs.get(uri)
        if st is not None and self.settings.check_on != "manual":
            self._start(st, PROGRAM, 0.0)

    def closed(self, uri: str) -> None:
        st = self.docs.pop(uri, None)
        if self._scheduler is not None:
            self._scheduler.cancel(uri)
        if st is not None and st.parse_task is not None:
            st.parse_task.cancel()
        self.ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if st is not None and st.linked is not None:
            key, st.linked = st.linked, None
            self._leave(st, key)
            self._relink_after_close(st.snapshot.path)  # the saved text stands for it now

    def _text_changed(self, st: DocumentState) -> None:
        st.program = Outcomes(PROGRAM, st.snapshot.version)
        st.context = None
        if self._scheduler is not None:
            self._scheduler.cancel(st.snapshot.uri)
        for state in self.linked.values():  # its programs' results were for the text before
            if state.holds(st.snapshot.path):
                if self._scheduler is not None:
                    self._scheduler.cancel(state.key)
                state.outcomes = Outcomes(PROGRAM, None)
        if st.parse_task is None or st.parse_task.done():
            st.parse_task = asyncio.ensure_future(self._parse_latest(st.snapshot.uri))

    async def _parse_latest(self, uri: str) -> None:
        """Parse the newest text; publish its findings; then key it for the
        cache (slower, so after the findings are out) and start a wanted check."""
        loop = asyncio.get_running_loop()
        while (st := self.docs.get(uri)) is not None:
            snapshot = st.snapshot
            flags, said = await loop.run_in_executor(self._parse_pool, build_flags_for, snapshot.path)
            st.database = await loop.run_in_executor(self._parse_pool, database_listing, snapshot.path)
            self._say_flags(uri, said)
            if len(snapshot.lines) > QUICK_SYNTAX_LINES:
                errors = await loop.run_in_executor(self._parse_pool, syntax_findings, snapshot, flags)
                st = self.docs.get(uri)
                if st is None or st.snapshot is not snapshot:
                    continue
                if errors:
                    self._publish_front_end(snapshot, errors)
            parsed = await loop.run_in_executor(self._parse_pool, parse_snapshot, snapshot, ir.DataModel.LP64, flags)
            st = self.docs.get(uri)
            if st is None or st.snapshot is not snapshot:
                continue
            st.parsed, st.digest = parsed, None
            self.publish(st)
            if st.database is not None and parsed.program is not None:
                how = await self._link(st)
                if how == "stale":
                    continue
                if how != "other":
                    self._cascade(st)
                if how != "alone":
                    return
            if parsed.program is not None and not parsed.has_syntax_errors:
                digest = await loop.run_in_executor(self._parse_pool, _digest, parsed.program)
                st = self.docs.get(uri)
                if st is None or st.snapshot is not snapshot:
                    continue
                st.digest = digest
                if self._reuse_cached(st):
                    self.publish(st)
            self._parsed(st)
            return

    def _say_flags(self, uri: str, said: str) -> None:
        """Say in the client's log which compile_commands.json entry gives the
        document its build flags (or why none does), whenever that changes."""
        if said and self._said_flags.get(uri) != said:
            log.info("%s", said)
            self.ls.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Info, message=f"distaff: {said}"))
        self._said_flags[uri] = said

    async def current_parse(self, uri: str, timeout: float = 10.0) -> ParsedDocument | None:
        """The parse of the document's current text, waiting for it if needed."""
        deadline = time.monotonic() + timeout
        while (st := self.docs.get(uri)) is not None and st.current is None:
            if st.parse_task is None or st.parse_task.done() or time.monotonic() > deadline:
                return None
            await asyncio.sleep(0.005)
        return st.current if st is not None else None

    def _parsed(self, st: DocumentState) -> None:
        self.refresh_lenses()
        if st.want_check is not None:
            delay, st.want_check = st.want_check, None
            self._start(st, PROGRAM, delay)

    def _reuse_cached(self, st: DocumentState) -> bool:
        """Take the cached results that apply to the current text; True if any."""
        if st.digest is None:
            return False
        options = self.settings.options()
        results, findings = self.cache.lookup(st.digest, options)
        outcomes = st.program
        outcomes.results.update(results)
        outcomes.options = options
        if findings is not None and len(results) == len(st.digest.sites):
            outcomes.findings = list(findings)
            outcomes.complete = True
        return bool(results)

    # -- checks ------------------------------------------------------------

    def _start(self, st: DocumentState, kind: str, delay: float = 0.0, context=None,
               label: str = "") -> CheckRun | None:
        """Start a check of the current text; None when none is needed (or
        possible): the parse is pending (the check starts after it), the text
        has syntax errors, or every result is known already. A document of a
        program of several files starts its program's check."""
        if kind == PROGRAM and st.linked is not None and st.current is not None and st.linked in self.linked:
            return self._start_linked(self.linked[st.linked], delay)
        parsed = st.current
        if parsed is None:
            st.want_check = delay if st.want_check is None else min(delay, st.want_check)
            return None
        program = parsed.program
        if program is None or parsed.has_syntax_errors:
            return None
        options = self.settings.options()
        okey = options_key(options)
        version = st.snapshot.version
        if kind == PROGRAM:
            outcomes = st.program
            if outcomes.complete and outcomes.key == okey:
                return None
            running = self.scheduler.current(st.snapshot.uri, PROGRAM)
            same = running is not None and running.request.version == version \
                and running.request.options == options
            if same and (running.state is RunState.RUNNING or delay > 0):
                return running  # already checking this text (a save does not restart it)
            if outcomes.key != okey:
                st.program = outcomes = Outcomes(PROGRAM, version, options=options)
                self._reuse_cached(st)
            outcomes.options = options  # the limits its words quote
            # what the last run left undecided is checked again; its findings come again
            outcomes.results = {k: r for k, r in outcomes.results.items() if r.status in DECIDED}
            outcomes.findings = []
            outcomes.search = None
        else:
            approximate = getattr(context, "approximate", getattr(context, "naive", True))
            outcomes = st.context = Outcomes(CONTEXT, version, options=options, label=label,
                                             approximate=approximate)
        outcomes.run_id = None  # the run this replaces is not current any more
        request = CheckRequest(
            st.snapshot.uri, version, kind, program, options, context, expected=len(program.assertions()),
        )
        run = self.scheduler.submit(request, delay)
        outcomes.run_id = run.id
        outcomes.checking = True
        outcomes.problem = ""
        self.publish(st)
        self.refresh_lenses()
        return run

    def _current(self, run: CheckRun) -> tuple[DocumentState, Outcomes] | None:
        req = run.request
        st = self.docs.get(req.uri)
        if st is None or st.snapshot.version != req.version or st.current is None:
            return None
        outcomes = st.program if req.kind == PROGRAM else st.context
        if outcomes is None or outcomes.run_id != run.id:
            return None
        return st, outcomes

    def _on_event(self, event) -> None:
        run = event.run
        if run.request.uri.startswith(KEY_PREFIX):
            return self._on_linked_event(event)
        if isinstance(event, Finished):
            found = self._current(run)
            results = found[1].results.values() if found else ()
            self.progress.end(run.id, wording.counts_line(results) if event.outcome is DONE
                              else event.outcome.value)
            if found:
                self._finished(*found, run, event)
            return
        found = self._current(run)
        if found is None:
            return
        st, outcomes = found
        if isinstance(event, Started):
            name = Path(st.snapshot.path).name
            title = f"distaff: checking {name}" + (f" from {outcomes.label}" if outcomes.kind == CONTEXT else "")
            self.progress.begin(run.id, title, run.request.expected,
                                lambda: self.scheduler.stop(run, Reason.CANCELLED, "cancelled by the user"))
        elif isinstance(event, Item):
            item = event.item
            if isinstance(item, AssertionResult):
                outcomes.results[item.id] = item
                if outcomes.kind == PROGRAM and st.digest is not None:
                    self.cache.put_result(st.digest, run.request.options, item)
                self.progress.advance(run.id)
            elif isinstance(item, Finding):
                if item.kind in (FindingKind.SYNTAX, FindingKind.UNSUPPORTED):
                    return  # the parse of this text reported them already
                outcomes.findings.append(item)
            elif isinstance(item, FindingsSearch):
                outcomes.search = item
            else:
                return
            self.publish(st)
            self.refresh_lenses()

    def _finished(self, st: DocumentState, outcomes: Outcomes, run: CheckRun, event: Finished) -> None:
        outcomes.checking = False
        program = st.current.program
        if event.outcome is DONE:
            if outcomes.kind == PROGRAM and st.digest is not None and outcomes.findings_known:
                self.cache.put_findings(st.digest, run.request.options, outcomes.findings)
            outcomes.complete = all(
                (r := outcomes.results.get(s.id)) is not None and r.status in DECIDED
                for s in program.assertions()
            )
        else:
            reason = event.outcome
            for site in program.assertions():
                if site.id not in outcomes.results:
                    outcomes.results[site.id] = AssertionResult(
                        site.id, site.span, site.text, Status.UNKNOWN, reason=reason,
                        message=event.message if reason in (Reason.CRASHED, Reason.MEMORY) else "",
                        unwind=run.request.options.unwind, mode=run.request.options.mode,
                    )
            if event.outcome is not Reason.CANCELLED:
                outcomes.problem = f"distaff: the check stopped: {event.message}"
        self.publish(st)
        self.refresh_lenses()

    # -- publishing --------------------------------------------------------

    def publish(self, st: DocumentState) -> None:
        parsed = st.current
        if parsed is None:
            return  # the parse of the current text publishes when done
        snap = parsed.snapshot
        fold = self.fold_traces()
        diags = [convert.front_end_diagnostic(snap, f) for f in parsed.findings]
        linked = st.linked is not None or st.link_problem
        if linked:
            diags += self.linked_diagnostics(st, snap, fold)
        for outcomes in (None if linked else st.program, st.context):
            if outcomes is not None:
                diags += self._outcome_diagnostics(snap, outcomes, fold)
        self.ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=snap.uri, diagnostics=diags, version=snap.version))

    def _publish_front_end(self, snap: Snapshot, findings) -> None:
        """Early syntax errors of the current text, before its full parse: a
        file with syntax errors has nothing else to show."""
        diags = [convert.front_end_diagnostic(snap, f) for f in findings]
        self.ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=snap.uri, diagnostics=diags, version=snap.version))

    def _outcome_diagnostics(self, snap: Snapshot, outcomes: Outcomes, fold: bool) -> list:
        context = outcomes.kind == CONTEXT
        source = convert.CONTEXT_SOURCE if context else convert.SOURCE

        def prefix(engine_label: str = "") -> str:
            """"from line 20, context (reaching definitions, ...): ": where the
            check started and, in the engine's words, which ingredients its
            initial state had; "approximate" unless it had them all."""
            if not context:
                return ""
            if engine_label:
                approx = outcomes.approximate and "approximate" not in engine_label
                return f"from {outcomes.label}, {'approximate ' if approx else ''}{engine_label}: "
            return f"from {outcomes.label}, {'approximate context' if outcomes.approximate else 'context'}: "

        out = []
        for r in sorted(outcomes.results.values(), key=lambda r: (r.span.line, r.span.col)):
            if context and r.status is Status.UNREACHABLE:
                continue  # not reached from this context: nothing to say
            out.append(convert.assertion_diagnostic(snap, r, outcomes.options, fold=fold, source=source, prefix=prefix(r.context)))
        for f in outcomes.findings:
            out.append(convert.finding_diagnostic(snap, f, fold=fold, source=source, prefix=prefix()))
        if outcomes.search is not None:
            unfinished = convert.search_diagnostic(snap, outcomes.search, source)
            if unfinished is not None:
                out.append(unfinished)
        if outcomes.problem:
            out.append(convert.problem_diagnostic(snap, outcomes.problem, source))
        return out

    def refresh_lenses(self) -> None:
        if not self.client_supports("workspace.code_lens.refresh_support") or self._lens_refresh is not None:
            return

        def send():
            self._lens_refresh = None
            try:
                self.ls.workspace_code_lens_refresh(None)
            except Exception:
                log.exception("code lens refresh failed")

        self._lens_refresh = asyncio.get_running_loop().call_later(0.2, send)

    # -- requests ----------------------------------------------------------

    async def hover(self, uri: str, line0: int, character: int) -> lsp.Hover | None:
        parsed = await self.current_parse(uri)
        st = self.docs.get(uri)
        if parsed is None or parsed.program is None or st is None:
            return None
        snap, program = parsed.snapshot, parsed.program
        line, col = snap.span_position(line0, character)
        sites, outcomes, shared = program.assertions(), st.program, program
        linked = self.linked_sites(st)
        if linked is not None:  # the results are its program's, as are the globals' accesses
            state, sites = linked
            outcomes, shared = state.outcomes, state.program.linked.program
        parts = []
        for site in sites:
            if convert.contains(site.span, line, col):
                parts.append(convert.assertion_hover(outcomes.results.get(site.id), site, outcomes.checking,
                                                     outcomes.options))
                if st.context is not None and (r := st.context.results.get(site.id)) is not None:
                    parts.append(convert.assertion_hover(r, site, False, st.context.options))
        results = [self._here(r, snap.path) for r in outcomes.results.values()]
        if st.context is not None:
            results += list(st.context.results.values())
        parts.append(convert.summaries_hover(results, line, col))
        word = snap.word_at(line0, character)
        name = linked[0].program.linked.internal_name(snap.path, word) if linked and word else word
        gvar = shared.global_var(name) if name else None
        if gvar is not None and not gvar.is_string and not self._is_local(program, word, line, col):
            parts.append(convert.sharing_hover(sharing_of(shared, name), replace(gvar, name=word)))
            parts.append(convert.invariants_hover(outcomes.results.values(), name, word))
        return convert.hover(parts)

    @staticmethod
    def _here(result: AssertionResult, path: str) -> AssertionResult:
        """``result`` with only the summaries learned in the file ``path``
        (a linked program's results learn them in every file)."""
        if all(s.span.file == path for s in result.summaries):
            return result
        return replace(result, summaries=tuple(s for s in result.summaries if s.span.file == path))

    @staticmethod
    def _enclosing(program: ir.Program, line: int, col: int) -> ir.Function | None:
        for f in program.functions:
            if convert.contains(f.span, line, col):
                return f
        return None

    def _is_local(self, program: ir.Program, word: str, line: int, col: int) -> bool:
        f = self._enclosing(program, line, col)
        if f is None:
            return False
        if any(p.name == word for p in f.params) or any(v.name == word for v in f.stack):
            return True
        return any(getattr(getattr(i, "dst", None), "name", None) == word for i in f.body)

    def code_lenses(self, uri: str) -> list[lsp.CodeLens]:
        st = self.docs.get(uri)
        parsed = st.current if st is not None else None
        if parsed is None or parsed.program is None:
            return []
        snap, program = parsed.snapshot, parsed.program
        not_checked = "not checked: syntax errors" if parsed.has_syntax_errors else "not checked"
        sites, outcomes = program.assertions(), st.program
        linked = self.linked_sites(st)
        if linked is not None:
            sites, outcomes = linked[1], linked[0].outcomes
        lenses = []
        for site in sites:
            if not snap.covers(site.span):
                continue
            model = self.settings.memory_model
            title = wording.lens_title(outcomes.results.get(site.id), outcomes.checking, not_checked, model)
            ctx = st.context
            if ctx is not None and (ctx.checking or site.id in ctx.results):
                title += " · from here: " + wording.lens_title(ctx.results.get(site.id), ctx.checking,
                                                                memory_model=model)
            lenses.append(convert.assertion_lens(snap, site, title))
        for name in program.thread_routines():
            f = program.function(name)
            if name != program.entry and f is not None and snap.covers(f.span):
                lenses.append(convert.entry_lens(snap, f))
        lenses += [convert.pin_lens(snap, line, col) for line, col in st.pins]
        return lenses

    def code_actions(self, uri: str, line0: int, character: int) -> list[lsp.Command]:
        st = self.docs.get(uri)
        parsed = st.current if st is not None else None
        if parsed is None or parsed.program is None:
            return []
        snap, program = parsed.snapshot, parsed.program
        line, col = snap.span_position(line0, character)
        f = self._enclosing(program, line, col)
        statement = None
        if f is not None and f.name in thread_functions(program):
            statement = convert.statement_at(f, line, col)
        has_context = st.context is not None or bool(st.pins)
        violated = self._violation_at(st, line)
        return convert.code_actions(snap, statement, has_context, violated.span if violated else None)

    @staticmethod
    def _violation_at(st: DocumentState, line: int) -> AssertionResult | None:
        """The whole-program violation of the current version on ``line``."""
        outcomes = st.program
        if outcomes is None or outcomes.version != st.snapshot.version:
            return None
        return next((r for r in outcomes.results.values()
                     if r.status is Status.VIOLATED and r.trace is not None and r.span.line == line), None)

    # -- commands ----------------------------------------------------------

    async def _await_run(self, st: DocumentState, run: CheckRun | None, kind: str) -> dict:
        outcome = DONE
        if run is not None:
            try:
                outcome = await asyncio.shield(run.finished)
            except asyncio.CancelledError:  # $/cancelRequest of the command
                self.scheduler.stop(run, Reason.CANCELLED, "cancelled by the client")
                raise
        outcomes = st.program if kind == PROGRAM else st.context
        state = self.linked.get(st.linked) if kind == PROGRAM and st.linked else None
        if state is not None:  # its program's results, every file's
            outcomes = state.outcomes
        results = outcomes.results.values() if outcomes is not None else ()
        answer = {"uri": st.snapshot.uri, "version": st.snapshot.version,
                  "outcome": "done" if outcome is DONE else outcome.value,
                  "counts": wording.counts(results), "summary": wording.counts_line(results)}
        if state is not None:
            answer["files"] = [Path(f).as_uri() for f in state.files]
        return answer

    async def check_file(self, uri: str) -> dict:
        parsed = await self.current_parse(uri)
        st = self.docs.get(uri)
        if st is None or parsed is None:
            return {"uri": uri, "error": "the document is not open"}
        if parsed.program is None or parsed.has_syntax_errors:
            return {"uri": uri, "version": st.snapshot.version, "error": "not checked: the file has syntax errors"}
        run = self._start(st, PROGRAM)
        return await self._await_run(st, run, PROGRAM)

    async def check_from_here(self, uri: str, line0: int, character: int) -> dict:
        parsed = await self.current_parse(uri)
        st = self.docs.get(uri)
        if st is None or parsed is None or parsed.program is None or parsed.has_syntax_errors:
            return self._refuse(uri, "Check from here needs an open file without syntax errors")
        cursor = parsed.snapshot.span_position(line0, character)
        pins = [p for p in st.pins if p != cursor]
        try:
            context = program_context(parsed.program, [cursor] + pins)
        except ValueError as e:  # a position with no statement
            return self._refuse(uri, f"Check from here at line {cursor[0]}: {e}")
        label = f"line {cursor[0]}" + (f" with {len(pins)} pinned thread{'s' if len(pins) > 1 else ''}" if pins else "")
        run = self._start(st, CONTEXT, context=context, label=label)
        return await self._await_run(st, run, CONTEXT)

    def pin_thread(self, uri: str, line0: int, character: int) -> dict:
        st = self.docs.get(uri)
        parsed = st.current if st is not None else None
        if parsed is None or parsed.program is None:
            return self._refuse(uri, "Pin this thread here needs the file's parse; try again")
        pos = parsed.snapshot.span_position(line0, character)
        try:
            program_context(parsed.program, [pos])
        except (ValueError, ImportError, AttributeError) as e:
            return self._refuse(uri, f"Pin this thread here at line {pos[0]}: {e}")
        if pos not in st.pins:
            st.pins.append(pos)
        self.refresh_lenses()
        return {"uri": uri, "pins": [list(p) for p in st.pins]}

    def clear_context(self, uri: str) -> dict:
        st = self.docs.get(uri)
        if st is None:
            return {"uri": uri, "cleared": False}
        if self._scheduler is not None:
            self._scheduler.cancel(uri, CONTEXT)
        st.context = None
        st.pins = []
        self.publish(st)
        self.refresh_lenses()
        return {"uri": uri, "cleared": True}

    async def write_reproducer(self, uri: str, line0: int, character: int) -> dict:
        """Write the reproducer of the violation at the position into the
        folder ``.distaff`` beside the file (:mod:`distaff.analysis.playback`):
        the file on disk must be the text checked, as the reproducer includes it."""
        st = self.docs.get(uri)
        parsed = st.current if st is not None else None
        if parsed is None or parsed.program is None:
            return self._refuse(uri, "Write a reproducer needs the file's parse; try again")
        line, _ = parsed.snapshot.span_position(line0, character)
        result = self._violation_at(st, line)
        if result is None:
            return self._refuse(uri, f"Write a reproducer: no violation of this version at line {line}")
        path = parsed.snapshot.path
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                saved = f.read()
        except OSError as e:
            return self._refuse(uri, f"Write a reproducer: cannot read {path}: {e.strerror or e}")
        if saved != parsed.snapshot.text:
            return self._refuse(uri, "Write a reproducer: save the file first (the reproducer includes it)")
        out_dir = os.path.join(os.path.dirname(path), ".distaff")
        try:  # it replays the run: off the event loop
            rep = await asyncio.get_running_loop().run_in_executor(
                self._parse_pool, write_reproducer, parsed.program, result, st.program.options or Options(),
                path, out_dir, saved)
        except (OSError, ValueError) as e:  # ValueError: NotReproducible, or a trace that does not replay
            return self._refuse(uri, f"Write a reproducer: {e}")
        self.ls.window_show_message(lsp.ShowMessageParams(
            type=lsp.MessageType.Info, message=f"Wrote {rep.path}. Build: {rep.build}. Run: {rep.executable}"))
        if self.client_supports("window.show_document.support"):  # open it beside the program
            try:
                await self.ls.window_show_document_async(lsp.ShowDocumentParams(Path(rep.path).resolve().as_uri()))
            except Exception as e:  # noqa: BLE001 - the file is written; opening it is a courtesy
                log.info("showDocument of %s failed: %s", rep.path, e)
        return {"uri": uri, "path": rep.path, "build": rep.build, "run": rep.executable}

    def _refuse(self, uri: str, message: str) -> dict:
        self.ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message))
        return {"uri": uri, "error": message}
