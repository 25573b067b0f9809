"""The GNU C of concurrent libraries as the IR shows it: typeof of an
expression (container_of's member through a null pointer), __auto_type,
offsetof of a nested member, __builtin_types_compatible_p, choose_expr and
constant_p, compiler barriers written as asm, volatile accesses through
casts; and what stays unsupported, named with its range.
(tests/frontend/test_gnu_native.py compares what these compute with cc.)"""

from __future__ import annotations

import pytest

from distaff.analysis.frontend import lower_source
from distaff.analysis.ir import (
    FENCE_ORDERS, ArrayType, Assign, Const, Intrinsic, IntType, Kind, Load, MemOrder, Op, PtrType, Store, StructType,
)

PRELUDE = """#include <stddef.h>
struct list_head { struct list_head *next, *prev; };
struct inner { int a[4]; long b; };
struct item { int v; struct inner in; struct list_head link; };
struct seq { unsigned sequence; int data; };
"""


def lower(body: str, prelude: str = PRELUDE):
    program = lower_source(prelude + body, "t.c")
    assert program.findings == (), program.findings
    return program


def global_value(program, name: str) -> int:
    init = program.global_var(name).init
    return init[0].value.value if init else 0


def test_typeof_of_an_expression_is_its_type_arrays_not_decayed() -> None:
    program = lower("struct item it; long l; typeof(it.in.a) arr; __typeof__(&it) p; typeof(l + 1) w;"
                    "typeof(((struct item *)0)->link) h; __typeof(char) c; typeof(int *) q; typeof(*p) whole;")
    types = {g.name: g.type for g in program.globals}
    assert types["arr"] == ArrayType(IntType(32, True), 4)
    assert isinstance(types["p"], PtrType) and types["p"].pointee.name == "item"
    assert types["w"] == IntType(64, True)
    assert isinstance(types["h"], StructType) and types["h"].name == "list_head"
    assert types["c"] == IntType(8, True) and types["q"] == PtrType(IntType(32, True))
    assert types["whole"].name == "item"


def test_container_of_with_typeof_of_a_member_through_a_null_pointer() -> None:
    program = lower("""
#define container_of(ptr, type, member) ({ \\
    const typeof(((type *)0)->member) *__mptr = (ptr); \\
    (type *)((char *)__mptr - offsetof(type, member)); })
struct item *owner(struct list_head *l) { return container_of(l, struct item, link); }
""")
    body = program.function("owner").body
    assert not [i for i in body if isinstance(i, (Load, Store))]  # pointer arithmetic only
    assert "- 32" in str(body) or "-32" in str(body)  # link's offset in struct item


def test_read_once_through_a_volatile_cast_is_one_load_of_the_member() -> None:
    program = lower("""
#define READ_ONCE(x) (*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile typeof(x) *)&(x) = (val); } while (0)
unsigned snap(struct seq *s) { unsigned v = READ_ONCE(s->sequence); WRITE_ONCE(s->data, 3); return v; }
""")
    body = program.function("snap").body
    loads = [i for i in body if isinstance(i, Load)]
    stores = [i for i in body if isinstance(i, Store)]
    assert [(i.type, i.kind) for i in loads] == [(IntType(32, False), Kind.GLOBAL)]
    assert [(i.type, i.kind) for i in stores] == [(IntType(32, True), Kind.GLOBAL)]
    assert "4" in str(stores[0].addr)  # data's offset


def test_auto_type_takes_the_initialisers_type_decayed() -> None:
    program = lower("int a[3]; int f(void);\n"
                    "void g(void) { __auto_type x = (unsigned char)1; __auto_type p = a; __auto_type fp = f;"
                    " __auto_type s = (struct seq){ 1, 2 }; s.data = x + *p + fp(); }")
    assigns = {i.dst.name: i.dst.type for i in program.function("g").body if isinstance(i, Assign)}
    assert assigns["x"] == IntType(8, False)
    assert assigns["p"] == PtrType(IntType(32, True))
    assert isinstance(assigns["fp"], PtrType)
    assert any(s.name == "s" and s.type.name == "seq" for s in program.function("g").stack)


def test_auto_type_without_an_initialiser_is_unsupported() -> None:
    program = lower_source("void g(void) { __auto_type x; }", "t.c")
    assert [f.message for f in program.findings] == ["__auto_type without an initialiser expression"]
    assert program.findings[0].span.line == 1


@pytest.mark.parametrize("spelling", ["offsetof", "__builtin_offsetof"])
def test_offsetof_of_a_nested_member(spelling) -> None:
    program = lower(f"unsigned long a = {spelling}(struct item, in.a[2]); unsigned long b = {spelling}(struct item, in.b);"
                    f" unsigned long c = {spelling}(struct item, link.prev); int d[{spelling}(struct item, in)];")
    assert [global_value(program, n) for n in "abc"] == [16, 24, 40]
    assert program.global_var("d").type.length == 8


def test_offsetof_with_a_variable_index_is_computed() -> None:
    program = lower("unsigned long at(int k) { return offsetof(struct item, in.a[k]); }")
    assert any("k" in str(i) for i in program.function("at").body)


def test_offsetof_of_an_unknown_member_is_unsupported() -> None:
    program = lower_source(PRELUDE + "unsigned long a = offsetof(struct item, nothing.here);", "t.c")
    assert [f.message for f in program.findings] == ["offsetof of an unknown member"]


