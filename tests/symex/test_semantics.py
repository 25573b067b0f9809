"""C semantics of the engine on hand-built IR: integer conversions and
wrap-around, C division, run-time errors, byte-level memory, symbolic array
indices, function pointers, heap, bounds and the unwind bound."""

from __future__ import annotations

from dataclasses import replace

import pytest

from distaff.analysis import ir
from distaff.analysis.check import Options, check
from distaff.analysis.report import AssertionResult, Finding, Status
from tests.symex.irb import (
    BOOL, I8, I16, I32, I64, U8, U32, U64, VP, ArrayType, Cast, Field, StructType, add, assert_, assign,
    b, branch, c, call, faddr, func, gaddr, glob, jump, load, nondet, op, prog, r, ret, saddr, store,
)
from distaff.analysis.ir import Op, PtrType, Kind

OPTS = Options(mode="baseline", timeout_s=30)


def outcome(program):
    items = list(check(program, OPTS))
    return ([i.status for i in items if isinstance(i, AssertionResult)],
            [i.message for i in items if isinstance(i, Finding)])


def main_only(*instrs, globals=(), stack=(), others=()):
    return prog(func("main", *instrs, stack=stack), *others, globals=globals)


def test_unsigned_wraps_and_conversions():
    x = r("x", U32)
    p = main_only(
        assign(x, c(0xFFFFFFFF, U32)),
        assign(x, b("+", x, c(1, U32))),
        assert_(b("==", x, c(0, U32))),
        assert_(b("==", Cast(c(-1 & 0xFF, I8), I32), c(-1))),            # sign extension
        assert_(b("==", Cast(c(255, U8), I32), c(255))),                  # zero extension
        assert_(b("==", Cast(c(300), I8), c(44, I8))),                    # truncation
        assert_(b("==", Cast(c(5), BOOL), c(1, BOOL))),                   # to _Bool
        assert_(b("<", c(-1), c(0))),                                      # signed compare
        assert_(b(">", c(0xFFFFFFFF, U32), c(0, U32))),                   # unsigned compare
        ret(c(0)),
    )
    assert outcome(p) == ([Status.HOLDS] * 7, [])


@pytest.mark.parametrize("symbolic", [False, True])
def test_c_division_truncates_toward_zero(symbolic):
    x, q, m = r("x"), r("q"), r("m")
    first = [nondet(x), op(Op.ASSUME, b("==", x, c(-7)))] if symbolic else [assign(x, c(-7))]
    p = main_only(
        *first,
        assign(q, b("/", x, c(2))),
        assign(m, b("%", x, c(2))),
        assert_(b("==", q, c(-3))),
        assert_(b("==", m, c(-1))),
        ret(c(0)),
    )
    assert outcome(p) == ([Status.HOLDS, Status.HOLDS], [])


def test_int_min_divided_by_minus_one_overflows():
    x, q = r("x"), r("q")
    p = main_only(nondet(x), assign(q, b("/", x, c(-1))), ret(c(0)))
    assert outcome(p) == ([], ["signed integer overflow in division"])


def test_shift_count_out_of_range_and_signed_overflow():
    n, v, w = r("n"), r("v"), r("w")
    p = main_only(nondet(n), assign(v, b("<<", c(1), n)), assign(w, b("*", n, c(1 << 27))), ret(c(0)))
    # past the shift, n is in [0, 31] on the safe path: n * 2^27 overflows only from 16 on
    assert sorted(outcome(p)[1]) == ["shift count out of range", "signed integer overflow in multiplication"]
    p = main_only(nondet(n), assign(v, b("<<", c(1), n)), assign(w, b("*", n, c(1 << 20))), ret(c(0)))
    assert outcome(p)[1] == ["shift count out of range"]


def test_unsigned_arithmetic_never_overflows():
    n, v = r("n", U32), r("v", U32)
    p = main_only(nondet(n, "__VERIFIER_nondet_uint"), assign(v, b("*", n, c(1 << 20, U32))), ret(c(0)))
    assert outcome(p) == ([], [])


def test_mixed_width_accesses_are_little_endian_bytes():
    st = StructType("s", (Field("a", I32, 0), Field("b", I8, 4)), 8, 4)
    t8, t16, t32 = r("t8", I8), r("t16", I16), r("t32", I32)
    g = gaddr("g", st)
    p = main_only(
        store(g, c(0x01020304)),
        load(t8, g, I8),
        load(t16, add(g, 2), I16),
        store(add(g, 1), c(0x7F, I8), I8),
        load(t32, g, I32),
        assert_(b("==", t8, c(4, I8))),
        assert_(b("==", t16, c(0x0102, I16))),
        assert_(b("==", t32, c(0x01027F04))),
        ret(c(0)),
        globals=[glob("g", st)],
    )
    assert outcome(p) == ([Status.HOLDS] * 3, [])


def test_symbolic_index_reads_and_writes():
    arr = ArrayType(I32, 4)
    i, v, w = r("i"), r("v"), r("w")
    a = gaddr("a", arr)
    elem = lambda k: add(a, b("*", Cast(k, I64), c(4, I64)))  # noqa: E731
    p = main_only(
        nondet(i),
        op(Op.ASSUME, b("&&", b(">=", i, c(0)), b("<", i, c(4)))),
        store(elem(i), c(99)),
        load(v, elem(i)),
        load(w, a),
        assert_(b("==", v, c(99))),
        assert_(b("||", b("==", w, c(10)), b("==", i, c(0)))),
        assert_(b("==", w, c(10))),
        ret(c(0)),
        globals=[glob("a", arr, (0, I32, c(10)), (4, I32, c(20)), (8, I32, c(30)), (12, I32, c(40)))],
    )
    assert outcome(p) == ([Status.HOLDS, Status.HOLDS, Status.VIOLATED], [])


