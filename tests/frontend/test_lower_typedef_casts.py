"""Casts the parser misreads because it does not know type names: with
``typedef unsigned char T``, ``(T)-a*b`` must lower exactly as
``(unsigned char)-a*b`` does (the cast binds tighter than ``*``), in any
context, and so must ``(T)+a``, ``(T)*p``, ``(T)&x``, ``(T)(x) + 1`` and
``sizeof(T) * 2``. The parser's own slips with spelled-out types (``sizeof(int)-1``
read as ``sizeof((int)-1)``, ``-a++`` as ``(-a)++``, ``(v)-1`` with ``v`` a
variable read as a cast) are repaired the same way."""

from __future__ import annotations

import dataclasses

import pytest

from distaff.analysis.check import Options, check
from distaff.analysis.frontend import lower_source
from distaff.analysis.ir import NO_SPAN, Program
from distaff.analysis.report import AssertionResult, Status

EXPRS = [
    "(T)-a*b", "(T)+a*b", "(T)*p*b", "(T)&x", "(T)(x) + 1", "sizeof(T) * 2", "(T)-a",
    "(T)-a+b", "(T)*p", "(T)+a", "(T)-a*b*b", "(T)-(T)-a*b", "-(T)-a*b", "(T)&x[1] - (T)&x[0]",
    "(T)-a < b", "(T)-a & b",
]
CONTEXTS = ["E", "1 + E", "b * E", "b - E", "x[0] == E", "b ? E : 0", "(E) * 3"]


def body(src: str, name: str = "main"):
    program = lower_source(src, "t.c")
    assert program.findings == (), program.findings
    f = program.function(name)
    return [dataclasses.replace(i, span=NO_SPAN) for i in f.body]


def source(expr: str, spelled: bool) -> str:
    head = "" if spelled else "typedef unsigned char T;\n"
    e = expr.replace("T", "unsigned char") if spelled else expr
    return head + ("void f(int a, int b, int *p) {\n  int x[2]; long r;\n"
                   f"  r = {e};\n}}\n")


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("expr", EXPRS)
def test_a_typedef_cast_lowers_as_the_spelled_out_cast(expr: str, context: str) -> None:
    e = context.replace("E", expr)
    assert body(source(e, False), "f") == body(source(e, True), "f")


def verdicts(src: str) -> list[tuple[int, Status]]:
    program: Program = lower_source(src, "t.c")
    assert program.findings == (), program.findings
    return sorted((r.span.line, r.status) for r in check(program, Options(timeout_s=60))
                  if isinstance(r, AssertionResult))


def test_values_where_the_two_readings_differ() -> None:
    # a = 3, b = 2, *p = 300, T = unsigned char:
    # ((T)-a)*b = 253*2 = 506, not (T)(-(a*b)) = 250; 1 + (T)-a = 254;
    # ((T)*p)*b = 44*2 = 88; (T)+a*b = 6; b - (T)-a = -251
    src = """typedef unsigned char T;
int main(void) {
  int a = 3, b = 2, v = 300; int *p = &v;
  assert((T)-a*b == 506);
  assert(1 + (T)-a == 254);
  assert((T)*p*b == 88);
  assert((T)+a*b == 6);
  assert(b - (T)-a == -251);
  assert(sizeof(T) * 2 == 2);
  assert((T)(v) + 1 == 45);
  assert((T)-a*b == 250);
  return 0;
}
"""
    got = verdicts(src)
    assert got == [(n, Status.HOLDS) for n in range(4, 11)] + [(11, Status.VIOLATED)]


def test_the_parsers_own_slips_with_spelled_out_types() -> None:
    # sizeof(int)-1 is 3 (not sizeof((int)-1) = 4); -a++ is -(a++);
    # (b)-1 with b a variable is b - 1; sizeof(long)-b*2 is 8 - 4
    src = """int main(void) {
  int a = 3, b = 2;
  assert(sizeof(int)-1 == 3);
  assert(sizeof(int)-1*b == 2);
  assert(-a++ * b == -6 && a == 4);
  assert(-!a-- == 0 && a == 3);
  assert((b)-1 == 1 && (b)-1*b == 0);
  assert(sizeof(long)-b*2 == 4);
  return 0;
}
"""
    assert verdicts(src) == [(n, Status.HOLDS) for n in range(3, 9)]
