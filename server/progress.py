"""Work-done progress for checks: one server-created token per check run.

Percent is by assertions decided. The token is created with
``window/workDoneProgress/create`` (only when the client declares
``window.workDoneProgress``); items that arrive before the client answered
are summed up in the first report. A client's ``window/workDoneProgress/cancel``
calls ``on_cancel``, which cancels the run.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Callable

from lsprotocol import types as lsp

log = logging.getLogger(__name__)


@dataclass
class _Bar:
    token: str
    title: str
    total: int
    done: int = 0
    begun: bool = False
    ended: bool = False
    end_message: str = ""
    on_cancel: Callable[[], None] | None = field(default=None, repr=False)


class CheckProgress:
    """Progress bars of running checks, keyed by run id."""

    def __init__(self, ls, enabled: Callable[[], bool]):
        self.ls = ls
        self.enabled = enabled
        self._bars: dict[int, _Bar] = {}

    def begin(self, run_id: int, title: str, total: int, on_cancel: Callable[[], None]) -> None:
        if not self.enabled():
            return
        bar = _Bar(f"distaff-check-{run_id}", title, total, on_cancel=on_cancel)
        self._bars[run_id] = bar
        asyncio.ensure_future(self._start(bar))

    async def _start(self, bar: _Bar) -> None:
        progress = self.ls.work_done_progress
        try:
            await progress.create_async(bar.token)
        except Exception as e:  # the client refused or went away
            log.info("no progress for %s: %s", bar.token, e)
            return
        progress.begin(bar.token, lsp.WorkDoneProgressBegin(
            title=bar.title, cancellable=True, message=self._message(bar),
            percentage=self._percent(bar),
        ))
        bar.begun = True
        future = progress.tokens.get(bar.token)
        if future is not None:
            loop = asyncio.get_running_loop()
            future.add_done_callback(
                lambda f: f.cancelled() and loop.call_soon_threadsafe(self._cancelled, bar)
            )
        if bar.ended:
            self._send_end(bar)

    def _cancelled(self, bar: _Bar) -> None:
        if not bar.ended and bar.on_cancel is not None:
            bar.on_cancel()

    @staticmethod
    def _percent(bar: _Bar) -> int:
        return int(100 * bar.done / bar.total) if bar.total else 0

    @staticmethod
    def _message(bar: _Bar) -> str:
        return f"{bar.done}/{bar.total} assertions"

    def advance(self, run_id: int) -> None:
        bar = self._bars.get(run_id)
        if bar is None or bar.ended:
            return
        bar.done += 1
        if bar.begun:
            self.ls.work_done_progress.report(bar.token, lsp.WorkDoneProgressReport(
                message=self._message(bar), percentage=self._percent(bar),
            ))

    def end(self, run_id: int, message: str) -> None:
        bar = self._bars.pop(run_id, None)
        if bar is None or bar.ended:
            return
        bar.ended = True
        bar.end_message = message
        if bar.begun:
            self._send_end(bar)

    def _send_end(self, bar: _Bar) -> None:
        progress = self.ls.work_done_progress
        progress.end(bar.token, lsp.WorkDoneProgressEnd(message=bar.end_message))
        progress.tokens.pop(bar.token, None)
