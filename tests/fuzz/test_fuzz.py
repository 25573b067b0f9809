"""Fuzzing the command line: mutants of our C programs (tokens deleted,
duplicated and swapped, random bytes, a 100,000-character line, nesting
thousands deep, 20,000 lines) through ``distaff check`` and ``distaff ir``.
Whatever comes in, the exit status is never 4 (internal error) and no
traceback reaches the user; a file that is not text is one line and exit 2.
Inputs that ever failed are kept in ``regressions/`` and run every time.

``bench/fuzz_bench.py`` runs the same mutations at length and tables the
outcomes.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from distaff.server import cli
from tests.fuzz.mutate import CORPUS, INTERNAL, MUTATIONS, REGRESSIONS, mutant

EXIT_INTERNAL = 4
CHECK = ["check", "--timeout", "2", "--unwind", "2", "--max-memory", "1500"]  # killable: a process per sub-check


def run_cli(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    return status, out.getvalue() + err.getvalue()


def assert_handled(path: Path) -> None:
    for argv in (CHECK + [str(path)], ["ir", str(path)]):
        status, output = run_cli(argv)
        assert status != EXIT_INTERNAL and "Traceback" not in output, (
            f"distaff {argv[0]} of {path} (keep it in tests/fuzz/regressions): status {status}\n{output[-2000:]}")
        # a crash of the front end or the engine, caught and reported as such
        assert not INTERNAL.search(output), output[-2000:]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(MUTATIONS)), index=st.integers(0, len(CORPUS) - 1), seed=st.integers(0, 2**32))
def test_mutants_are_handled(tmp_path_factory, kind: str, index: int, seed: int):
    path = tmp_path_factory.mktemp("fuzz") / f"{kind}_{index}_{seed}.c"
    path.write_bytes(mutant(kind, index, seed))
    assert_handled(path)


@pytest.mark.parametrize("path", sorted(REGRESSIONS.glob("*.c")), ids=lambda p: p.name)
def test_kept_inputs(path: Path):
    """Inputs kept for what they are: hand-made edge cases and every input
    that ever failed (add it here when this fuzzing finds one)."""
    assert_handled(path)


def test_a_file_that_is_not_text_is_one_clear_line(tmp_path: Path):
    path = tmp_path / "a.out"
    path.write_bytes(bytes(range(256)) * 40)
    for argv in (["check", str(path)], ["ir", str(path)]):
        status, output = run_cli(argv)
        assert status == 2
        assert output == f"distaff: {path}: not C source: the file holds binary data\n"
    text = tmp_path / "latin1.c"  # a few bytes that are not UTF-8 in a C file are not binary
    text.write_bytes(b"/* caf\xe9 */\n#include <assert.h>\nint main(void) { assert(1); return 0; }\n")
    assert run_cli(["check", str(text)])[0] == 0
