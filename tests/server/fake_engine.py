"""Stand-in checks for the scheduler's ``check_fn`` seam (``module:name``).

They run inside worker processes, so they are plain top-level functions.
Their behaviour is set through the environment the worker inherits:
``FAKE_CHECK_DELAY`` seconds per assertion (default 0.2).
"""

from __future__ import annotations

import os
import time

from distaff.analysis.report import AssertionResult, Reason, Stats, Status


def _delay() -> float:
    return float(os.environ.get("FAKE_CHECK_DELAY", "0.2"))


def _result(site, status, reason=None) -> AssertionResult:
    return AssertionResult(
        id=site.id, span=site.span, text=site.text, status=status, reason=reason,
        stats=Stats(runs=3, full_runs=2, pruned_runs=1), unwind=8, mode="fake",
    )


def slow_check(program, options, cancel=None, context=None):
    """Every assertion holds, each after ``FAKE_CHECK_DELAY`` seconds of
    polling the cancel token, as the real engine does."""
    for site in program.assertions():
        end = time.monotonic() + _delay()
        while time.monotonic() < end:
            if cancel is not None and cancel.cancelled:
                yield _result(site, Status.UNKNOWN, Reason.CANCELLED)
                break
            time.sleep(0.01)
        else:
            yield _result(site, Status.HOLDS)


def stubborn_check(program, options, cancel=None, context=None):
    """Ignores cancellation (as a long solver call would): only a kill stops it."""
    for site in program.assertions():
        time.sleep(60)
        yield _result(site, Status.HOLDS)


def crashing_check(program, options, cancel=None, context=None):
    """Dies without a word after the first result (a program without
    assertions, such as the worker's warm-up, is let be)."""
    sites = program.assertions()
    if not sites:
        return
    yield _result(sites[0], Status.HOLDS)
    os._exit(7)


def raising_check(program, options, cancel=None, context=None):
    raise ValueError("the fake engine cannot do this")
    yield  # pragma: no cover


def scripted_check(program, options, cancel=None, context=None):
    """Behaves as the program asks through globals, so one server can serve
    every plumbing test: ``int fake_delay_ms = N;`` sets the delay per
    assertion of :func:`slow_check`; a global ``fake_stubborn``,
    ``fake_crash`` or ``fake_raise`` picks that behaviour instead."""
    for name, fn in (("fake_stubborn", stubborn_check), ("fake_crash", crashing_check),
                     ("fake_raise", raising_check)):
        if program.global_var(name) is not None:
            return fn(program, options, cancel, context)
    delay = program.global_var("fake_delay_ms")
    if delay is not None and delay.init:
        os.environ["FAKE_CHECK_DELAY"] = str(delay.init[0].value.value / 1000)
    return slow_check(program, options, cancel, context)


def hungry_check(program, options, cancel=None, context=None):
    """Asks for 512 MiB at once (a worker limited to that fails)."""
    block = bytearray(512 << 20)
    for site in program.assertions():
        yield _result(site, Status.HOLDS if block else Status.UNKNOWN)
