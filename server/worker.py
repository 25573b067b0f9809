"""A check's worker process: the child side of :mod:`distaff.server.scheduler`.

Run as ``python -m distaff.server.worker [--preload MODULE:FUNC]``. The process starts
idle (the scheduler keeps one warm, with the engine already imported), reads
one :class:`Job` from stdin, runs it, streams what the check yields to stdout,
and exits. It runs in its own session, so the scheduler can kill it and any
processes the engine started with one signal.

Framing on both pipes: an 8-byte big-endian length, then a pickle. Messages
to the parent are ``("item", AssertionResult | Finding)``, ``("done", None)``
and ``("error", text)`` (the check raised; ``text`` ends with the exception).
SIGUSR1, or the parent closing stdin (the server died), asks the check to
stop: the token passed to the check is cancelled and the engine is expected
to wind down within a second (the scheduler kills the process group if it
does not).
"""

from __future__ import annotations

import importlib
import os
import pickle
import signal
import struct
import sys
import threading
import traceback
from dataclasses import dataclass, replace
from typing import BinaryIO

from distaff.analysis.check import CancelToken, Context, Options
from distaff.analysis.executor import limit_memory
from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import Program

_HEADER = struct.Struct(">Q")


@dataclass(frozen=True, slots=True)
class Job:
    """One check to run. ``check_fn`` names the function as ``module:name``;
    it is called as ``check(program, options, cancel, context)`` and yields
    results as :func:`distaff.analysis.check.check` does, in a process whose
    address space ``options.max_memory_mb`` limits."""

    check_fn: str
    program: Program
    options: Options
    context: Context | None = None


def write_message(out: BinaryIO, message) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_HEADER.pack(len(data)) + data)
    out.flush()


def read_message(inp: BinaryIO):
    """The next message, or None at end of file."""
    header = inp.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (n,) = _HEADER.unpack(header)
    data = inp.read(n)
    if len(data) < n:
        return None
    return pickle.loads(data)


def load_check_fn(spec: str):
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "check")


def _watch_for_cancel(inp: BinaryIO, cancel: CancelToken) -> None:
    try:
        read_message(inp)
    except Exception:
        pass
    cancel.cancel()


def run(inp: BinaryIO, out: BinaryIO) -> int:
    job = read_message(inp)
    if job is None:
        return 0
    cancel = CancelToken()
    signal.signal(signal.SIGUSR1, lambda *_: cancel.cancel())
    threading.Thread(target=_watch_for_cancel, args=(inp, cancel), daemon=True).start()
    try:
        limit_memory(job.options.max_memory_mb)  # this process is the limited one: the check runs in it
        check = load_check_fn(job.check_fn)
        for item in check(job.program, replace(job.options, max_memory_mb=0), cancel, job.context):
            write_message(out, ("item", item))
        write_message(out, ("done", None))
    except BaseException as e:  # reported to the parent, which shows it on the document
        text = "".join(traceback.format_exception(e))
        try:
            write_message(out, ("error", text))
        except OSError:
            pass
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # The message stream gets the real stdout; stray prints go to stderr.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    if len(argv) == 2 and argv[0] == "--preload":
        try:
            _warm_up(load_check_fn(argv[1]))
        except Exception:
            pass  # reported when a job asks for it
    return run(sys.stdin.buffer, out)


def _warm_up(check) -> None:
    """Check a trivial program while idle, so the engine's lazy imports and
    the solver's start-up are paid before a user waits for a verdict."""

    program = parse_program("int main(void) { return 0; }\n", "<warm-up>")
    for _ in check(program, Options(timeout_s=5.0), CancelToken(), None):
        pass


if __name__ == "__main__":
    code = main()
    sys.stderr.flush()
    # Not sys.exit: the cancel watcher may still block in a read of stdin,
    # which makes interpreter shutdown abort.
    os._exit(code)
