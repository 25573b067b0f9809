"""distaff's language server: pygls wiring and thin handlers.

Each handler hands its parameters to :class:`distaff.server.session.Session` and
returns; the session converts, the scheduler checks in worker processes.
A handler never raises to the client: an unexpected error is logged and the
request answered with nothing, so bad input cannot take the server down.

``main(argv)`` serves stdio by default, or TCP on 127.0.0.1 with
``--tcp PORT``. ``--check-fn MODULE:NAME`` replaces the engine's check
function in the worker processes (tests use it to inject a slow fake check).

Commands (``workspace/executeCommand``), each taking one object argument
(``[uri, line, character]`` positionally is accepted too; positions are LSP's):

* ``distaff.checkFile {uri}``: check now, whatever ``checkOn`` says; answers
  when the check ends with ``{uri, version, outcome, counts, summary}``.
  ``$/cancelRequest`` on it cancels the check.
* ``distaff.checkFromHere {uri, line, character}``: check from the context of
  that statement and the pinned threads; results under source
  ``distaff (context)``.
* ``distaff.pinThread {uri, line, character}``: pin the thread of that
  statement for later checks from here.
* ``distaff.clearContext {uri}``: drop context results and pins.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import functools
import logging
import os
import sys

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from distaff.server import convert
from distaff.server.scheduler import DEFAULT_CHECK_FN
from distaff.server.session import Session

log = logging.getLogger("distaff.server")

VERSION = "0.1.0"


def _guarded(default=None):
    """Log, never raise: a failing handler answers ``default``."""

    def wrap(fn):
        if asyncio.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def run(*args, **kwargs):
                try:
                    return await fn(*args, **kwargs)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("%s failed", fn.__name__)
                    return default
        else:
            @functools.wraps(fn)
            def run(*args, **kwargs):
                try:
                    return fn(*args, **kwargs)
                except Exception:
                    log.exception("%s failed", fn.__name__)
                    return default
        return run

    return wrap


def _position_args(args) -> tuple[str, int, int]:
    """``uri, line, character`` from ``[{uri, line, character}]`` or
    ``[uri, line, character]``; raises ValueError on anything else."""
    if len(args) == 1 and isinstance(args[0], dict):
        d = args[0]
        pos = d.get("position") or {}
        args = [d.get("uri"), d.get("line", pos.get("line", 0)), d.get("character", pos.get("character", 0))]
    elif len(args) == 1:
        args = [args[0], 0, 0]
    if len(args) != 3 or not isinstance(args[0], str) or not all(
        isinstance(a, int) and not isinstance(a, bool) and a >= 0 for a in args[1:]
    ):
        raise ValueError("expected arguments [{uri, line, character}]")
    return args[0], args[1], args[2]


def _link_request_cancel(ls: LanguageServer) -> None:
    """Make ``$/cancelRequest`` of the current command cancel this task.

    pygls runs a command handler as its own task under a generated id, and
    cancels only the outer request's future; we chain the two."""
    task = asyncio.current_task()
    outer = getattr(ls.protocol, "_request_futures", {}).get(ls.protocol.msg_id)
    if task is not None and outer is not None:
        outer.add_done_callback(lambda f: f.cancelled() and task.cancel())


