"""Post-dominators, control dependence and reaching definitions."""

from __future__ import annotations

from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import Branch
from distaff.analysis.static.cfg import build, control_dependences, postdominators
from distaff.analysis.static.defuse import ENTRY, reaching_definitions
from tests.static.irbuild import I32, assign, branch, c, fn, jump, r, ret


def diamond():
    # 0: if c goto 1 else 3; 1: x=1; 2: goto 4; 3: x=2; 4: y=x; 5: return y
    return fn("f", [
        branch(r("c", I32), 1, 3),
        assign(r("x", I32), c(1)),
        jump(4),
        assign(r("x", I32), c(2)),
        assign(r("y", I32), r("x", I32)),
        ret(r("y", I32)),
    ], params=(r("c", I32),))


def test_diamond_postdominators_and_control_dependence():
    f = diamond()
    ipdom = postdominators(build(f))
    assert ipdom[:6] == [4, 2, 4, 4, 5, 6]
    cd = control_dependences(f)
    assert cd == ((), (0,), (0,), (0,), (), ())


def test_diamond_reaching_definitions():
    rd = reaching_definitions(diamond())
    assert rd.reaching(4, "x") == (1, 3)
    assert rd.reaching(0, "c") == (ENTRY,)
    assert rd.reaching(5, "y") == (4,)


def test_loop_body_depends_on_the_loop_test_and_defs_go_round():
    # 0: i=0; 1: if i<3 goto 2 else 4; 2: i=i+1; 3: goto 1; 4: return i
    from distaff.analysis.ir import Binary
    f = fn("f", [
        assign(r("i", I32), c(0)),
        branch(Binary("<", r("i", I32), c(3), I32), 2, 4),
        assign(r("i", I32), Binary("+", r("i", I32), c(1), I32)),
        jump(1),
        ret(r("i", I32)),
    ])
    cd = control_dependences(f)
    assert cd[2] == (1,) and cd[3] == (1,) and cd[1] == (1,) and cd[4] == ()
    assert reaching_definitions(f).reaching(1, "i") == (0, 2)


def test_infinite_thread_loop_keeps_control_dependence_defined():
    src = """\
extern int __VERIFIER_nondet_int(void);
int g;
void *worker(void *arg) {
    while (1) {
        int x;
        if (__VERIFIER_nondet_int())
            x = 1;
        else
            x = 2;
        g = x;
        assert(x > 0);
    }
}
"""
    p = parse_program(src, "t.c")
    f = p.function("worker")
    cd = control_dependences(f)
    body = f.body
    inner_if = next(pc for pc, i in enumerate(body) if isinstance(i, Branch) and i.span.line == 6)
    assign_then = next(pc for pc, i in enumerate(body) if i.span.line == 7)
    the_assert = next(pc for pc, i in enumerate(body) if i.span.line == 11)
    assert inner_if in cd[assign_then]
    assert inner_if not in cd[the_assert]
    assert all(x != -1 for x in postdominators(build(f)))


def test_live_registers_are_those_read_before_written():
    from distaff.analysis.frontend import parse_program
    from distaff.analysis.liveness import live_registers

    program = parse_program("int g; void f(int n) { int s = 0; while (g) s = s + n; g = s; }\n", "l.c")
    f = program.function("f")
    live = live_registers(f)
    head = next(pc for pc, i in enumerate(f.body) if type(i).__name__ == "Load")  # the loop's read of g
    assert {"s", "n"} <= live[head]  # both read on the way round before being written again
    assert live[len(f.body) - 1] == frozenset()
