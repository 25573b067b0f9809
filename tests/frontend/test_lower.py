"""Behaviour of the lowering: instruction order (sequence points), kinds,
registers vs memory, control-flow shape, spans, and never raising."""

from __future__ import annotations

from distaff.analysis.irtext import format_instr
from distaff.analysis.frontend import lower_source, parse_program
from distaff.analysis.ir import (
    Addr,
    Assign,
    Binary,
    Branch,
    Call,
    Cast,
    Const,
    DataModel,
    FindingKind,
    Intrinsic,
    IntType,
    Ite,
    Jump,
    Kind,
    Load,
    ObjKind,
    Op,
    Reg,
    Return,
    Store,
    regs_of,
)


def body(src: str, name: str = "f"):
    program = lower_source(src, "t.c")
    assert program.findings == (), program.findings
    f = program.function(name)
    assert f is not None
    return f.body


def shape(instrs) -> list[str]:
    """Instruction class names, without the implicit final Return."""
    return [type(i).__name__ for i in instrs[:-1]]


def test_global_increment_is_load_assign_store() -> None:
    instrs = body("int g; void f(void) { g = g + 1; }")
    assert shape(instrs) == ["Load", "Assign", "Store"]
    load, assign, store = instrs[:3]
    assert load.kind is Kind.GLOBAL and store.kind is Kind.GLOBAL and assign.kind is Kind.LOCAL
    assert load.addr == store.addr and isinstance(load.addr, Addr) and load.addr.kind is ObjKind.GLOBAL
    assert store.value == assign.dst and load.dst.name in regs_of(assign.expr)


def test_postincrement_of_global_is_two_global_operations() -> None:
    instrs = body("int g; void f(void) { g++; }")
    assert [i.kind for i in instrs if i.kind is Kind.GLOBAL] == [Kind.GLOBAL, Kind.GLOBAL]
    assert shape(instrs) == ["Load", "Assign", "Store"]


def test_branch_on_global_loads_into_a_register_first() -> None:
    instrs = body("int g; int f(void) { if (g > 2) return 1; return 0; }")
    assert isinstance(instrs[0], Load) and isinstance(instrs[1], Branch)
    assert regs_of(instrs[1].cond) == {instrs[0].dst.name}
    assert instrs[1].kind is Kind.BRANCH


def test_branch_conditions_read_registers_only() -> None:
    src = "int g, *p; int f(int a) { while (g < a && *p) { if (p[1] == g) break; } return a ? g : 0; }"
    for i in body(src):
        if isinstance(i, Branch):
            assert all(not isinstance(x, Addr) for x in _subexprs(i.cond))


def _subexprs(e):
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        for name in ("arg", "left", "right", "ptr", "offset", "cond", "then", "other"):
            sub = getattr(x, name, None)
            if sub is not None and not isinstance(sub, int):
                stack.append(sub)


def test_call_arguments_in_left_to_right_sequence_point_order() -> None:
    instrs = body("int a, b; int g(int, int); void f(void) { g(a++, b); }")
    assert shape(instrs) == ["Load", "Assign", "Store", "Load", "Intrinsic"]
    load_a, _, store_a, load_b, call = instrs[:5]
    assert load_a.addr.name == "a" and store_a.addr.name == "a" and load_b.addr.name == "b"
    assert call.op is Op.EXTERNAL and call.args == (load_a.dst, load_b.dst)


def test_register_postincrement_passes_the_old_value() -> None:
    instrs = body("int h(int, int); int f(int a, int b) { return h(a++, a); }")
    copy, inc = instrs[0], instrs[1]
    assert isinstance(copy, Assign) and copy.expr == Reg("a", IntType(32, True))
    assert isinstance(inc, Assign) and inc.dst.name == "a"
    call = instrs[2]
    assert call.args == (copy.dst, Reg("a", IntType(32, True)))


def test_pure_short_circuit_is_one_binary() -> None:
    instrs = body("int f(int a, int b) { return a && b < 3; }")
    assert len(instrs) == 2 and isinstance(instrs[0], Return)
    assert isinstance(instrs[0].value, Binary) and instrs[0].value.op == "&&"


def test_short_circuit_with_a_load_on_the_right_is_control_flow() -> None:
    instrs = body("int g; int f(int a) { return a && g; }")
    first_branch = next(pc for pc, i in enumerate(instrs) if isinstance(i, Branch))
    first_load = next(pc for pc, i in enumerate(instrs) if isinstance(i, Load))
    assert first_branch < first_load
    assert not any(isinstance(i, (Assign, Return)) and isinstance(getattr(i, "expr", getattr(i, "value", None)), Binary)
                   and i.expr.op == "&&" for i in instrs if isinstance(i, Assign))


