"""Whole programs lower without findings: the repository's test programs and
examples, and (when a checkout of ../shared sits beside this clone) the
shared example programs. Also checks the structural promises every lowered
function keeps."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import Branch, Intrinsic, Jump, Op, Program, successors

REPO = Path(__file__).parents[2]
OWN = sorted((REPO / "tests" / "programs").glob("*.c")) + sorted((REPO / "examples").glob("*.c"))
SHARED = Path(__file__).parents[2] / "../shared/examples"


def check_structure(program: Program) -> None:
    """Targets in range, branches forward, every thread site a THREAD_CREATE."""
    for f in program.functions:
        n = len(f.body)
        assert n > 0
        for pc, i in enumerate(f.body):
            for s in successors(f.body, pc):
                assert 0 <= s < n, (f.name, pc)
            if isinstance(i, Branch):
                assert type(i.then) is int and type(i.other) is int
                assert i.then > pc and i.other > pc, (f.name, pc)
            if isinstance(i, Jump):
                assert type(i.target) is int and 0 <= i.target < n
    assert pickle.loads(pickle.dumps(program)) == program  # crosses to worker processes
    for site in program.threads:
        instr = program.function(site.func).body[site.pc]
        assert isinstance(instr, Intrinsic) and instr.op is Op.THREAD_CREATE
        assert site.routines and all(program.function(r) is not None for r in site.routines)


@pytest.mark.parametrize("path", OWN, ids=[p.name for p in OWN])
def test_repository_programs_lower_without_findings(path: Path) -> None:
    program = parse_program(path.read_text(), path.name)
    assert program.findings == ()
    assert program.function("main") is not None
    assert program.assertions() or "VERDICT" not in path.read_text()
    check_structure(program)


def test_our_test_programs_exist() -> None:
    names = {p.name for p in OWN}
    assert {"node_locks.c", "two_writes_two_reads.c", "median_of_three.c"} <= names


def shared_examples() -> list[Path]:
    return sorted(SHARED.glob("*.c")) if SHARED.is_dir() else []


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared beside this clone")
@pytest.mark.parametrize("name", [p.name for p in shared_examples()] or ["none"])
def test_shared_examples_lower_without_findings(name: str) -> None:
    path = SHARED / name
    program = parse_program(path.read_text(), name)
    assert program.findings == ()
    assert program.assertions()
    check_structure(program)
