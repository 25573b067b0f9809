"""Golden tests of the front end: each tests/frontend/golden/NAME.c lowers to
exactly the IR text in NAME.ir (``format_program`` of the lowering before the
escape analysis, so that only the front end decides the text). Files whose
name contains ``ilp32`` are lowered under ILP32.

Regenerate after an intended change with
``DISTAFF_UPDATE_GOLDEN=1 python -m pytest tests/frontend/test_irtext.py``
and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from distaff.analysis.frontend import lower_source, parse_program
from distaff.analysis.ir import DataModel
from distaff.analysis.irtext import format_expr, format_program, format_type

GOLDEN = Path(__file__).parent / "golden"
SOURCES = sorted(GOLDEN.glob("*.c"))
UPDATE = os.environ.get("DISTAFF_UPDATE_GOLDEN") == "1"


def render(src: Path) -> str:
    dm = DataModel.ILP32 if "ilp32" in src.stem else DataModel.LP64
    return format_program(lower_source(src.read_text(), src.name, data_model=dm))


@pytest.mark.parametrize("src", SOURCES, ids=[s.stem for s in SOURCES])
def test_golden(src: Path) -> None:
    expected_path = src.with_suffix(".ir")
    actual = render(src)
    if UPDATE or not expected_path.exists():
        expected_path.write_text(actual)
        if not UPDATE:
            pytest.fail(f"{expected_path.name} did not exist; written, review it")
    assert actual == expected_path.read_text()


def test_every_golden_has_expectation() -> None:
    assert SOURCES, "no golden sources found"
    for src in SOURCES:
        assert src.with_suffix(".ir").exists(), src.name


def test_golden_programs_lower_without_findings_except_errors() -> None:
    for src in SOURCES:
        program = lower_source(src.read_text(), src.name)
        if src.stem == "errors":
            assert program.findings
        else:
            assert program.findings == (), (src.name, program.findings)


def test_format_is_deterministic() -> None:
    src = GOLDEN / "thread_sites.c"
    assert render(src) == render(src)


def test_dump_lists_kinds_spans_threads_and_findings() -> None:
    text = format_program(parse_program("int g;\nvoid *t(void *a) { g = 1; return 0; }\n"
                                        "int main() { pthread_t h; pthread_create(&h, 0, t, 0); __float128 f; return 0; }\n",
                                        "x.c"))
    assert "global g: i32" in text
    assert "function t(a: void*) -> void*" in text
    assert "  G  store i32 [@g] := 1   ; 2:20-2:25" in text
    assert "thread main:0 -> t   ; 3:27-3:54" in text
    assert "finding unsupported 3:56-3:66: unknown type name '__float128'" in text


def test_types_print_as_c_writes_them() -> None:
    from distaff.analysis.ir import ArrayType, FuncType, IntType, PtrType, Const

    i32 = IntType(32, True)
    assert format_type(ArrayType(ArrayType(i32, 3), 2)) == "i32[2][3]"
    assert format_type(PtrType(FuncType(i32, (i32,)))) == "i32(i32)*"
    assert format_expr(Const(5, i32)) == "5"
    assert format_expr(Const(5, IntType(64, False))) == "5:u64"
    assert format_expr(Const(0, PtrType(i32))) == "null"