def test_short_circuit_with_a_call_on_the_right_skips_the_call() -> None:
    instrs = body("int h(void); int f(int a) { return a || h(); }")
    branch = next(i for i in instrs if isinstance(i, Branch))
    call_pc = next(pc for pc, i in enumerate(instrs) if isinstance(i, Intrinsic))
    assert branch.other == call_pc and branch.then != call_pc  # || skips the call when a holds


def test_conditional_is_ite_when_pure_and_control_flow_otherwise() -> None:
    pure = body("int f(int a, int b) { return a ? b : 3; }")
    assert isinstance(pure[0].value, Ite)
    effect = body("int g; int f(int a) { return a ? g : 3; }")
    assert any(isinstance(i, Branch) for i in effect)
    assert not any(isinstance(getattr(i, "value", None), Ite) for i in effect)


def test_comma_evaluates_left_for_effect_then_right() -> None:
    instrs = body("int g; int f(int a) { return (g = a, a + 1); }")
    assert isinstance(instrs[0], Store) and isinstance(instrs[1], Return)


def test_address_taken_locals_and_aggregates_live_on_the_stack() -> None:
    program = lower_source(
        "void use(int *); void f(int p, int q) { int x = 1, y = 2; int a[2]; struct { int k; } s;"
        " use(&x); use(&p); s.k = y; a[0] = q; }", "t.c")
    f = program.function("f")
    assert {s.name for s in f.stack} == {"x", "a", "s", "p.addr"}
    assert f.params == (Reg("p", IntType(32, True)), Reg("q", IntType(32, True)))
    first = f.body[0]
    assert isinstance(first, Store) and first.addr.name == "p.addr" and first.value == f.params[0]
    assert any(isinstance(i, Assign) and i.dst.name == "y" for i in f.body)


def test_shadowed_locals_get_unique_register_names() -> None:
    instrs = body("int f(int x) { int y = x; { int y = 2; x = y; } { int y = 3; x += y; } return y; }")
    names = [i.dst.name for i in instrs if isinstance(i, Assign)]
    assert names[:3] == ["y", "y.1", "x"] and "y.2" in names
    assert instrs[-2].value == Reg("y", IntType(32, True))


def test_static_local_becomes_a_global_named_after_its_function() -> None:
    program = lower_source("int f(void) { static int n = 4; return n++; }", "t.c")
    g = program.global_var("f.n")
    assert g is not None and g.init[0].value == Const(4, IntType(32, True))
    assert any(isinstance(i, Load) and i.addr.name == "f.n" for i in program.function("f").body)


def test_string_literal_is_a_string_global() -> None:
    program = lower_source('const char *s = "ab"; int f(void) { return "xyz"[1]; }', "t.c")
    strings = [g for g in program.globals if g.is_string]
    assert [g.name for g in strings] == [".str.0", ".str.1"]
    assert all(g.name.startswith(".str.") for g in strings)
    load = next(i for i in program.function("f").body if isinstance(i, Load))
    assert load.addr.ptr.kind is ObjKind.STRING


def test_loops_only_go_back_by_jumps() -> None:
    src = """int g; int f(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) { if (i == 3) continue; s += i; }
        while (s > 0) { s--; if (g) break; }
        do { s++; } while (s < 10);
        back: if (s-- > 0) goto back;
        for (;;) { if (s++ > 20) break; }
        return s;
    }"""
    instrs = body(src)
    back_edges = [pc for pc, i in enumerate(instrs) if isinstance(i, Jump) and i.target <= pc]
    assert len(back_edges) == 5  # for, while, do, goto, for(;;); continue goes forward
    for pc, i in enumerate(instrs):
        if isinstance(i, Branch):
            assert i.then > pc and i.other > pc


def test_infinite_loops_need_no_branch() -> None:
    instrs = body("int g; void f(void) { while (1) { g = 1; } }")
    assert not any(isinstance(i, Branch) for i in instrs)
    assert isinstance(instrs[1], Jump) and instrs[1].target == 0


def test_switch_is_a_chain_of_equality_branches_on_one_temporary() -> None:
    instrs = body("int g; int f(void) { switch (g) { case 1: return 10; case 2: case 3: return 20; default: return 0; } }")
    assert isinstance(instrs[0], Load)
    branches = [i for i in instrs if isinstance(i, Branch)]
    assert [b.cond.right.value for b in branches] == [1, 2, 3]
    assert all(b.cond.left == instrs[0].dst for b in branches)


