"""Built-in functions, externals, atomic functions and thread sites."""

from __future__ import annotations

import pytest

from distaff.analysis.frontend import lower_source
from distaff.analysis.ir import (
    AssertKind,
    Call,
    Const,
    Intrinsic,
    IntType,
    Kind,
    Op,
    PtrType,
    SYNC_OPS,
)


def intrinsics(src: str, name: str = "main"):
    program = lower_source(src, "t.c")
    assert program.findings == (), program.findings
    return [i for i in program.function(name).body if isinstance(i, Intrinsic)], program


def test_assert_has_the_condition_text_and_the_whole_call_span() -> None:
    src = "int g;\nint main(void) {\n  assert(g  >  1);\n  return 0;\n}\n"
    (a,), program = intrinsics(src)
    assert a.op is Op.ASSERT and a.assert_kind is AssertKind.ASSERT and a.name == "assert"
    assert a.text == "g  >  1"
    assert (a.span.line, a.span.col, a.span.end_col) == (3, 3, 18)
    (site,) = program.assertions()
    assert site.func == "main" and site.text == "g  >  1"


def test_reach_error_is_an_unreachability_assertion_even_with_a_body() -> None:
    src = "void reach_error(void) { int x = 1; }\nint main(void) { reach_error(); __VERIFIER_error(); return 0; }"
    found, program = intrinsics(src)
    assert [i.assert_kind for i in found] == [AssertKind.UNREACH_CALL, AssertKind.UNREACH_CALL]
    assert all(i.args == (Const(0, IntType(32, True)),) for i in found)
    assert program.function("reach_error") is None


def test_verifier_assert_is_built_in_unless_the_file_defines_it() -> None:
    (a,), _ = intrinsics("int main(int x) { __VERIFIER_assert(x); return 0; }")
    assert a.op is Op.ASSERT
    src = "void __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }\nint main(int x) { __VERIFIER_assert(x); return 0; }"
    program = lower_source(src, "t.c")
    assert any(isinstance(i, Call) for i in program.function("main").body)


def test_assert_fail_from_a_preprocessed_assert_macro() -> None:
    src = ('extern void __assert_fail(const char *, const char *, unsigned, const char *);\n'
           'int main(int x) { ((x > 0) ? (void) (0) : __assert_fail ("x > 0", "t.c", 2, '
           '__extension__ __PRETTY_FUNCTION__)); return 0; }')
    (a,), _ = intrinsics(src)
    assert a.op is Op.ASSERT and a.args == (Const(0, IntType(32, True)),) and a.text == "x > 0"


@pytest.mark.parametrize(
    "suffix, bits, signed",
    [("int", 32, True), ("uint", 32, False), ("unsigned_int", 32, False), ("char", 8, True),
     ("uchar", 8, False), ("short", 16, True), ("ushort", 16, False), ("long", 64, True),
     ("ulong", 64, False), ("u32", 32, False), ("size_t", 64, False)],
)
def test_nondet_result_types(suffix: str, bits: int, signed: bool) -> None:
    (n,), _ = intrinsics(f"int main(void) {{ __VERIFIER_nondet_{suffix}(); return 0; }}")
    assert n.op is Op.NONDET and n.name == f"__VERIFIER_nondet_{suffix}"
    assert n.dst.type == IntType(bits, signed)


def test_nondet_bool_and_pointer() -> None:
    found, _ = intrinsics("int main(void) { __VERIFIER_nondet_bool(); __VERIFIER_nondet_pointer(); return 0; }")
    assert found[0].dst.type.is_bool
    assert isinstance(found[1].dst.type, PtrType)


def test_assume_family() -> None:
    found, _ = intrinsics("int main(int x) { __VERIFIER_assume(x); assume(x > 1); klee_assume(x < 9); return 0; }")
    assert [i.op for i in found] == [Op.ASSUME] * 3


