"""The language server's programs of several files.

A document its ``compile_commands.json`` lists belongs to a program of
several files (:mod:`distaff.server.projects`). Every open document of that
program shares one :class:`LinkedState`: the program as last linked, from the
unsaved buffers of its open files and the saved copies of the others; the
results of its one check; and the files it published diagnostics to.

:class:`LinkedChecks` is the part of :class:`~distaff.server.session.Session`
that keeps them (a mixin: it works on the session's documents, scheduler,
cache and client). Its rules, beside the session's:

* After a document's parse, its program is linked again off the event loop
  (lowering is cached per file and content, so an edit lowers one file). A
  linking made from a text that changed meanwhile is dropped: the document
  that changed links again after its own parse.
* A document that is a program by itself (it has the ``main`` and uses no
  other file's definitions) is checked alone, as any other; one whose program
  does not link gets one diagnostic saying why, and no check.
* A result belongs to the file its span is in: each file's diagnostics are its
  share of the program's results (a file no editor has open too, without a
  version), and a file that no longer has any gets an empty list.
  A counterexample's steps in other files are related locations there.
* An edit of any file of the program cancels its check; the next one starts
  as the edited document's would (on save, or after the debounce on change),
  with the cached results of unchanged assertions shown at once.
* A program no ``main`` runs is not checked: each assertion is undecided,
  saying why (:func:`~distaff.analysis.link.not_entered`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp

from distaff.analysis.frontend.build_flags import find_compile_commands, flags_for
from distaff.analysis.link import LinkError, not_entered
from distaff.analysis.project import listed
from distaff.analysis.report import AssertionResult, Finding, FindingKind, FindingsSearch, Reason, Status
from distaff.server import convert, wording
from distaff.server.cache import DECIDED, ProgramDigest, options_key, program_digest
from distaff.server.documents import Snapshot
from distaff.server.outcomes import PROGRAM, DocumentState, Outcomes
from distaff.server.projects import LinkedProgram, Project, ProjectError, entry_note, linked_note
from distaff.server.scheduler import DONE, CheckRequest, CheckRun, Finished, Item, RunState, Started

log = logging.getLogger(__name__)

KEY_PREFIX = "distaff-program:"  # the scheduler's "uri" of a linked program's check


@dataclass
class LinkedState:
    """One program of several files: ``key`` names it to the scheduler,
    ``program`` is its last linking (``generation`` counts them) and
    ``outcomes`` that linking's results; ``published`` the files no editor
    has open whose diagnostics hold some of them."""

    key: str
    program: LinkedProgram
    digest: ProgramDigest | None = None
    generation: int = 0
    outcomes: Outcomes | None = None
    published: dict[str, list] = field(default_factory=dict)  # closed file's uri -> its diagnostics sent

    @property
    def files(self) -> tuple[str, ...]:
        return self.program.files

    def holds(self, path: str) -> bool:
        real = os.path.realpath(path)
        return any(os.path.realpath(f) == real for f in self.files)

    @property
    def name(self) -> str:
        """For a progress title: ``main.c + 3 files``."""
        others = len(self.files) - 1
        return Path(self.program.path).name + (f" + {others} file{'s' if others != 1 else ''}" if others else "")


@dataclass(frozen=True, slots=True)
class Linking:
    """What linking a document's program gave: the program and its digest,
    or ``problem`` (a duplicate definition, an unreadable database); the
    buffers it read (real path -> text)."""

    program: LinkedProgram | None
    digest: ProgramDigest | None = None
    problem: str = ""
    buffers: tuple[tuple[str, str], ...] = ()


def database_listing(path: str) -> str | None:
    """The nearest compile_commands.json, when it lists ``path`` (None:
    the document is checked alone). Never raises."""
    try:
        database = find_compile_commands(path) if path.startswith("/") else None
        return database if database is not None and listed(path, database) is not None else None
    except (ValueError, OSError):
        return None


def link_program(path: str, database: str, buffers: dict[str, str]) -> Linking:
    """Link the program the file ``path`` belongs to in ``database``, the
    files open in the editor read from ``buffers`` (their unsaved text, by
    real path), the others from disk. Never raises."""

    def text_of(p: str) -> str | None:
        text = buffers.get(os.path.realpath(p))
        if text is not None:
            return text
        try:
            return Path(p).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def flags_of(p: str, source):
        try:
            return source.flags() if source is not None else flags_for(p)
        except ValueError:
            return None

    seen = tuple(buffers.items())
    try:
        program = Project(text_of, flags_of).program(path, database)
    except (LinkError, ProjectError) as e:
        return Linking(None, problem=f"distaff: {e}", buffers=seen)
    except Exception as e:  # noqa: BLE001 - a bug of ours must not take the server down
        log.exception("linking %s failed", path)
        return Linking(None, problem=f"distaff: linking failed ({type(e).__name__}: {e})", buffers=seen)
    try:
        digest = program_digest(program.linked.program) if not program.unentered else None
    except Exception:  # noqa: BLE001 - without a digest nothing is reused
        digest = None
    return Linking(program, digest, "", seen)


def log_line(program: LinkedProgram, path: str) -> str:
    """What the client's log says of a document's program: what was linked,
    and which main among several."""
    line = "distaff: " + linked_note(program, path)
    more = entry_note(program, path)
    return line + (f"; {more.split(': ', 1)[1]}" if more else "")


def _in(path: str, span_file: str) -> bool:
    return span_file == path or os.path.realpath(span_file) == os.path.realpath(path)


class LinkedChecks:
    """The session's programs of several files (see the module docstring).
    The session provides ``docs``, ``linked``, ``settings``, ``cache``,
    ``scheduler``, ``progress``, ``ls``, ``fold_traces``, ``publish``,
    ``refresh_lenses`` and ``_parse_pool``."""

    # -- linking -----------------------------------------------------------

    def scheduler_exists(self) -> bool:
        return self._scheduler is not None

    def _buffers(self) -> dict[str, str]:
        return {os.path.realpath(d.snapshot.path): d.snapshot.text for d in self.docs.values()
                if d.snapshot.path.startswith("/")}

    async def _link(self, st: DocumentState) -> str:
        """Link the program of ``st`` (whose current parse is done) and take
        it: ``linked``; ``alone`` when the document is a program by itself
        (checked alone); ``stale`` when its text changed meanwhile (it is
        parsed and linked again); ``other`` when another open file changed
        (whose parse links again)."""
        snapshot = st.snapshot
        buffers = self._buffers()
        linking = await asyncio.get_running_loop().run_in_executor(
            self._parse_pool, link_program, snapshot.path, st.database, buffers)
        if self.docs.get(snapshot.uri) is not st or st.snapshot is not snapshot:
            return "stale"
        now = self._buffers()
        if any(now.get(p) != text for p, text in linking.buffers):
            return "other"
        return "linked" if self._take(st, linking) else "alone"

    def _take(self, st: DocumentState, linking: Linking) -> bool:
        before = st.linked
        st.link_problem = linking.problem
        if linking.problem:
            st.linked = None
            log.info("%s", linking.problem)
            self.ls.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Warning, message=linking.problem))
            self._leave(st, before)
            self.publish(st)
            return True
        program = linking.program
        if program.plan.alone:
            st.linked = None
            self._leave(st, before)
            return False
        # a program no main runs is the asked file's: another file's may start with the same files
        key = KEY_PREFIX + (program.plan.path if program.unentered else program.path)
        state = self.linked.get(key)
        fresh = state is None
        if state is None:
            state = self.linked[key] = LinkedState(key, program)
        # a check in flight is for the text linked before: stopped here, and started again below
        interrupted = self.scheduler_exists() and self.scheduler.current(key, PROGRAM) is not None
        if self.scheduler_exists():
            self.scheduler.cancel(key)
        changed = state.program.files != program.files or state.program.path != program.path
        state.program, state.digest = program, linking.digest
        state.generation += 1
        state.outcomes = Outcomes(PROGRAM, state.generation, options=self.settings.options())
        self._reuse_linked(state)
        for other in self.docs.values():  # every open document of the program is in it now
            if state.holds(other.snapshot.path) and other.linked != key:
                previous, other.linked = other.linked, key
                other.link_problem = ""
                self._leave(other, previous)
            elif other.linked == key and not state.holds(other.snapshot.path):
                other.linked = None  # no longer in it: links again (see _cascade)
        if st.linked != key or changed or state.generation == 1:
            self._say(program, st.snapshot.path)
        st.linked = key
        self._leave(st, before)
        self.publish_linked(state)
        self.refresh_lenses()
        # checked when the edit wants it, when the program is new or made of other files (as on open),
        # or when its check was stopped above (a relink of the same program, from another file's edit)
        delay, st.want_check = st.want_check, None
        if delay is None and (fresh or changed) and self.settings.check_on != "manual":
            delay = self.settings.debounce_ms / 1000 if self.settings.check_on == "change" else 0.0
        if delay is None and interrupted:  # asked for before, by an edit or the user
            delay = 0.0
        if program.unentered:
            self._not_entered(state)
        elif delay is not None:
            self._start_linked(state, delay)
        return True

    def _say(self, program: LinkedProgram, path: str) -> None:
        line = log_line(program, path)
        log.info("%s", line)
        self.ls.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Info, message=line))

    def _leave(self, st: DocumentState, key: str | None) -> None:
        """``st`` left the program ``key``: the program goes when no open
        document is in it any more, its diagnostics of closed files cleared."""
        if key is None or key == st.linked:
            return
        state = self.linked.get(key)
        if state is None or any(d.linked == key for d in self.docs.values()):
            return
        if self.scheduler_exists():
            self.scheduler.cancel(key)
        del self.linked[key]
        for uri in state.published:
            self.ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def _reuse_linked(self, state: LinkedState) -> None:
        if state.digest is None:
            return
        options = self.settings.options()
        results, findings = self.cache.lookup(state.digest, options)
        outcomes = state.outcomes
        outcomes.results.update(results)
        outcomes.options = options
        if findings is not None and len(results) == len(state.digest.sites):
            outcomes.findings = list(findings)
            outcomes.complete = True

    def _relink_after_close(self, path: str) -> None:
        """A closed file's text is the saved one again: the programs it is
        part of link again, through one of their open documents."""
        for state in list(self.linked.values()):
            if state.holds(path):
                st = next((d for d in self.docs.values() if d.linked == state.key), None)
                if st is not None and st.current is not None and (st.parse_task is None or st.parse_task.done()):
                    st.parse_task = asyncio.ensure_future(self._relink(st.snapshot.uri))

    async def _relink(self, uri: str) -> None:
        """Link a document's program again (another file changed what it
        is); one that turns out to be a program by itself, or whose text
        changed meanwhile, goes through its parse again, and its check."""
        st = self.docs.get(uri)
        if st is None:
            return
        linked_before = st.linked
        how = await self._link(st)
        if how == "stale" or (how == "alone" and linked_before is not None):
            if self.settings.check_on != "manual":
                st.want_check = 0.0
            await self._parse_latest(uri)

    def _cascade(self, st: DocumentState) -> None:
        """After an edit of ``st`` linked its program: the other open
        documents of its database that are not in that program link again
        (the edit may have joined them to it, parted them from it, or ended
        a duplicate definition)."""
        for other in list(self.docs.values()):
            if other is st or other.database != st.database or other.current is None:
                continue
            if other.linked is not None and other.linked == st.linked and not other.link_problem:
                continue
            if other.parse_task is None or other.parse_task.done():
                other.parse_task = asyncio.ensure_future(self._relink(other.snapshot.uri))

    # -- checking ----------------------------------------------------------

    def _not_entered(self, state: LinkedState) -> None:
        """No main runs the program: its results without a check."""
        outcomes = state.outcomes
        options = self.settings.options()
        for item in not_entered(state.program.linked.program, options, state.program.unentered):
            if isinstance(item, AssertionResult):
                outcomes.results[item.id] = item
        outcomes.options, outcomes.complete = options, True
        self.publish_linked(state)
        self.refresh_lenses()

    def _start_linked(self, state: LinkedState, delay: float = 0.0) -> CheckRun | None:
        """Start the check of a linked program's current generation (as
        :meth:`Session._start` does a document's); None when none is needed."""
        if state.program.unentered:
            return None
        program = state.program.linked.program
        options = self.settings.options()
        okey = options_key(options)
        outcomes = state.outcomes
        if outcomes.complete and outcomes.key == okey:
            return None
        running = self.scheduler.current(state.key, PROGRAM)
        same = running is not None and running.request.version == state.generation \
            and running.request.options == options
        if same and (running.state is RunState.RUNNING or delay > 0):
            return running
        if outcomes.key != okey:
            state.outcomes = outcomes = Outcomes(PROGRAM, state.generation, options=options)
            self._reuse_linked(state)
        outcomes.options = options
        outcomes.results = {k: r for k, r in outcomes.results.items() if r.status in DECIDED}
        outcomes.findings = []
        outcomes.search = None
        outcomes.run_id = None
        request = CheckRequest(state.key, state.generation, PROGRAM, program, options, None,
                               expected=len(program.assertions()))
        run = self.scheduler.submit(request, delay)
        outcomes.run_id, outcomes.checking, outcomes.problem = run.id, True, ""
        self.publish_linked(state)
        self.refresh_lenses()
        return run

    def _current_linked(self, run: CheckRun) -> tuple[LinkedState, Outcomes] | None:
        state = self.linked.get(run.request.uri)
        if state is None or state.generation != run.request.version or state.outcomes is None \
                or state.outcomes.run_id != run.id:
            return None
        return state, state.outcomes

    def _on_linked_event(self, event) -> None:
        run = event.run
        found = self._current_linked(run)
        if isinstance(event, Finished):
            results = found[1].results.values() if found else ()
            self.progress.end(run.id, wording.counts_line(results) if event.outcome is DONE
                              else event.outcome.value)
            if found:
                self._finished_linked(*found, run, event)
            return
        if found is None:
            return
        state, outcomes = found
        if isinstance(event, Started):
            self.progress.begin(run.id, f"distaff: checking {state.name}", run.request.expected,
                                lambda: self.scheduler.stop(run, Reason.CANCELLED, "cancelled by the user"))
        elif isinstance(event, Item):
            item = state.program.linked.shown(event.item)
            if isinstance(item, AssertionResult):
                outcomes.results[item.id] = item
                if state.digest is not None:
                    self.cache.put_result(state.digest, run.request.options, item)
                self.progress.advance(run.id)
            elif isinstance(item, Finding):
                if item.kind in (FindingKind.SYNTAX, FindingKind.UNSUPPORTED):
                    return  # the program's own findings, published from the linking
                outcomes.findings.append(item)
            elif isinstance(item, FindingsSearch):
                outcomes.search = item
            else:
                return
            self.publish_linked(state)
            self.refresh_lenses()

    def _finished_linked(self, state: LinkedState, outcomes: Outcomes, run: CheckRun, event: Finished) -> None:
        outcomes.checking = False
        program = state.program.linked.program
        if event.outcome is DONE:
            if state.digest is not None and outcomes.findings_known:
                self.cache.put_findings(state.digest, run.request.options, outcomes.findings)
            outcomes.complete = all((r := outcomes.results.get(s.id)) is not None and r.status in DECIDED
                                    for s in program.assertions())
        else:
            for site in program.assertions():
                if site.id not in outcomes.results:
                    outcomes.results[site.id] = AssertionResult(
                        site.id, site.span, site.text, Status.UNKNOWN, reason=event.outcome,
                        message=event.message if event.outcome in (Reason.CRASHED, Reason.MEMORY) else "",
                        unwind=run.request.options.unwind, mode=run.request.options.mode)
            if event.outcome is not Reason.CANCELLED:
                outcomes.problem = f"distaff: the check stopped: {event.message}"
        self.publish_linked(state)
        self.refresh_lenses()

    # -- publishing --------------------------------------------------------

    def linked_diagnostics(self, st: DocumentState, snap: Snapshot, fold: bool) -> list:
        """A document's share of its program's results, and what the program
        knows of it beyond the document's own parse (findings linking made,
        or why the program does not link)."""
        if st.link_problem:
            return [convert.problem_diagnostic(snap, st.link_problem)]
        state = self.linked.get(st.linked) if st.linked else None
        if state is None:
            return []
        known = set(st.current.findings) if st.current is not None else set()
        return self._share(state, snap, fold, known)

    def _share(self, state: LinkedState, snap: Snapshot, fold: bool, known=frozenset()) -> list:
        path = snap.path
        diags = [convert.front_end_diagnostic(snap, f) for f in state.program.linked.program.findings
                 if _in(path, f.span.file) and f not in known]
        outcomes = state.outcomes
        if outcomes is None:
            return diags
        results = sorted((r for r in outcomes.results.values() if _in(path, r.span.file)),
                         key=lambda r: (r.span.line, r.span.col))
        diags += [convert.assertion_diagnostic(snap, r, outcomes.options, fold=fold) for r in results]
        diags += [convert.finding_diagnostic(snap, f, fold=fold) for f in outcomes.findings if _in(path, f.span.file)]
        if outcomes.search is not None and _in(path, state.program.path):
            unfinished = convert.search_diagnostic(snap, outcomes.search)
            if unfinished is not None:
                diags.append(unfinished)
        if outcomes.problem and _in(path, state.program.path):
            diags.append(convert.problem_diagnostic(snap, outcomes.problem))
        return diags

    def publish_linked(self, state: LinkedState) -> None:
        """Publish every file of the program: the open ones as documents,
        the others from their text as linked; clear those that had some of
        its diagnostics and have none now."""
        fold = self.fold_traces()
        open_docs = {os.path.realpath(d.snapshot.path): d for d in self.docs.values()}
        published: dict[str, list] = {}
        for path in state.files:
            st = open_docs.get(os.path.realpath(path))
            if st is not None:
                self.publish(st)
                continue
            text = dict(state.program.texts).get(path)
            if text is None:
                continue
            snap = Snapshot.of(Path(path).as_uri(), None, text)
            diags = self._share(state, snap, fold)
            if diags != state.published.get(snap.uri, []):  # only what changed is sent again
                self.ls.text_document_publish_diagnostics(
                    lsp.PublishDiagnosticsParams(uri=snap.uri, diagnostics=diags))
            if diags:
                published[snap.uri] = diags
        open_uris = {d.snapshot.uri for d in self.docs.values()}
        members = {Path(p).as_uri() for p in state.files}
        for uri in state.published.keys() - published.keys():  # no longer a file of it with results
            if uri not in open_uris and uri not in members:
                self.ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        state.published = published

    # -- requests ----------------------------------------------------------

    def linked_sites(self, st: DocumentState):
        """``(state, the program's assertion sites in the document's file)``,
        or None for a document checked alone."""
        state = self.linked.get(st.linked) if st.linked else None
        if state is None:
            return None
        path = st.snapshot.path
        return state, [s for s in state.program.linked.program.assertions() if _in(path, s.span.file)]


__all__ = ["KEY_PREFIX", "LinkedChecks", "LinkedState", "Linking", "database_listing", "link_program", "log_line"]