def test_every_instruction_has_a_span_inside_the_file() -> None:
    src = open(__file__.replace("test_lower.py", "golden/statements.c")).read()
    lines = src.split("\n")
    program = lower_source(src, "s.c")
    for f in program.functions:
        for i in f.body:
            s = i.span
            assert s.file == "s.c"
            assert 1 <= s.line <= s.end_line <= len(lines)
            assert s.col >= 1 and (s.end_line, s.end_col) > (s.line, s.col)
            assert s.end_col <= len(lines[s.end_line - 1]) + 1


def test_load_span_is_the_expression_read() -> None:
    program = lower_source("int g;\nint f(void) {\n  return 1 + g;\n}\n", "t.c")
    load = program.function("f").body[0]
    assert (load.span.line, load.span.col, load.span.end_col) == (3, 14, 15)


def test_spans_count_characters_not_bytes() -> None:
    program = lower_source("int g;\nint f(void) { /* é */ g = 1; return 0; }\n", "t.c")
    store = program.function("f").body[0]
    assert (store.span.line, store.span.col) == (2, 23)  # 24 if bytes were counted


def test_conversions_are_explicit_casts() -> None:
    instrs = body("long f(unsigned char c, int i) { _Bool b = i; unsigned u = i; return c + u + b; }")
    b = instrs[0]
    assert isinstance(b.expr, Cast) and b.expr.type.is_bool and b.expr.arg.op == "!="
    u = instrs[1]
    assert isinstance(u.expr, Cast) and u.expr.type == IntType(32, False)


def test_pointer_arithmetic_is_scaled_and_differences_divided() -> None:
    instrs = body("long f(long *p, long *q) { p = p + 3; return q - p; }")
    from distaff.analysis.ir import PtrAdd, PtrDiff

    assert isinstance(instrs[0].expr, PtrAdd) and instrs[0].expr.offset == Const(24, IntType(64, True))
    ret = instrs[1].value
    assert ret.op == "/" and isinstance(ret.left, PtrDiff) and ret.right.value == 8


def test_call_through_a_pointer_has_a_non_address_callee() -> None:
    program = lower_source("int g(int x) { return x; } int f(int (*fp)(int)) { return fp(1) + g(2); }", "t.c")
    calls = [i for i in program.function("f").body if isinstance(i, Call)]
    assert isinstance(calls[0].callee, Reg)
    assert calls[1].callee == Addr("g", ObjKind.FUNCTION, calls[1].callee.type)


def test_floating_point_is_lowered_to_floating_operators() -> None:
    program = lower_source("int f(int x) { double d = x * 0.5; return d > 1; }", "t.c")
    assert program.findings == ()
    body = program.function("f").body
    assert format_instr(body[0]) == "d:f64 := ((f64)x * 0.5:f64)"
    assert format_instr(body[1]) == "return (d > 1.0:f64)"


def test_long_double_is_x86_64s_80_bit_type() -> None:
    program = lower_source("int f(int x) { long double d = x * 0.5L; return d > 1; }", "t.c")
    assert program.findings == ()
    body = program.function("f").body
    assert format_instr(body[0]) == "d:f80 := ((f80)x * 0.5L:f80)"
    assert format_instr(body[1]) == "return (d > 1.0L:f80)"


def test_long_double_outside_x86_64_is_unsupported_and_nondeterministic() -> None:
    # ILP32's long double is the same x87 format laid out in 12 bytes: not modelled
    program = lower_source("int f(int x) { long double d = x * 0.5L; return d > 1; }", "t.c",
                           data_model=DataModel.ILP32)
    messages = {fd.message for fd in program.findings}
    assert {fd.kind for fd in program.findings} == {FindingKind.UNSUPPORTED}
    assert "long double constant (only x86-64's long double is modelled)" in messages
    assert any(isinstance(i, Intrinsic) and i.op is Op.NONDET for i in program.function("f").body)


def test_inline_assembly_is_unsupported() -> None:
    program = lower_source('void f(void) { __asm__ volatile("movl $1, %%eax" ::: "memory"); }', "t.c")
    assert [fd.message for fd in program.findings] == ["inline assembly"]