def test_heap_and_process_builtins() -> None:
    src = ("int main(void) { int *p = malloc(8); int *q = calloc(2, 4); memset(p, 0, 8); memcpy(q, p, 8);"
           " memmove(q, p, 4); free(p); char *s = alloca(3); if (q) abort(); exit(1); }")
    found, _ = intrinsics(src)
    assert [i.op for i in found] == [Op.MALLOC, Op.CALLOC, Op.MEMSET, Op.MEMCPY, Op.MEMCPY, Op.FREE,
                                     Op.ALLOCA, Op.ABORT, Op.EXIT]
    kinds = {i.op: i.kind for i in found}
    assert kinds[Op.MEMSET] is kinds[Op.MEMCPY] is kinds[Op.FREE] is Kind.GLOBAL
    assert kinds[Op.MALLOC] is kinds[Op.ABORT] is Kind.LOCAL


def test_klee_make_symbolic() -> None:
    (m,), _ = intrinsics('int main(void) { int x; klee_make_symbolic(&x, sizeof(x), "x"); return x; }')
    assert m.op is Op.MAKE_SYMBOLIC and len(m.args) == 3 and m.args[1].value == 4


def test_pthread_operations_are_global_with_their_arguments() -> None:
    src = """pthread_mutex_t m; pthread_cond_t c; pthread_barrier_t b;
    void *w(void *a) { return a; }
    int main(void) { pthread_t t; pthread_mutex_init(&m, 0); pthread_create(&t, 0, w, &m);
      pthread_mutex_lock(&m); pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m);
      pthread_barrier_init(&b, 0, 3); pthread_barrier_wait(&b); pthread_join(t, 0); return 0; }"""
    found, _ = intrinsics(src)
    ops = [i.op for i in found]
    assert ops == [Op.MUTEX_INIT, Op.THREAD_CREATE, Op.MUTEX_LOCK, Op.COND_WAIT, Op.MUTEX_UNLOCK,
                   Op.BARRIER_INIT, Op.BARRIER_WAIT, Op.THREAD_JOIN]
    assert all(i.kind is Kind.GLOBAL for i in found if i.op in SYNC_OPS)
    create = found[1]
    assert len(create.args) == 4 and create.args[2].name == "w" and create.args[3].name == "m"
    assert found[3].args[0].name == "c" and found[3].args[1].name == "m"
    assert found[5].args[2] == Const(3, IntType(32, False))


def test_a_body_for_a_builtin_is_not_lowered() -> None:
    src = "int pthread_mutex_lock(pthread_mutex_t *m) { return 1; }\npthread_mutex_t m;\nint main(void) { return pthread_mutex_lock(&m); }"
    program = lower_source(src, "t.c")
    assert program.function("pthread_mutex_lock") is None
    assert any(isinstance(i, Intrinsic) and i.op is Op.MUTEX_LOCK for i in program.function("main").body)


def test_atomic_functions_are_marked_and_their_calls_bracketed() -> None:
    src = "int n; void __VERIFIER_atomic_inc(void) { n++; }\nint main(void) { __VERIFIER_atomic_inc(); return 0; }"
    program = lower_source(src, "t.c")
    assert program.function("__VERIFIER_atomic_inc").atomic
    body = program.function("main").body
    assert [type(i).__name__ for i in body[:3]] == ["Intrinsic", "Call", "Intrinsic"]
    assert body[0].op is Op.ATOMIC_BEGIN and body[2].op is Op.ATOMIC_END
    assert body[0].kind is Kind.GLOBAL


def test_functions_without_body_are_externals() -> None:
    found, program = intrinsics("int ext(int); int main(void) { int r = ext(3); undeclared(r); return r; }")
    assert [i.op for i in found] == [Op.EXTERNAL, Op.EXTERNAL]
    assert found[0].dst is not None and found[0].name == "ext"
    assert program.externals == ("ext", "undeclared")


def sites(src: str):
    program = lower_source(src, "t.c")
    assert program.findings == (), program.findings
    return program.threads, program


ROUTINES = "void *a(void *x) { return x; }\nvoid *b(void *x) { return 0; }\nvoid *c(void *x) { return 0; }\n"


def test_thread_site_direct_and_in_loop() -> None:
    threads, program = sites(ROUTINES + "int main(void) { pthread_t t[2]; pthread_create(&t[0], 0, a, 0);"
                             " for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, b, 0); return 0; }")
    assert [(s.routines, s.in_loop) for s in threads] == [(("a",), False), (("b",), True)]
    body = program.function("main").body
    assert all(body[s.pc].op is Op.THREAD_CREATE for s in threads)
    assert program.thread_routines() == ("main", "a", "b")


