"""A short soak of the language server (tests/server/soak.py): random edits,
garbage, undo, saves, hovers, lenses, actions, check from here and its
cancel, setting changes, close and reopen, from a fixed seed. The long run
is ``bench/lsp_soak.py``."""

from __future__ import annotations

import asyncio

from lsprotocol import types as lsp

from tests.server.soak import soak

STEPS = 150
MEMORY_CAP_MB = 3072  # as the README states for the server and its workers


def test_a_short_day_of_editing():
    r = asyncio.run(soak(STEPS, seed=7, docs=3))
    assert r.steps == STEPS and r.crashes == 0
    assert sum(len(xs) for xs in r.requests.values()) > STEPS // 10  # it did ask things
    assert r.unanswered == []
    assert r.stale == []
    assert r.errors_logged == []
    assert [m for t, m in r.shown if t == lsp.MessageType.Error] == []
    assert r.final_mismatches == []
    assert r.workers_left <= 1  # the idle spare worker may stay
    assert r.peak_rss_mb < MEMORY_CAP_MB
    assert all(s < 1.0 for s in r.stop_latencies), r.stop_latencies
