"""The pieces of predicate summaries: translating IR expressions with their
run-time checks, the summary table and its bounds, evaluating a summary in a
state, printing it as C."""

from __future__ import annotations

import z3

from distaff.analysis import ir
from distaff.analysis.check import Options
from distaff.analysis.subcheck import explorer_for
from distaff.analysis.frontend import parse_program
from distaff.analysis.summaries import translate
from distaff.analysis.summaries.cprint import Printer
from distaff.analysis.summaries.evaluate import InstanceMemo, ReadsMemo, instantiate, memory_reads
from distaff.analysis.summaries.table import SummaryTable, size
from distaff.analysis.summaries.variables import MEMORY, FreeVar, RegVar, StackVar, Variables, parse
from distaff.analysis.symex.values import Values

I32 = ir.IntType(32, True)

PROGRAM = """
#include <assert.h>
int x = 3;
int main(void) {
    int a = x;
    assert(a < 5);
    return 0;
}
"""


def _explorer():
    program = parse_program(PROGRAM, "p.c")
    ex = explorer_for(program, Options(mode="dpor-ag"), program.assertions()[0])
    ex.run()
    return program, ex


def test_variables_name_what_they_stand_for():
    X = Variables(Values(), 64)
    assert parse(X.reg(1, 0, "worker", "a.1", 32).decl().name()) == RegVar(1, 0, "worker", "a.1", 32)
    assert parse(X.stack(0, 2, "f", "buf").decl().name()) == StackVar(0, 2, "f", "buf")
    assert parse(X.memory.decl().name()) == MEMORY
    assert isinstance(parse(X.fresh(8).decl().name()), FreeVar)
    assert parse("x@main:3") is None


def test_translation_collects_the_engines_checks():
    _, ex = _explorer()
    T = translate.Translator(ex.engine)
    X = Variables(ex.engine.values, 64)
    a, b = ir.Reg("a", I32), ir.Reg("b", I32)
    reg = lambda r: X.reg(0, 0, "main", r.name, 32)  # noqa: E731
    checks: list = []
    T.expr(ir.Binary("+", a, ir.Binary("/", b, ir.Const(2, I32), I32), I32), reg, lambda n: None, checks)
    assert [m for m, _ in checks] == ["division by zero", "signed integer overflow in division",
                                      "signed integer overflow in addition"]
    # constants fold: 2 != 0 is no check at all
    assert checks[0][1] is True
    unsigned = ir.IntType(32, False)
    checks = []
    T.expr(ir.Binary("+", ir.Reg("u", unsigned), ir.Const(1, unsigned), unsigned), reg, lambda n: None, checks)
    assert checks == []


def _read_of_x():
    """An engine, its summary variables, its initial state, the address of
    the global ``x`` and the summary term reading its 4 bytes."""
    _, ex = _explorer()
    E = ex.engine
    X = Variables(E.values, 64)
    x = E.layout.make(E.global_oids["x"])
    return E, X, E.initial_state(), x, translate.load(X.memory, x, 4, E.values, 64)


def test_a_summary_is_evaluated_under_the_states_memory():
    E, X, st, x, read = _read_of_x()
    assert instantiate(read == 3, frozenset({(x, 4, False)}), st, E, X) is True
    assert instantiate(z3.ULT(read, 3), frozenset(), st, E, X) is False
    # a register the state does not have is an unknown value
    r = X.reg(0, 0, "main", "nowhere", 32)
    assert not isinstance(instantiate(r == 0, frozenset(), st, E, X), bool)
    # an access past the object's end: the summary says nothing here
    assert instantiate(read == 3, frozenset({(x + 2, 4, False)}), st, E, X) is None


def test_memory_reads_are_found_once_per_byte_and_shared_between_summaries():
    E, X, st, x, read = _read_of_x()
    read = z3.simplify(read)  # constant indices, as in a summary
    memo = ReadsMemo(X)
    one = memory_reads(read == 3, X, memo)
    assert sorted(a for _, a in one) == [x, x + 1, x + 2, x + 3]
    # a merged summary reads the same bytes, each once
    both = memory_reads(z3.Or(read == 3, read > 7), X, memo)
    assert sorted(a for _, a in both) == sorted(a for _, a in one)
    # reads from two summaries given together are substituted once each
    assert instantiate(z3.Or(read == 3, read > 7), frozenset(), st, E, X, one + both) is True
    # an index that is not a constant: no reads to look up
    r = X.reg(0, 0, "main", "p", 64)
    assert memory_reads(z3.Select(X.memory, r) == 0, X, memo) is None
    assert memory_reads(True, X, memo) == []


