"""The static analyses never raise on what the front end makes of broken C:
truncated programs and programs with lines deleted or duplicated."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from distaff.analysis.frontend import parse_program
from distaff.analysis.static.facts import analyze
from distaff.analysis.static.slicing import slice_of

TESTS = Path(__file__).parent.parent
CORPUS = [p.read_text() for p in sorted((TESTS / "frontend" / "golden").glob("*.c"))] + [
    p.read_text() for p in sorted((TESTS / "programs").glob("*.c"))
]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def analyse_everything(text: str) -> None:
    program = parse_program(text, "t.c")
    assert not [f for f in program.findings if "escape analysis" in f.message]
    facts = analyze(program)
    for a in program.assertions():
        s = facts.slice(a.id)
        assert s.contains(a.func, a.pc)
        assert slice_of(program, a.id, facts, other_assertions=False).contains(a.func, a.pc)
        r = facts.reach(a.id)
        assert r.distance(a.func, a.pc) == 0
        for f in program.functions:
            r.reaches_via_return(f.name)
            for pc in range(len(f.body)):
                facts.may_touch_shared(f.name, pc)


def test_corpus_is_not_empty():
    assert len(CORPUS) > 10


@SETTINGS
@given(st.sampled_from(range(len(CORPUS))), st.floats(0, 1))
def test_truncated_programs(index: int, fraction: float) -> None:
    text = CORPUS[index]
    analyse_everything(text[: int(len(text) * fraction)])


@SETTINGS
@given(
    st.sampled_from(range(len(CORPUS))),
    st.lists(st.tuples(st.booleans(), st.integers(0, 10_000)), min_size=1, max_size=6),
)
def test_lines_deleted_or_duplicated(index: int, edits: list[tuple[bool, int]]) -> None:
    lines = CORPUS[index].splitlines(keepends=True)
    for duplicate, at in edits:
        if not lines:
            break
        k = at % len(lines)
        if duplicate:
            lines.insert(k, lines[k])
        else:
            del lines[k]
    analyse_everything("".join(lines))