def test_syntax_errors_are_findings_and_the_rest_is_lowered() -> None:
    program = lower_source("int g;\nint bad(void) { g = ; }\nint good(void) { return g; }\n", "t.c")
    syntax = [fd for fd in program.findings if fd.kind is FindingKind.SYNTAX]
    assert syntax and syntax[0].span.line == 2
    assert program.function("good") is not None


def test_internal_errors_become_findings_at_the_function(monkeypatch) -> None:
    from distaff.analysis.frontend import lower_stmt

    def boom(self, node):
        raise RuntimeError("boom")

    monkeypatch.setitem(lower_stmt._STMT, "while_statement", boom)
    program = lower_source("int ok(void) { return 1; }\nint f(void) { while (1) {} }\n", "t.c")
    assert program.function("ok") is not None
    stub = program.function("f").body  # calls of f stay well-formed: it returns a fresh value
    assert isinstance(stub[0], Intrinsic) and stub[0].op is Op.EXTERNAL and isinstance(stub[1], Return)
    (fd,) = program.findings
    assert fd.kind is FindingKind.UNSUPPORTED and fd.message.startswith("internal:") and fd.span.line == 2


def test_parse_program_runs_the_escape_analysis_and_never_raises() -> None:
    program = parse_program("int main(void) { int x = 0; int *p = &x; *p = 1; return x; }")
    assert program.function("main") is not None
    assert parse_program("\x00\xff}{ garbage ((( ").functions == ()


def test_long_double_values_are_fresh_wherever_they_are_read_outside_x86_64() -> None:
    program = lower_source("struct s { long double v; } gs;\nlong double half(long double v) { return v / 2; }\n"
                           "int f(int x) { long double d = x; gs.v = d; return (int)gs.v + (int)half(d); }",
                           "t.c", data_model=DataModel.ILP32)
    body = program.function("f").body
    nondets = [i for i in body if isinstance(i, Intrinsic) and i.op is Op.NONDET and i.dst is not None]
    # d twice, gs.v, half's result
    assert len(nondets) == 4 and all(i.name == "float" for i in nondets)
    assert not any(isinstance(i, Load) for i in body)
    assert {fd.kind for fd in program.findings} == {FindingKind.UNSUPPORTED}


def test_long_double_values_live_in_16_bytes_as_their_bit_patterns() -> None:
    program = lower_source("struct s { char c; long double v; } gs;\n"
                           "long double half(long double v) { return v / 2; }\n"
                           "int f(int x) { long double d = x; gs.v = d; return (int)gs.v + (int)half(d); }",
                           "t.c")
    assert program.findings == ()
    text = [format_instr(i) for i in program.function("f").body]
    assert text[:3] == ["d:f80 := (f80)x", "store f80 [(@gs +p 16:i64)] := d", "%t0:f80 := load f80 [(@gs +p 16:i64)]"]
    (g,) = [g for g in program.globals if g.name == "gs"]
    assert g.type.size == 32 and g.type.align == 16


def test_floating_values_live_in_memory_as_their_bit_patterns() -> None:
    program = lower_source("struct s { double v; float w; } gs;\ndouble half(double v) { return v / 2; }\n"
                           "int f(int x) { float d = x; gs.v = d; return (int)gs.v + (int)half(d); }",
                           "t.c")
    assert program.findings == ()
    text = [format_instr(i) for i in program.function("f").body]
    assert text[:5] == ["d:f32 := (f32)x", "%t0:f64 := (f64)d", "store f64 [@gs] := %t0",
                        "%t1:f64 := load f64 [@gs]", "%t2:f64 := call &half((f64)d)"]


def test_do_while_zero_has_no_back_edge() -> None:
    program = lower_source("void *r(void *a) { return a; }\nint main(void) { pthread_t t;"
                           " do { pthread_create(&t, 0, r, 0); } while (0); do ; while (1); }", "t.c")
    body = program.function("main").body
    back = [pc for pc, i in enumerate(body) if isinstance(i, Jump) and i.target <= pc]
    assert len(back) == 1 and body[back[0]].target == back[0]  # only the while (1)
    assert not program.threads[0].in_loop


def test_spans_of_macro_expansions_cover_the_invocation() -> None:
    src = "#define BUMP(v) v = v + 1\nint g;\nint main(void) {\n    BUMP(g);\n    return 0;\n}\n"
    body = lower_source(src, "m.c").function("main").body
    load, store = body[0], body[2]
    assert (load.span.line, load.span.col) == (4, 5) and load.span.end_col <= 12
    assert (store.span.line, store.span.col, store.span.end_col) == (4, 5, 12)