def test_the_table_keeps_summaries_per_sleep_set():
    ctx = z3.Context()
    p, q = z3.Bools("p q", ctx)
    t = SummaryTable()
    t.add("k", frozenset(), p, frozenset())
    t.add("k", frozenset({(2, ())}), q, frozenset())
    t.add("k", frozenset(), q, frozenset())
    phi, _, _ = t.usable("k", frozenset())
    assert z3.simplify(phi == z3.Or(p, q)).eq(z3.BoolVal(True, ctx))
    phi, _, _ = t.usable("k", frozenset({(2, ()), (3, ())}))
    s = z3.Solver(ctx=ctx)
    s.add(phi != z3.Or(p, q))
    assert s.check() == z3.unsat
    assert t.usable("other", frozenset()) is None
    assert t.counts["summary_merges"] == 1


def test_the_bounds_drop_summaries_and_say_so():
    ctx = z3.Context()
    p, q, r = z3.Bools("p q r", ctx)
    t = SummaryTable(slots=1)
    t.add("a", frozenset(), p, frozenset())
    t.add("b", frozenset(), q, frozenset())
    assert t.usable("a", frozenset()) is None and t.usable("b", frozenset()) is not None
    assert t.counts["summary_collisions"] == 1
    t = SummaryTable(max_size=3)
    t.add("a", frozenset(), p, frozenset())
    t.add("a", frozenset(), z3.And(q, r), frozenset())
    assert t.usable("a", frozenset())[0].eq(p)
    assert t.counts["summary_size_drops"] == 1


def _printing():
    """A printer for the test program, its variables, and a read of its
    global ``x`` as the translation builds it."""
    program, ex = _explorer()
    E = ex.engine
    X = Variables(E.values, 64)
    read = translate.load(X.memory, E.layout.make(E.global_oids["x"]), 4, E.values, 64)
    return Printer(E, program), X, read


def test_summaries_print_as_c_over_variable_names():
    printer, X, read = _printing()
    a = X.reg(0, 0, "main", "a", 32)
    tmp = X.reg(0, 0, "main", "%t1", 32)
    assert printer.text(a <= read) == "a <= x"
    assert printer.text(z3.And(a <= read, tmp == 1)) == "a <= x"
    assert printer.text(z3.And(tmp == 1, X.stack(0, 0, "main", "h") == 5)) == "1"
    assert printer.text(z3.Or(a == X.fresh(32), read < 5)) in ("(a == nondet) || (x < 5)",
                                                              "(x < 5) || (a == nondet)")


def test_summaries_shown_on_hover_are_simplified_within_a_budget():
    printer, X, read = _printing()
    a = X.reg(0, 0, "main", "a", 32)
    learned = z3.Or(a <= read, z3.And(a <= 20, a <= read))
    assert printer.text(learned) == "(a <= x) || ((a <= 20) && (a <= x))"  # as learned
    assert printer.text(learned, readable_ms=200) == "a <= x"
    assert printer.text(z3.Or(a > 10, a <= 20), readable_ms=200) == "1"  # valid
    # a run-time check the printing leaves out does not stop the simplification
    check = z3.BVMulNoOverflow(a, read, True)
    assert printer.text(z3.Or(z3.And(check, a <= read), z3.And(a <= 20, a <= read)), readable_ms=200) == "a <= x"


def test_part_of_a_word_prints_as_a_narrowing_not_as_the_word():
    """z3 rewrites ``x + 1 == 1`` on bytes into equations on the word's parts;
    each part is printed as what it is, not as the whole word."""
    printer, _, read = _printing()
    read = z3.simplify(read)  # one flat concat, as learned formulas have it
    assert printer.text(z3.Extract(15, 8, read + 1) == 0) == "((unsigned char)((1 + x) >> 8)) == 0"
    assert printer.text(z3.Extract(7, 0, read + 1) == 1) == "((unsigned char)x) == 0"  # as z3 rewrites it