def create_server(check_fn: str = DEFAULT_CHECK_FN) -> tuple[LanguageServer, Session]:
    """A server with every handler registered, and its session."""
    server = LanguageServer("distaff", VERSION, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
    session = Session(server, check_fn=check_fn)

    @server.feature(lsp.INITIALIZE)
    @_guarded()
    def initialize(params: lsp.InitializeParams):
        if params.client_info is not None:
            session.client_name = params.client_info.name or ""
        if params.initialization_options is not None:
            session.apply_settings(params.initialization_options)

    @server.feature(lsp.INITIALIZED)
    @_guarded()
    async def initialized(params: lsp.InitializedParams):
        await pull_settings()

    async def pull_settings():
        if not session.client_supports("workspace.configuration"):
            return
        try:
            values = await server.workspace_configuration_async(
                lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="distaff")]))
        except Exception as e:
            log.info("workspace/configuration failed: %s", e)
            return
        if values:
            session.apply_settings(values[0])

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @_guarded()
    async def did_change_configuration(params: lsp.DidChangeConfigurationParams):
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get("distaff"), dict):
            session.apply_settings(settings["distaff"])
        else:
            await pull_settings()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @_guarded()
    def did_open(params: lsp.DidOpenTextDocumentParams):
        session.opened(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    @_guarded()
    def did_change(params: lsp.DidChangeTextDocumentParams):
        session.changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    @_guarded()
    def did_save(params: lsp.DidSaveTextDocumentParams):
        session.saved(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    @_guarded()
    def did_close(params: lsp.DidCloseTextDocumentParams):
        session.closed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @_guarded()
    async def hover(params: lsp.HoverParams):
        p = params.position
        return await session.hover(params.text_document.uri, p.line, p.character)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
    @_guarded(default=[])
    def code_lens(params: lsp.CodeLensParams):
        return session.code_lenses(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION)
    @_guarded(default=[])
    def code_action(params: lsp.CodeActionParams):
        if params.context.only:
            return []  # we offer commands, not kinds a client may filter for
        p = params.range.start
        return session.code_actions(params.text_document.uri, p.line, p.character)

    @server.command(convert.CHECK_FILE)
    async def check_file(ls: LanguageServer, *args):
        _link_request_cancel(ls)
        uri, _, _ = _position_args(args)
        return await session.check_file(uri)

    @server.command(convert.CHECK_FROM_HERE)
    async def check_from_here(ls: LanguageServer, *args):
        _link_request_cancel(ls)
        return await session.check_from_here(*_position_args(args))

    @server.command(convert.PIN_THREAD)
    def pin_thread(ls: LanguageServer, *args):
        return session.pin_thread(*_position_args(args))

    @server.command(convert.WRITE_REPRODUCER)
    async def write_reproducer(ls: LanguageServer, *args):
        return await session.write_reproducer(*_position_args(args))

    @server.command(convert.CLEAR_CONTEXT)
    def clear_context(ls: LanguageServer, *args):
        uri, _, _ = _position_args(args)
        return session.clear_context(uri)

    @server.feature(lsp.SHUTDOWN)
    def shutdown(params):
        session.close()

    return server, session


def main(argv: list[str] | None = None, *, tcp: int | None = None) -> int:
    """Serve the Language Server Protocol (``distaff lsp``). ``argv`` holds
    this command's own arguments (a leading ``lsp`` is skipped); ``tcp`` is
    the same as ``--tcp``."""
    parser = argparse.ArgumentParser(prog="distaff lsp", description="distaff's language server")
    parser.add_argument("--stdio", action="store_true", help="serve on stdin/stdout (the default)")
    parser.add_argument("--tcp", type=int, metavar="PORT", help="serve on 127.0.0.1:PORT instead")
    parser.add_argument("--log-level", default="WARNING",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="log to stderr at this level")
    parser.add_argument("--check-fn", default=DEFAULT_CHECK_FN, help=argparse.SUPPRESS)
    argv = list(argv or [])
    if argv[:1] == ["lsp"]:
        argv = argv[1:]
    args = parser.parse_args(argv)
    if tcp is not None:
        args.tcp = tcp
    if args.tcp is not None and not 0 < args.tcp < 65536:
        parser.error(f"--tcp: {args.tcp} is not a port number")
    logging.basicConfig(stream=sys.stderr, level=args.log_level,
                        format="distaff %(levelname)s %(name)s: %(message)s")
    server, session = create_server(args.check_fn)
    atexit.register(session.close)
    if args.tcp is not None:
        server.start_tcp("127.0.0.1", args.tcp)
    else:
        server.start_io()
    session.close()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # pygls closed it
    # The client said exit. Skip interpreter shutdown, which would wait for a
    # parse of a huge file still running in a thread.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