def test_thread_site_in_a_goto_loop() -> None:
    threads, _ = sites(ROUTINES + "int main(void) { pthread_t t; int n = 0;\nL: pthread_create(&t, 0, a, 0);"
                       " if (++n < 3) goto L; return 0; }")
    assert threads[0].in_loop


def test_thread_site_through_function_pointer_variable() -> None:
    threads, _ = sites(ROUTINES + "void *(*fp)(void *);\nint main(int k) { pthread_t t; fp = b;"
                       " void *(*lp)(void *) = k ? a : fp; pthread_create(&t, 0, fp, 0); pthread_create(&t, 0, lp, 0); return 0; }")
    assert threads[0].routines == ("b",)
    assert threads[1].routines == ("a", "b")


def test_thread_site_through_parameter_and_struct_field() -> None:
    src = ROUTINES + """struct job { void *(*run)(void *); } jobs[2] = { { a } };
    void spawn(void *(*r)(void *)) { pthread_t t; pthread_create(&t, 0, r, 0); }
    int main(void) { pthread_t t; jobs[1].run = c; spawn(b); pthread_create(&t, 0, jobs[0].run, 0); return 0; }"""
    threads, _ = sites(src)
    by_func = {s.func: s.routines for s in threads}
    assert by_func["spawn"] == ("b",)
    assert by_func["main"] == ("a", "c")


def test_unresolvable_routine_falls_back_to_routine_shaped_address_taken_functions() -> None:
    src = ROUTINES + "int helper(int x) { return x; }\nint (*h)(int) = helper; void *(*tab[3])(void *) = { a, c };\n" \
          "int main(int k, char **v) { pthread_t t; void *(**pp)(void *) = (void *(**)(void *))v;" \
          " pthread_create(&t, 0, *pp, 0); return 0; }"
    threads, _ = sites(src)
    assert threads[0].routines == ("a", "c")


def test_a_routine_without_a_body_is_not_replaced_by_a_guess() -> None:
    threads, program = sites(ROUTINES + "void *ext(void *);\nint main(void) { pthread_t t; void *(*p)(void *) = a;"
                             " pthread_create(&t, 0, ext, 0); return 0; }")
    assert threads[0].routines == ()
    assert "ext" not in program.externals  # never called, only started


def test_thread_site_through_arrays_of_routines() -> None:
    threads, _ = sites(ROUTINES + "void *(*tab[2])(void *) = { a, b };\nint main(void) { pthread_t t;"
                       " void *(*loc[2])(void *) = { c, 0 }; pthread_create(&t, 0, tab[1], 0);"
                       " pthread_create(&t, 0, loc[0], 0); return 0; }")
    assert [s.routines for s in threads] == [("a", "b"), ("c",)]


def _brackets(src: str, name: str = "f") -> int:
    found, _ = intrinsics(src, name)
    return sum(1 for i in found if i.op is Op.ATOMIC_BEGIN and i.name == "_Atomic")


@pytest.mark.parametrize("decl,stmt,atomic", [
    ("atomic_int x;", "x++;", True),
    ("_Atomic int x;", "x += 2;", True),
    ("_Atomic(int) x;", "--x;", True),
    ("atomic_int x;", "x = x + 1;", False),  # a load and a store: two atomic operations
    ("int x;", "x++;", False),
    ("atomic_int a[4];", "a[1]++;", True),
    ("atomic_int *p;", "(*p)++;", True),
    ("atomic_int *p;", "p++;", False),  # the pointer itself is not atomic
    ("struct s { atomic_long n; int m; } v;", "v.n -= 1;", True),
    ("struct s { atomic_long n; int m; } v;", "v.m -= 1;", False),
    ("typedef _Atomic unsigned counter_t; counter_t x;", "x *= 3;", True),
])
def test_read_modify_write_of_an_atomic_object_is_one_atomic_step(decl, stmt, atomic) -> None:
    src = f"#include <stdatomic.h>\n{decl}\nvoid f(void) {{ {stmt} }}\n"
    assert _brackets(src) == (1 if atomic else 0)
