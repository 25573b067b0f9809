"""The result cache: keys ignore positions and unreachable code, results
move with the code, anything that can change a verdict misses."""

from dataclasses import replace

from distaff.analysis.check import Options
from distaff.analysis.ir import (
    Addr, AssertKind, Const, DataModel, FuncType, Function, GlobalVar, IntType, Intrinsic, Kind,
    Load, ObjKind, Op, Program, PtrType, Reg, Return, Span, Store, ThreadSite,
)
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Reason, Stats, Status, Step, Trace
from distaff.server.cache import ResultCache, program_digest, reachable_functions

INT = IntType(32, True)
VOIDP = PtrType(IntType(8, True))


def sp(line, col=5):
    return Span("f.c", line, col, line, col + 8)


def build(shift=0, t1_value=10, dead_value=1) -> Program:
    x = Addr("x", ObjKind.GLOBAL, PtrType(INT))
    t1 = Function("t1", FuncType(VOIDP, (VOIDP,)), (Reg("arg", VOIDP),), (), (
        Store(x, Const(t1_value, INT), INT, sp(3 + shift)),
        Return(Const(0, VOIDP), sp(4 + shift)),
    ), sp(2 + shift, 1))
    dead = Function("dead", FuncType(INT, ()), (), (), (
        Return(Const(dead_value, INT), sp(20)),), sp(19, 1))
    a = Reg("a", INT)
    main = Function("main", FuncType(INT, ()), (), (), (
        Intrinsic(Op.THREAD_CREATE, None, (Const(0, VOIDP), Const(0, VOIDP),
                  Addr("t1", ObjKind.FUNCTION, VOIDP), Const(0, VOIDP)), sp(7 + shift), Kind.GLOBAL,
                  "pthread_create"),
        Load(a, x, INT, sp(8 + shift)),
        Intrinsic(Op.ASSERT, None, (a,), sp(9 + shift), Kind.LOCAL, "assert", AssertKind.ASSERT, "x <= 10"),
        Return(Const(0, INT), sp(10 + shift)),
    ), sp(6 + shift, 1))
    return Program("f.c", DataModel.LP64, (GlobalVar("x", INT, (), sp(1)),), (t1, main, dead),
                   (ThreadSite("main", 0, ("t1",), False, sp(7 + shift)),), ())


def violated(program: Program) -> AssertionResult:
    site = program.assertions()[0]
    t1 = program.function("t1")
    main = program.function("main")
    trace = Trace((), (Step(0, "main", main.body[0].span, "create thread t1#1"),
                       Step(1, "t1#1", t1.body[0].span, "write x = 10")))
    return AssertionResult(site.id, site.span, site.text, Status.VIOLATED, trace=trace, stats=Stats(runs=2))


def test_reachability_follows_thread_creation_not_dead_code():
    assert [f.name for f in reachable_functions(build())] == ["t1", "main"]


def test_moved_code_hits_and_the_result_moves_with_it():
    cache, opts = ResultCache(), Options()
    old, new = build(), build(shift=2)
    d_old, d_new = program_digest(old), program_digest(new)
    assert d_old.sites == d_new.sites and d_old.layout != d_new.layout
    cache.put_result(d_old, opts, violated(old))
    cache.put_findings(d_old, opts, [Finding(FindingKind.DEADLOCK, old.function("t1").body[1].span, "stuck")])
    results, findings = cache.lookup(d_new, opts)
    r = results["main:2"]
    assert r.span == new.assertions()[0].span
    assert [s.span.line for s in r.trace.steps] == [9, 5]
    assert findings[0].span.line == 6
    assert cache.hits == 1


def test_edits_to_reachable_code_or_options_miss_dead_code_does_not():
    cache, opts = ResultCache(), Options()
    d = program_digest(build())
    cache.put_result(d, opts, violated(build()))
    assert cache.lookup(program_digest(build(dead_value=2)), opts)[0]  # dead code: hit
    assert cache.lookup(program_digest(build(t1_value=11)), opts)[0] == {}
    assert cache.lookup(d, replace(opts, unwind=3))[0] == {}
    assert cache.lookup(d, replace(opts, timeout_s=1.0, workers=2))[0]  # budgets don't change a decided verdict


def test_undecided_results_are_not_kept():
    cache, opts = ResultCache(), Options()
    p = build()
    d = program_digest(p)
    site = p.assertions()[0]
    cache.put_result(d, opts, AssertionResult(site.id, site.span, site.text, Status.UNKNOWN, reason=Reason.TIMEOUT))
    assert cache.lookup(d, opts) == ({}, None)


def test_capacity_bounds_the_cache():
    cache, opts = ResultCache(capacity=2), Options()
    for v in range(5):
        p = build(t1_value=v)
        cache.put_result(program_digest(p), opts, violated(p))
    assert len(cache._entries) == 2


def test_sharing_names_readers_and_writers_per_thread():
    from distaff.server.sharing import sharing_of, thread_functions

    p = build()
    s = sharing_of(p, "x")
    assert (s.readers, s.writers, s.synchronizers, s.shared) == (("main",), ("t1",), (), True)
    assert thread_functions(p) == {"main", "t1"}
