"""Discrepancies found by the differential test, kept as C files.

A regression file is a generated program's C text under a comment that says
what it showed and what the oracle says of it, one expectation a line::

    /* Differential regression: <name>
     * <what the engine got wrong>
     * ORACLE line 18: violated  (inputs {}: main: create t1; ...)
     * ORACLE line 11: holds
     * ORACLE deadlock: no
     */

Line numbers are those of the file itself. :func:`expectations` reads them
back; the test runs the engine on the file in every mode against them.
"""

from __future__ import annotations

import os
import re

from tests.differential import cprog as C
from tests.differential import oracle

DIRECTORY = os.path.join(os.path.dirname(__file__), "regressions")

_LINE = re.compile(r"^\s*\*\s*ORACLE line (\d+): (violated|holds|unreachable)\b", re.M)
_DEADLOCK = re.compile(r"^\s*\*\s*ORACLE deadlock: (yes|no)\b", re.M)
_STUCK = re.compile(r"^\s*\*\s*ORACLE stuck: (yes|no)\b", re.M)


def regression_text(name: str, program: C.Program, note: str) -> str:
    """The file's text: the comment, then the program's C."""
    outcome = oracle.explore(program)
    rendered = C.render(program)
    note_lines = note.strip().splitlines()
    n_header = 3 + len(note_lines) + len(outcome.assertions)
    header = [f"/* Differential regression: {name}"]
    header += [f" * {line}" for line in note_lines]
    for v in outcome.assertions:
        line = rendered.assert_lines[v.label] + n_header
        if v.violated:
            w = v.violation
            header.append(f" * ORACLE line {line}: violated  (inputs {dict(w.inputs)}: "
                          + "; ".join(w.steps) + ")")
        else:
            header.append(f" * ORACLE line {line}: {'holds' if v.reached else 'unreachable'}")
    if outcome.deadlock is not None:
        w = outcome.deadlock
        header.append(f" * ORACLE deadlock: yes  (inputs {dict(w.inputs)}: " + "; ".join(w.steps) + ")")
    else:
        header.append(" * ORACLE deadlock: no")
    header.append(" */")
    assert len(header) == n_header
    return "\n".join(header) + "\n" + rendered.text


def write_regression(name: str, program: C.Program, note: str) -> str:
    path = os.path.join(DIRECTORY, f"{name}.c")
    text = regression_text(name, program, note)
    with open(path, "w") as f:
        f.write(text)
    return path


def expectations(text: str) -> tuple[dict[int, str], bool]:
    """The expected status label by assertion line, and whether a deadlock is
    expected."""
    lines = {int(n): status for n, status in _LINE.findall(text)}
    deadlock = _DEADLOCK.search(text)
    if not lines or deadlock is None:
        raise ValueError("not a regression file: no ORACLE lines")
    return lines, deadlock.group(1) == "yes"


def stuck_expected(text: str) -> bool | None:
    """Whether a stuck thread is expected (a line ``* ORACLE stuck: yes|no``);
    None when the file does not say (files older than the spin-loop work)."""
    m = _STUCK.search(text)
    return None if m is None else m.group(1) == "yes"


_OPEN = re.compile(r"^\s*\*\s*OPEN: ", re.M)


_SPURIOUS = re.compile(r"^\s*\*\s*SPURIOUS: yes\b", re.M)


def spurious(text: str) -> bool:
    """Whether the file is checked with spurious wake-ups on both sides (a
    line ``* SPURIOUS: yes``: its oracle's verdicts need them)."""
    return _SPURIOUS.search(text) is not None


def is_open(text: str) -> bool:
    """Whether the file is a known discrepancy not fixed yet (a line
    ``* OPEN: ...`` in its comment): the engine still gets it wrong."""
    return _OPEN.search(text) is not None


def normalised(c_text: str) -> str:
    """C text without blank lines or indentation, to compare programs."""
    return "\n".join(line.strip() for line in c_text.splitlines() if line.strip())


def program_text(text: str) -> str:
    """The :func:`normalised` C after a regression file's comment."""
    return normalised(text.split("*/", 1)[1])


def open_programs() -> frozenset[str]:
    """:func:`program_text` of every open regression file."""
    out = set()
    for path in files():
        with open(path) as f:
            text = f.read()
        if is_open(text):
            out.add(program_text(text))
    return frozenset(out)


def files() -> list[str]:
    if not os.path.isdir(DIRECTORY):
        return []
    return sorted(os.path.join(DIRECTORY, f) for f in os.listdir(DIRECTORY) if f.endswith(".c"))