@pytest.mark.parametrize("a, b, want", [
    ("int", "int", 1), ("int", "unsigned", 0), ("int *", "int *", 1), ("int *", "long *", 0),
    ("int[]", "int[4]", 1), ("int[3]", "int[4]", 0), ("struct seq", "struct item", 0),
    ("typeof(g)", "int", 1), ("typeof(&arr[0])", "typeof(arr)", 0), ("void", "void", 1),
    ("int (*)(int)", "int (*)(int)", 1), ("int (*)(int)", "int (*)(long)", 0),
])
def test_types_compatible(a, b, want) -> None:
    program = lower(f"int g; int arr[4]; int r = __builtin_types_compatible_p({a}, {b});")
    assert global_value(program, "r") == want


def test_choose_expr_and_constant_p() -> None:
    program = lower("int v; int a = __builtin_choose_expr(sizeof(long) == 8, 10, 20);"
                    " int b = __builtin_constant_p(3 * 4); int c = __builtin_constant_p(v);")
    assert [global_value(program, n) for n in "abc"] == [10, 1, 0]


@pytest.mark.parametrize("asm, fence", [
    ('__asm__ __volatile__("" ::: "memory")', None), ('asm volatile("" : : : "memory")', None),
    ('asm volatile("mfence" ::: "memory", "cc")', MemOrder.SC), ('__asm__ __volatile__("rep; nop" ::: "memory")', None),
    ('asm volatile("pause\\n\\t" ::: "memory")', None), ('asm volatile("dmb ish" ::: "memory")', MemOrder.SC),
    ('asm volatile("lock; addl $0,0(%%rsp)" ::: "memory", "cc")', MemOrder.SC),
    ('asm volatile("lwsync" ::: "memory")', MemOrder.ACQ_REL), ('asm volatile("dmb ishld" ::: "memory")', MemOrder.ACQ),
    ('asm volatile("dmb ishst" ::: "memory")', None), ('asm volatile("sfence" ::: "memory")', None),
    ('asm volatile("fence rw,rw" ::: "memory")', MemOrder.SC),
])
def test_compiler_and_memory_barriers_lower_to_their_c11_fence_or_nothing(asm, fence) -> None:
    program = lower(f"int g; void f(void) {{ g = 1; {asm}; g = 2; int x = ({{ {asm}; 3; }}); g = x; }}")
    body = program.function("f").body
    fences = ["FENCE", "FENCE"] if fence is not None else []
    kinds = [i.op.name if isinstance(i, Intrinsic) else type(i).__name__ for i in body if not isinstance(i, Assign)]
    assert kinds == ["Store"] + fences[:1] + ["Store"] + fences[1:] + ["Store", "Return"]
    assert all(FENCE_ORDERS[i.args[0].value] is fence for i in body if isinstance(i, Intrinsic))


@pytest.mark.parametrize("asm", [
    'asm volatile("" ::: "cc")', 'asm("nop")', 'asm volatile("movl $1, %%eax" ::: "memory")',
    'asm volatile("" : "=r"(g) : : "memory")', 'asm volatile("" : : "r"(g) : "memory")',
    'asm volatile("mfence" ::: "memory", "rax")',
])
def test_any_other_asm_stays_unsupported_with_its_range(asm) -> None:
    program = lower_source(f"int g;\nvoid f(void) {{\n    {asm};\n}}\n", "t.c")
    (finding,) = program.findings
    assert finding.message == "inline assembly"
    assert (finding.span.line, finding.span.col) == (3, 5)


def test_condition_texts_read_as_written() -> None:
    program = lower("int g;\nvoid f(void) { assert(offsetof(struct item, in.b) == 24 && sizeof(typeof(g)) == 4); }")
    (a,) = [i for i in program.function("f").body if isinstance(i, Intrinsic) and i.op is Op.ASSERT]
    assert a.text == "offsetof(struct item, in . b) == 24 && sizeof(typeof(g)) == 4"
    assert isinstance(a.args[0], Const) and a.args[0].value == 1


def test_a_case_range_tests_both_bounds() -> None:
    program = lower("int cls(int c) { switch (c) { case 0 ... 9: return 1; case 'a' ... 'z': return 2;"
                    " case 12: return 3; } return 0; }")
    from distaff.analysis.ir import Branch

    conds = [str(i.cond) for i in program.function("cls").body if isinstance(i, Branch)]
    assert len(conds) == 3
    assert ">=" in conds[0] and "<=" in conds[0] and "97" in conds[1] and "122" in conds[1]
    assert "==" in conds[2]


def test_a_case_range_bound_that_is_not_constant_is_unsupported() -> None:
    program = lower_source("int cls(int c, int k) {\n switch (c) { case 0 ... k: return 1; } return 0; }", "t.c")
    assert [(f.message, f.span.line) for f in program.findings] == [("case range bound is not a constant", 2)]


def test_a_product_the_parser_read_as_a_pointer_declaration_is_a_product() -> None:
    # `t * t;` with t a variable is a multiplication, the value of a statement expression
    program = lower("int f(int k, int *p) { int t = k; int a = ({ t * t; }); int b = ({ k * *p; }); t * t; return a + b + t; }")
    body = program.function("f").body
    assert "t.1" not in str(body)  # no new variable t
    assigns = [str(i.expr) for i in body if isinstance(i, Assign) and i.dst.name in ("a", "b")]
    assert len(assigns) == 2 and all("*" in a for a in assigns)
