"""Loops whose trip count is a constant run to their end whatever --unwind
says (tests/programs/loops/*.c, checked at their header's UNWIND, 2): in main
and in started threads, inside and outside a lock, around calls and locks,
with the counter in a register, a global, a struct field or behind a
pointer; a bug in the twentieth round is found. Loops whose count an input or
another thread decides keep the bound and its "within the bound" wording.
What ``ir.counted_registers`` and ``ir.memory_counters`` recognise, on the
IR of small loops."""

from __future__ import annotations

import pytest

from distaff.analysis import ir
from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Status
from tests.explore.expectations import PROGRAMS, read

LOOPS = sorted(p.name for p in (PROGRAMS / "loops").glob("*.c"))
STATUS = {"holds": Status.HOLDS, "violated": Status.VIOLATED, "bounded": Status.BOUNDED}

_cache: dict = {}


def run(name: str, mode: str):
    key = (name, mode)
    if key not in _cache:
        path = PROGRAMS / "loops" / name
        exp = read(f"loops/{name}")
        program = parse_program(path.read_text(), str(path))
        items = list(check(program, Options(mode=mode, unwind=exp.unwind or 8, timeout_s=120)))
        _cache[key] = ([i for i in items if isinstance(i, AssertionResult)],
                       [i for i in items if isinstance(i, Finding)])
    return _cache[key]


def test_the_programs_cover_the_shapes():
    assert {"queue20_locked.c", "queue20_locked_bad.c", "shapes_main.c", "shapes_threads.c",
            "input_bound.c"} <= set(LOOPS)
    assert all(read(f"loops/{n}").unwind == 2 for n in LOOPS)


@pytest.mark.parametrize("mode", ("dpor", "dpor-ag"))
@pytest.mark.parametrize("name", LOOPS)
def test_verdicts_as_the_header_says_at_unwind_2(name, mode):
    exp = read(f"loops/{name}")
    results, findings = run(name, mode)
    assert results
    for r in results:
        want = exp.verdict_at(r.span.line)
        assert want is not None, f"{name}:{r.span.line} has no expected verdict"
        assert r.status is STATUS[want], (name, mode, r.span.line, r.status, r.reason, r.message)
        if r.status is Status.HOLDS:  # a proof: the bound stopped nothing
            assert r.stats.bound_cuts == 0 and not r.stops
        if r.status is Status.BOUNDED:  # a loop that is not constant kept its bound
            assert r.stops and "unwind 2 stopped" in r.message
    if exp.no_findings:
        assert [f for f in findings if f.kind in (FindingKind.UNSUPPORTED, FindingKind.DEADLOCK,
                                                  FindingKind.ERROR)] == []


def test_the_input_and_the_other_threads_write_keep_the_bound():
    results, _ = run("input_bound.c", "dpor")
    for r in results:  # the loop over n (line 25) and the one over the global limit (line 31)
        assert {s.line for s in r.stops} == {25, 31}


def test_the_twentieth_rounds_bug_is_found_with_the_items_it_wrote():
    results, _ = run("queue20_locked_bad.c", "dpor")
    consumer = next(r for r in results if "stored[i]" in r.text)
    assert consumer.status is Status.VIOLATED
    actions = [s.action for s in consumer.trace.steps]
    assert "write items[19] = 0" in actions and "read items[19] == 0" in actions


LOOP_SHAPES = """
int g, a[20];
struct c { int i; } gc;
int full(void) { return g == 20; }
void calls(void) { for (int i = 0; i < 20; i++) { if (!full()) g++; } }
void global(void) { for (g = 0; g < 20; g++) a[g] = 1; }
void field(void) { for (gc.i = 0; gc.i < 20; gc.i++) a[gc.i] = 2; }
void pointer(int *p, int n) { for (*p = 0; *p < n; (*p)++) a[*p] = 3; }
void shared_bound(void) { for (int i = 0; i < g; i++) a[i] = 4; }
void spin(void) { while (!g) { } }
void reset(void) { for (g = 0; g < 20; g = a[0]) a[1] = 5; }
void tas(void) { while (__sync_lock_test_and_set(&g, 1)) { } }
void xchg(void) { while (__atomic_exchange_n(&g, 1, __ATOMIC_ACQUIRE)) { } }
"""


def _loop(program, name: str) -> tuple:
    f = next(f for f in program.functions if f.name == name)
    [head] = ir.loop_heads(f)
    return f, head


def test_which_loops_count_their_rounds():
    program = parse_program(LOOP_SHAPES, "shapes.c")
    f, head = _loop(program, "calls")  # a call in the round sets no register of the count
    assert ir.counted_registers(f, head) == frozenset({"i"})
    for name in ("global", "field", "pointer"):
        f, head = _loop(program, name)
        assert ir.counted_registers(f, head) is None
        regs, loads = ir.memory_counters(f, head)
        assert len(loads) == 1 and regs == (frozenset({"n"}) if name == "pointer" else frozenset())
    # no store of the count, one from elsewhere, or a constant a test-and-set stores (it counts nothing:
    # freed, a spin of exchanges under C11 ran each round's new write to the iteration cap)
    for name in ("shared_bound", "spin", "reset", "tas", "xchg"):
        f, head = _loop(program, name)
        assert ir.counted_registers(f, head) is None and ir.memory_counters(f, head) is None, name
