"""The front end never raises: random bytes, truncated and mutated real
programs all give a Program whose control flow stays within its functions."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import DataModel, Program, successors

HERE = Path(__file__).parent
CORPUS = [p.read_text() for p in sorted((HERE / "golden").glob("*.c"))] + [
    p.read_text() for p in sorted((HERE.parent / "programs").glob("*.c"))
]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def well_formed(program: Program) -> None:
    assert isinstance(program, Program)
    for f in program.functions:
        assert f.body
        for pc, i in enumerate(f.body):
            assert all(0 <= s < len(f.body) for s in successors(f.body, pc))
            assert i.span.line >= 0
    for site in program.threads:
        assert 0 <= site.pc < len(program.function(site.func).body)
    for finding in program.findings:
        assert finding.span.line >= 0 and finding.message
        assert not finding.message.startswith("internal"), finding  # a crash caught at the last line


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    well_formed(parse_program(data.decode("utf-8", "replace"), "r.c"))


@SETTINGS
@given(st.text(alphabet=st.sampled_from(list("{}()[];,=+-*&|!<>?:.\"'#/\\ \n\tabcxyz019_")), max_size=300))
def test_random_c_like_text(text: str) -> None:
    well_formed(parse_program(text, "r.c"))


@SETTINGS
@given(st.sampled_from(range(len(CORPUS))), st.floats(0, 1))
def test_truncated_programs(index: int, fraction: float) -> None:
    text = CORPUS[index]
    well_formed(parse_program(text[: int(len(text) * fraction)], "t.c"))


@SETTINGS
@given(
    st.sampled_from(range(len(CORPUS))),
    st.lists(st.tuples(st.booleans(), st.integers(0, 10_000)), min_size=1, max_size=6),
    st.sampled_from([DataModel.LP64, DataModel.ILP32]),
)
def test_lines_deleted_or_duplicated(index: int, edits: list[tuple[bool, int]], dm: DataModel) -> None:
    lines = CORPUS[index].split("\n")
    for delete, at in edits:
        k = at % len(lines)
        if delete and len(lines) > 1:
            del lines[k]
        else:
            lines.insert(k, lines[k])
    well_formed(parse_program("\n".join(lines), "m.c", data_model=dm))


@SETTINGS
@given(st.sampled_from(range(len(CORPUS))), st.integers(0, 10_000), st.text(max_size=8))
def test_text_spliced_in(index: int, at: int, piece: str) -> None:
    text = CORPUS[index]
    k = at % (len(text) + 1)
    well_formed(parse_program(text[:k] + piece + text[k:], "s.c"))


def _depth(e) -> int:
    subs = [getattr(e, f) for f in ("arg", "left", "right", "ptr", "offset", "cond", "then", "other")
            if not isinstance(getattr(e, f, None), (int, type(None)))]
    return 1 + max((_depth(x) for x in subs), default=0)


def test_deeply_nested_generated_code_lowers_with_shallow_expressions() -> None:
    chain = " + ".join(["a * b"] * 2000)
    nested_ifs = "if (a) {" * 1500 + "a++;" + "}" * 1500
    program = parse_program(f"int f(int a, int b) {{ {nested_ifs} return {chain}; }}", "d.c")
    well_formed(program)
    assert program.findings == ()
    exprs = [getattr(i, n) for i in program.function("f").body for n in ("expr", "value", "cond")
             if getattr(i, n, None) is not None]
    assert max(_depth(e) for e in exprs) <= 50


LVALUES = ["a", "u", "c", "l", "g", "arr[a & 3]", "*p", "s.f", "ps->f", "b"]
RVALUES = LVALUES + ["1", "0x7fffffff", "'x'", "-3", "sizeof(long)", "(int)l", "(unsigned char)a"]
BINARY = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "==", "!=", "<", "<=", ">", ">="]


@st.composite
def c_expressions(draw, depth: int = 3) -> str:
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(RVALUES))
    kind = draw(st.integers(0, 6))
    sub = lambda: draw(c_expressions(depth - 1))  # noqa: E731
    if kind == 0:
        return f"({sub()} {draw(st.sampled_from(BINARY))} {sub()})"
    if kind == 1:
        return f"{draw(st.sampled_from(['!', '~', '-', '+']))}({sub()})"
    if kind == 2:
        return f"({sub()} ? {sub()} : {sub()})"
    if kind == 3:
        return f"({sub()}, {sub()})"
    if kind == 4:
        lv = draw(st.sampled_from(LVALUES[:-1]))
        return draw(st.sampled_from([f"{lv}++", f"--{lv}", f"({lv} += {sub()})", f"({lv} = {sub()})"]))
    if kind == 5:
        return f"h({sub()}, {sub()})"
    return f"(long)({sub()})"


PRELUDE = """struct st { int f; }; int g, arr[4]; struct st s, *ps = &s;
int h(int x, int y) { return x - y; }
int f(int a, unsigned u, char c, long l, int *p, _Bool b) {
    int r;
"""


@SETTINGS
@given(st.lists(c_expressions(), min_size=1, max_size=4))
def test_random_well_typed_expressions_lower_without_findings(exprs: list[str]) -> None:
    body = "".join(f"    r = {e};\n    if ({e}) r++;\n" for e in exprs)
    program = parse_program(PRELUDE + body + "    return r;\n}\n", "e.c")
    well_formed(program)
    assert program.findings == ()
