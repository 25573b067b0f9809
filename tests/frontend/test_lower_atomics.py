"""GCC's ``__sync_*``/``__atomic_*`` builtins and the C11 ``atomic_*`` names
lower to an atomic region holding their loads and stores: the shape of each
family, the values they compute (against gcc where one is installed), and
the verdicts on our programs that use them."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check
from distaff.analysis.frontend import lower_source, parse_program
from distaff.analysis.frontend.builtins import ATOMIC_BUILTINS, BUILTINS, WRITES_THROUGH_ARGUMENTS
from distaff.analysis.frontend.lower_string import STRING_FUNCS
from distaff.analysis.ir import FENCE_ORDERS, Assign, Intrinsic, Kind, Load, MemOrder, Op, Store
from distaff.analysis.report import AssertionResult, Finding, Status
from tests.explore.expectations import PROGRAMS, read
from tests.frontend.test_lower_semantics import GCC, interpreted, native


def shape(call: str, decl: str = "int g; int e;") -> tuple[list[str], object]:
    """The instructions ``r = CALL;`` lowers to (Assigns left out), and the
    value stored into the register ``r``."""
    program = lower_source(f"{decl}\nint main(void) {{ long r = {call}; return (int) r; }}", "t.c")
    assert program.findings == (), program.findings
    body = program.function("main").body
    names = []
    for i in body:
        if isinstance(i, Intrinsic):
            names.append(i.op.name)
        elif isinstance(i, (Load, Store)):
            target = i.addr.name if hasattr(i.addr, "name") else "?"
            names.append(f"{type(i).__name__} {target} {i.type}")
    (final,) = [i for i in body if isinstance(i, Assign) and i.dst.name == "r"]
    return names, final.expr


def result_reg(expr):
    return expr.arg if hasattr(expr, "arg") else expr


@pytest.mark.parametrize("call", ["__sync_fetch_and_add(&g, 2)", "__atomic_fetch_sub(&g, 2, 5)",
                                  "__sync_fetch_and_nand(&g, 2)", "atomic_fetch_or(&g, 2)"])
def test_fetch_and_op_loads_stores_and_gives_the_old_value(call) -> None:
    names, value = shape(call)
    assert names == ["ATOMIC_BEGIN", "Load g i32", "Store g i32", "ATOMIC_END"]
    program = lower_source(f"int g; int e;\nint main(void) {{ long r = {call}; return (int) r; }}", "t.c")
    (load,) = [i for i in program.function("main").body if isinstance(i, Load)]
    assert result_reg(value) == load.dst


@pytest.mark.parametrize("call", ["__sync_add_and_fetch(&g, 2)", "__atomic_xor_fetch(&g, 2, 0)"])
def test_op_and_fetch_gives_the_stored_value(call) -> None:
    program = lower_source(f"int g;\nint main(void) {{ long r = {call}; return (int) r; }}", "t.c")
    body = program.function("main").body
    (store,) = [i for i in body if isinstance(i, Store)]
    (final,) = [i for i in body if isinstance(i, Assign) and i.dst.name == "r"]
    assert result_reg(final.expr) == store.value


def test_every_family_has_its_shape_and_the_pointee_gives_the_width() -> None:
    assert shape("__sync_lock_test_and_set(&c, 1)", "char c;")[0] == \
        ["ATOMIC_BEGIN", "Load c i8", "Store c i8", "ATOMIC_END"]
    assert shape("__sync_bool_compare_and_swap(&s, 0, 1)", "short s;")[0] == \
        ["ATOMIC_BEGIN", "Load s i16", "Store s i16", "ATOMIC_END"]
    assert shape("__sync_val_compare_and_swap(&q, 0, 1)", "long long q;")[0] == \
        ["ATOMIC_BEGIN", "Load q i64", "Store q i64", "ATOMIC_END"]
    assert shape("__atomic_compare_exchange_n(&g, &e, 7, 0, 5, 5)")[0] == \
        ["ATOMIC_BEGIN", "Load g i32", "Load e i32", "Store g i32", "Store e i32", "ATOMIC_END"]
    assert shape("__atomic_load_n(&u, 2)", "unsigned u;")[0] == ["ATOMIC_BEGIN", "Load u u32", "ATOMIC_END"]
    assert shape("__atomic_exchange_n(&g, 3, 5)")[0] == ["ATOMIC_BEGIN", "Load g i32", "Store g i32", "ATOMIC_END"]
    assert shape("(__atomic_store_n(&g, 3, 5), 0)")[0] == ["ATOMIC_BEGIN", "Store g i32", "ATOMIC_END"]
    assert shape("(__sync_lock_release(&g), 0)")[0] == ["ATOMIC_BEGIN", "Store g i32", "ATOMIC_END"]
    assert shape("(__sync_synchronize(), __atomic_thread_fence(5), 0)")[0] == ["FENCE", "FENCE"]
    # a relaxed fence is no fence, a signal fence orders nothing between threads
    assert shape("(__atomic_thread_fence(0), __atomic_signal_fence(5), 0)")[0] == []


def _orders(src: str, decl: str = "int g; int e;") -> list[tuple]:
    program = lower_source(f"#include <stdatomic.h>\n{decl}\nint main(void) {{ {src}; return 0; }}", "t.c")
    assert program.findings == (), program.findings
    out = []
    for i in program.function("main").body:
        if isinstance(i, Load) and i.order is not MemOrder.NA:
            out.append(("load", i.order))
        elif isinstance(i, Store) and i.order is not MemOrder.NA:
            out.append(("store", i.order) + ((i.fail_order,) if i.only_if is not None else ()))
        elif isinstance(i, Intrinsic) and i.op is Op.FENCE:
            out.append(("fence", FENCE_ORDERS[i.args[0].value]))
    return out


def test_the_accesses_carry_their_memory_orders() -> None:
    assert _orders("atomic_load_explicit(&g, memory_order_acquire)") == [("load", MemOrder.ACQ)]
    assert _orders("atomic_load_explicit(&g, memory_order_consume)") == [("load", MemOrder.ACQ)]
    assert _orders("atomic_store_explicit(&g, 1, memory_order_release)") == [("store", MemOrder.REL)]
    assert _orders("atomic_fetch_add_explicit(&g, 1, memory_order_acq_rel)") == [
        ("load", MemOrder.ACQ_REL), ("store", MemOrder.ACQ_REL)]
    assert _orders("atomic_fetch_add(&g, 1)") == [("load", MemOrder.SC), ("store", MemOrder.SC)]
    # a compare-and-swap's store says its failure order; the expected value is a plain access
    assert _orders("atomic_compare_exchange_strong_explicit(&g, &e, 1, memory_order_acq_rel, "
                   "memory_order_relaxed)") == [("load", MemOrder.ACQ_REL), ("store", MemOrder.ACQ_REL, MemOrder.RLX)]
    assert _orders("__atomic_compare_exchange_n(&g, &e, 1, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED)") == [
        ("load", MemOrder.REL), ("store", MemOrder.REL, MemOrder.RLX)]
    assert _orders("__sync_fetch_and_add(&g, 1)") == [("load", MemOrder.SC), ("store", MemOrder.SC)]
    assert _orders("__sync_lock_test_and_set(&g, 1)") == [("load", MemOrder.ACQ), ("store", MemOrder.ACQ)]
    assert _orders("__sync_lock_release(&g)") == [("store", MemOrder.REL)]
    assert _orders("atomic_thread_fence(memory_order_acquire)") == [("fence", MemOrder.ACQ)]
    # an order that is not a constant reads as seq_cst, as GCC compiles it
    assert _orders("atomic_load_explicit(&g, e)") == [("load", MemOrder.SC)]
    # an _Atomic object read, written or updated as a plain lvalue: seq_cst (C11 6.2.6.1, 6.5.16.2)
    assert _orders("g = 1; e = g; g += 2; g++", "_Atomic int g; int e;") == [
        ("store", MemOrder.SC), ("load", MemOrder.SC), ("load", MemOrder.SC), ("store", MemOrder.SC),
        ("load", MemOrder.SC), ("store", MemOrder.SC)]


def test_the_brackets_are_global_and_named_after_the_builtin() -> None:
    program = lower_source("int g;\nint main(void) { __sync_fetch_and_add(&g, 1); return 0; }", "t.c")
    brackets = [i for i in program.function("main").body if isinstance(i, Intrinsic)]
    assert [(i.op, i.kind, i.name) for i in brackets] == [
        (Op.ATOMIC_BEGIN, Kind.GLOBAL, "__sync_fetch_and_add"), (Op.ATOMIC_END, Kind.GLOBAL, "__sync_fetch_and_add")]
    assert program.externals == ()


def test_memory_order_arguments_are_evaluated() -> None:
    program = lower_source("int g, o;\nint main(void) { __atomic_fetch_add(&g, 1, o++); return 0; }", "t.c")
    stores = [i.addr.name for i in program.function("main").body if isinstance(i, Store)]
    assert stores == ["o", "g"]


def test_a_c11_name_the_file_defines_keeps_its_body_but_gcc_names_do_not() -> None:
    src = "int g;\nint atomic_load(int *p) { return 5; }\nint main(void) { return atomic_load(&g); }"
    program = lower_source(src, "t.c")
    assert program.function("atomic_load") is not None
    assert not any(isinstance(i, Intrinsic) for i in program.function("main").body)


def test_an_atomic_on_a_non_scalar_is_a_finding_not_a_crash() -> None:
    program = lower_source("struct s { int a; } v;\nint main(void) { return __sync_fetch_and_add(&v, 1); }", "t.c")
    assert any("__sync_fetch_and_add" in f.message for f in program.findings)
    program = lower_source("int main(void) { return __sync_fetch_and_add(); }", "t.c")
    assert any("too few arguments" in f.message for f in program.findings)


def test_the_tables_do_not_overlap() -> None:
    assert not set(ATOMIC_BUILTINS) & set(BUILTINS)
    assert not WRITES_THROUGH_ARGUMENTS & set(BUILTINS)
    assert {"stpcpy", "sprintf", "scanf"} <= WRITES_THROUGH_ARGUMENTS
    assert not WRITES_THROUGH_ARGUMENTS & set(STRING_FUNCS)


VALUES = """
signed char c = -3; short s = 300; int i = 7; unsigned u = 0xF0F0u; long long q = -5; int e = 99;
long long out[48];
int main(void) {
    int n = 0;
    out[n++] = __sync_fetch_and_add(&c, 130);
    out[n++] = __sync_sub_and_fetch(&s, 1000);
    out[n++] = __sync_fetch_and_nand(&u, 0x0FF0u);
    out[n++] = __sync_nand_and_fetch(&i, 12);
    out[n++] = __sync_bool_compare_and_swap(&q, -5, 40);
    out[n++] = __sync_bool_compare_and_swap(&q, -5, 41);
    out[n++] = __sync_val_compare_and_swap(&i, 0, 1);
    out[n++] = __sync_val_compare_and_swap(&s, s, 17);
    out[n++] = __sync_lock_test_and_set(&c, 9);
    __sync_lock_release(&u);
    out[n++] = __atomic_fetch_xor(&i, 0x55, 5);
    out[n++] = __atomic_or_fetch(&s, 0x100, 0);
    out[n++] = __atomic_exchange_n(&q, 123456789012LL, 5);
    out[n++] = __atomic_compare_exchange_n(&i, &e, 3, 0, 5, 5);
    out[n++] = e;
    out[n++] = __atomic_compare_exchange_n(&i, &e, 3, 0, 5, 5);
    out[n++] = __atomic_load_n(&i, 5);
    __atomic_store_n(&c, -100, 5);
    __sync_synchronize();
    out[n++] = __atomic_and_fetch(&c, 0x7f, 5);
    { long long v = 77, r = 0, d = -8, w = 77;
      __atomic_store(&q, &v, 5); __atomic_load(&q, &r, 2); out[n++] = r;
      out[n++] = __atomic_compare_exchange(&q, &w, &d, 0, 5, 5); out[n++] = q;
      out[n++] = __atomic_compare_exchange(&q, &w, &d, 1, 5, 5); out[n++] = w;
      __atomic_exchange(&q, &v, &r, 5); out[n++] = r; out[n++] = q;
      __atomic_clear(&c, 5); out[n++] = __atomic_test_and_set(&c, 5);
      out[n++] = __atomic_test_and_set(&c, 5); __atomic_clear(&c, 5); out[n++] = c;
      out[n++] = __atomic_always_lock_free(sizeof q, 0) + 2 * __atomic_always_lock_free(16, 0); }
    out[n++] = c; out[n++] = s; out[n++] = i; out[n++] = u; out[n++] = q; out[n++] = e;
#ifdef NATIVE
    for (int k = 0; k < n; k++) printf("%lld\\n", out[k]);
#endif
    return 0;
}
"""


@pytest.mark.skipif(GCC is None, reason="no C compiler to run the program natively")
def test_the_values_are_what_gcc_computes() -> None:
    want = native(VALUES)
    assert interpreted(VALUES, len(want)) == want


def test_values_without_a_compiler() -> None:
    # the start of the list above, worked by hand
    got = interpreted(VALUES, 8)
    assert got == [-3, 300 - 1000, 0xF0F0, ~(7 & 12), 1, 0, ~(7 & 12), 300 - 1000]


def verdicts(name: str, mode: str = "baseline") -> dict[int, Status]:
    path = PROGRAMS / name
    program = parse_program(path.read_text(), str(path))
    return {r.span.line: r.status for r in check(program, Options(mode=mode, timeout_s=60))
            if isinstance(r, AssertionResult)}


@pytest.mark.parametrize("name", ["sync_builtins.c", "sync_counter.c"])
@pytest.mark.parametrize("mode", ["baseline", "dpor"])
def test_programs_get_the_verdicts_their_headers_give(name, mode) -> None:
    exp = read(name)
    got = verdicts(name, mode)
    assert got
    want = {"holds": Status.HOLDS, "violated": Status.VIOLATED}
    assert got == {line: want[exp.verdict_at(line)] for line in got}


WRAPS = """
#include <stdatomic.h>
#include <assert.h>
#include <limits.h>
atomic_int x = INT_MAX;
atomic_schar c = 127;
long long big = LLONG_MIN;
int main(void) {
    int old = atomic_fetch_add(&x, 1);
    assert(old == INT_MAX && x == INT_MIN);
    assert(__atomic_add_fetch(&x, -1, __ATOMIC_SEQ_CST) == INT_MAX);
    signed char o = atomic_fetch_add_explicit(&c, 1, memory_order_relaxed);
    assert(o == 127 && c == -128);
    __sync_fetch_and_sub(&big, 1);
    assert(big == LLONG_MAX);
    return 0;
}
"""


def test_atomic_arithmetic_on_signed_integers_wraps_around() -> None:
    # C11 7.17.7.5: no undefined results; `x++` on an _Atomic int stays ordinary arithmetic
    program = parse_program(WRAPS, "wraps.c")
    items = list(check(program, Options(mode="baseline", timeout_s=60)))
    assert {r.span.line: r.status for r in items if isinstance(r, AssertionResult)} == {
        10: Status.HOLDS, 11: Status.HOLDS, 13: Status.HOLDS, 15: Status.HOLDS}
    assert not [f for f in items if isinstance(f, Finding)]
    ordinary = parse_program("#include <stdatomic.h>\n#include <limits.h>\natomic_int x = INT_MAX;\n"
                             "int main(void) { x++; return 0; }\n", "inc.c")
    [overflow] = [f for f in check(ordinary, Options(mode="baseline")) if isinstance(f, Finding)]
    assert overflow.message == "signed integer overflow in addition"