def test_symbolic_index_out_of_bounds_is_an_error():
    arr = ArrayType(I32, 4)
    i, v = r("i"), r("v")
    a = gaddr("a", arr)
    p = main_only(
        nondet(i),
        op(Op.ASSUME, b("&&", b(">=", i, c(0)), b("<=", i, c(4)))),
        load(v, add(a, b("*", Cast(i, I64), c(4, I64)))),
        ret(c(0)),
        globals=[glob("a", arr)],
    )
    assert outcome(p) == ([], ["out-of-bounds access to a"])


def test_call_through_a_function_pointer_forks_per_target():
    fp, k, res = r("fp", VP), r("k"), r("res")
    one = func("one", ret(c(1)))
    two = func("two", ret(c(2)))
    p = prog(
        func("main",
             nondet(k),
             branch(b("==", k, c(0)), 2, 4),
             assign(fp, faddr("one")),
             jump(5),
             assign(fp, faddr("two")),
             call(fp, dst=res),
             assert_(b("||", b("==", res, c(1)), b("==", res, c(2)))),
             assert_(b("==", res, c(1))),
             ret(c(0))),
        one, two)
    assert outcome(p) == ([Status.HOLDS, Status.VIOLATED], [])


def test_null_function_pointer_is_an_error():
    fp = r("fp", VP)
    p = main_only(assign(fp, c(0, VP)), call(fp), ret(c(0)))
    assert outcome(p) == ([], ["call through an invalid function pointer"])


def test_recursion_beyond_the_bound_is_cut():
    n, m, res = r("n"), r("m"), r("res")
    down = func("down",
                branch(b("<=", n, c(0)), 1, 2),
                ret(c(0)),
                assign(m, b("-", n, c(1))),
                call("down", m, dst=res),
                ret(res),
                params=(n,))
    k = r("k")
    p = prog(func("main", nondet(k), op(Op.ASSUME, b("<", k, c(100))), call("down", k, dst=res),
                  assert_(b("==", res, c(0))), ret(c(0))), down)
    [result] = [i for i in check(p, Options(mode="baseline", unwind=3)) if isinstance(i, AssertionResult)]
    assert result.status is Status.BOUNDED and result.stats.bound_cuts == 1
    assert result.stats.runs == 5


def test_memset_memcpy_calloc_and_malloc():
    arr = ArrayType(I32, 4)
    x, y, z, hp, hq = r("x"), r("y"), r("z"), r("hp", PtrType(I32)), r("hq", PtrType(I32))
    src, dst = saddr("src", arr), saddr("dst", arr)
    p = main_only(
        op(Op.MEMSET, src, c(0), c(16, U64)),
        store(add(src, 8), c(7), kind=Kind.LOCAL),
        op(Op.MEMCPY, dst, src, c(16, U64)),
        load(x, add(dst, 8), kind=Kind.LOCAL),
        load(y, add(dst, 4), kind=Kind.LOCAL),
        op(Op.CALLOC, c(4, U64), c(4, U64), dst=hp),
        load(z, add(hp, 12)),
        assert_(b("&&", b("==", x, c(7)), b("==", y, c(0)))),
        assert_(b("==", z, c(0))),
        op(Op.MALLOC, c(4, U64), dst=hq),
        load(z, hq),
        assert_(b("==", z, c(0))),
        ret(c(0)),
        stack=[("src", arr), ("dst", arr)],
    )
    assert outcome(p) == ([Status.HOLDS, Status.HOLDS, Status.VIOLATED], [])


def test_uninitialised_register_is_a_named_input():
    u = r("u")
    p = main_only(assert_(b("==", u, c(0))), ret(c(0)))
    [res] = [i for i in check(p, OPTS) if isinstance(i, AssertionResult)]
    assert res.status is Status.VIOLATED
    [inp] = res.trace.inputs
    assert inp.name.startswith("u@main") and inp.value != 0


def test_ilp32_pointers_are_32_bits():
    pt = PtrType(I32, 32)
    q, v = r("q", pt), r("v")
    g = ir.Addr("g", ir.ObjKind.GLOBAL, pt)
    p = replace(main_only(assign(q, g), store(q, c(5)), load(v, q), assert_(b("==", v, c(5))), ret(c(0)),
                          globals=[glob("g", I32)]), data_model=ir.DataModel.ILP32, _index={})
    assert outcome(p) == ([Status.HOLDS], [])


def test_write_to_string_literal_and_dead_stack_object():
    s = ir.GlobalVar("str.0", ArrayType(I8, 3), ((0, I8, c(104, I8)),), ir.NO_SPAN, is_string=True)
    s = replace(s, init=(ir.InitValue(0, I8, c(104, I8)),))
    pv = r("pv", PtrType(I32))
    leak = func("leak", ret(saddr("local", I32)), stack=[("local", I32)], ret_t=PtrType(I32))
    p = prog(func("main", call("leak", dst=pv), store(pv, c(1)), ret(c(0))), leak)
    assert outcome(p) == ([], ["use of local after its lifetime ended"])
    p2 = main_only(store(ir.Addr("str.0", ir.ObjKind.STRING, PtrType(I8)), c(0, I8)), ret(c(0)), globals=[s])
    assert outcome(p2) == ([], ["write to a string literal"])
