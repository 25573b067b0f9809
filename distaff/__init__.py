"""distaff: checks the assert()s of multithreaded C programs by symbolic execution.

Installed, the code is one package: :mod:`distaff.analysis` computes (front
end, static analyses, the engine, the reductions, "check from here") and
:mod:`distaff.server` converts (the command line, the language server, the
Python API). In the source tree the two live in the folders ``analysis/`` and
``server/`` beside this one, linked in here.

Programs that embed distaff use the names exported here (the Python API,
:mod:`distaff.server.api`)::

    from distaff import Options, check_source, report_json

    report = check_source(text, Options(unwind=4), path="fig2.c")
    report.assertions        # AssertionResult: status, reason, trace, stats
    report.findings          # Finding: deadlocks, run-time errors, syntax errors
    report_json(report)      # the document `distaff check --format json` prints

The documents' JSON Schemas ship as ``distaff/server/schemas/*.schema.json``
(:func:`schema`). Results as they are decided, one assertion at a time:
:func:`distaff.analysis.check.check_text` (or :func:`~distaff.analysis.check.check`
on a parsed program).
"""

from __future__ import annotations

import importlib
import time as _time

__version__ = "0.1.0"  # the distribution's version (pyproject.toml reads it from here)

# when this process began loading distaff: the command line's --timeout counts
# from here, its imports included
STARTED = _time.monotonic()

from distaff import core as _core  # noqa: E402

_core.install()  # before any module of the compiled core is imported

# name -> the module that defines it. Loaded on first use, so that importing
# one module of distaff (a worker process does) does not load them all.
_EXPORTS = {
    "check_source": "distaff.server.api", "report_json": "distaff.server.api",
    "report_sarif": "distaff.server.api", "schema": "distaff.server.api",
    "ContextError": "distaff.server.api", "ProgressListener": "distaff.server.api",
    "FileReport": "distaff.server.render",
    "Options": "distaff.analysis.options", "CancelToken": "distaff.analysis.options",
    "DEFAULT_MEMORY_MB": "distaff.analysis.options", "BoundStop": "distaff.analysis.report",
    "AssertionResult": "distaff.analysis.report", "Finding": "distaff.analysis.report",
    "FindingKind": "distaff.analysis.report", "Input": "distaff.analysis.report",
    "Reason": "distaff.analysis.report", "Stats": "distaff.analysis.report",
    "StatementSummary": "distaff.analysis.report", "Status": "distaff.analysis.report",
    "Step": "distaff.analysis.report", "Trace": "distaff.analysis.report",
    "Span": "distaff.analysis.ir", "DataModel": "distaff.analysis.ir",
    "BuildFlags": "distaff.analysis.frontend.build_flags",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'distaff' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))