def test_equations_on_every_byte_of_a_variable_print_as_one():
    """The learned formulas carry `x == 2` as z3 leaves it, one equation per
    byte; printed (and simplified) they are one equation on x again."""
    printer, _, read = _printing()
    read = z3.simplify(read)  # one flat concat, as learned formulas have it
    bytewise = z3.simplify(read == 2)
    assert z3.is_and(bytewise) and len(bytewise.children()) == 4
    assert printer.text(bytewise) == "x == 2"
    either = z3.Or(z3.And(read >= 1, bytewise), z3.And(read >= 1, z3.Not(bytewise)))
    assert printer.text(either, readable_ms=200) == "x >= 1"
    # three bytes of four say nothing about x as a whole: left as they are
    assert printer.text(z3.And(*bytewise.children()[:3])).count("x[+") == 3


def test_memory_terms_are_the_ones_z3s_operators_make():
    # translate builds loads and stores through the C API; the terms must be
    # the very ASTs z3's Select, Store, Concat and + give (summaries compare
    # and print them)
    V = Values()
    ctx = V.ctx
    M = z3.Array("M!", z3.BitVecSort(64, ctx), z3.BitVecSort(8, ctx))
    p = z3.BitVec("p", 64, ctx)

    def by_operators(addr, n, value=None):
        a = V.lift(addr, 64)
        if value is None:
            parts = [z3.Select(M, a + i if i else a) for i in reversed(range(n))]
            return parts[0] if n == 1 else z3.Concat(*parts)
        m = M
        for i in range(n):
            m = z3.Store(m, a + i if i else a, V.lift(V.extract(value, 8 * i + 7, 8 * i), 8))
        return m

    for addr in (17592186044416, p, p + 8):
        for n in (1, 2, 4, 8):
            assert translate.load(M, addr, n, V, 64).eq(by_operators(addr, n))
            for value in (z3.BitVec(f"v{n}", 8 * n, ctx), 0x1234):
                assert translate.store(M, addr, value, n, V, 64).eq(by_operators(addr, n, value))


def test_instantiations_under_constant_values_are_remembered():
    E, X, st, x, read = _read_of_x()
    read = z3.simplify(read)
    reads = memory_reads(read == 3, X)
    memo = InstanceMemo()
    assert instantiate(read == 3, frozenset(), st, E, X, reads, memo) is True
    assert instantiate(read == 3, frozenset(), st, E, X, reads, memo) is True
    assert memo.hits == 1
    # other memory, other values: not the remembered answer
    w = E.initial_state()
    w.memory.store(E.global_oids["x"], 0, 4, 5, E.values, E.layout)
    assert instantiate(read == 3, frozenset(), w, E, X, reads, memo) is False
    assert memo.hits == 1
    # a value that is not a constant (a register the state lacks) is not remembered
    r = X.reg(0, 0, "main", "nowhere", 32)
    before = len(memo.entries)
    assert not isinstance(instantiate(r == 0, frozenset(), st, E, X, None, memo), bool)
    assert len(memo.entries) == before


def test_sizes_count_distinct_nodes_up_to_the_limit_and_merges_keep_a_bound():
    ctx = z3.Context()
    xs = [z3.BitVec(f"x{i}", 32, ctx) for i in range(40)]
    shared = xs[0] + xs[1]
    phi = z3.And(shared == 1, shared == xs[2])  # `shared` counted once
    nodes = {phi.get_id()}
    todo = [phi]
    while todo:
        for c in todo.pop().children():
            if c.get_id() not in nodes:
                nodes.add(c.get_id())
                todo.append(c)
    assert size(phi, 1000) == len(nodes)
    assert size(phi, 3) == 4  # stops one past the limit
    assert size(True, 10) == 1
    t = SummaryTable(max_size=60)
    for k in range(30):  # each disjunct is small; their disjunction outgrows the bound
        t.add("a", frozenset(), xs[k] == xs[k + 1], frozenset())
    phi, _, _ = t.usable("a", frozenset())
    assert size(phi, 1000) <= 60 and t.counts["summary_size_drops"] >= 1
    assert 0 < t.counts["summary_merges"] < 29


def test_printing_skips_what_is_too_large_and_stops_at_the_deadline():
    printer, X, read = _printing()
    big = z3.Sum([X.reg(0, 0, "main", f"v{i}", 32) for i in range(40)]) == read
    assert printer.small(big) and not printer.small(big, nodes=20)
    program = parse_program(PROGRAM, "p.c")
    ex = explorer_for(program, Options(mode="dpor-ag"), program.assertions()[0])
    ex.run()
    assert ex.reduction.statement_summaries()  # the program has summaries to show...
    assert ex.reduction.statement_summaries(deadline=0.0) == []  # ...but not past the sub-check's budget
