"""Structs and unions passed to and returned from functions by value, as
lower_aggregate's convention has them: the caller copies an argument into a
temporary and passes its address; a struct result comes back in a temporary
of the caller's whose address is the hidden first argument. Each scalar of a
shared struct copied is its own access."""

from __future__ import annotations

from distaff.analysis.frontend import lower_source
from distaff.analysis.ir import Call, Intrinsic, Kind, Load, Op, PtrType, Store, StructType

PRELUDE = "struct p { int x, y; };\nstruct big { int a[40]; };\n"


def lower(body: str):
    program = lower_source(PRELUDE + body, "t.c")
    assert program.findings == (), program.findings
    return program


def test_a_struct_result_goes_through_a_hidden_first_parameter() -> None:
    program = lower("struct p make(int a) { struct p r = { a, a + 1 }; return r; }")
    f = program.function("make")
    assert [p.name for p in f.params] == ["%ret", "a"]
    assert isinstance(f.params[0].type, PtrType) and f.params[0].type.pointee.name == "p"
    assert isinstance(f.type.ret, StructType)  # the C type is kept
    stores = [i for i in f.body if isinstance(i, Store) and "%ret" in str(i.addr)]
    assert len(stores) == 2  # return r: copied scalar by scalar


def test_a_struct_parameter_is_the_callers_copy_at_the_address_passed() -> None:
    program = lower("int sum(struct p q) { q.x++; return q.x + q.y; }\n"
                    "struct p g;\nint main(void) { return sum(g); }")
    f = program.function("sum")
    assert [(p.name, str(p.type)) for p in f.params] == [("q", "struct p*")]
    main = program.function("main")
    assert [s.name for s in main.stack] == [".arg"]
    loads = [i for i in main.body if isinstance(i, Load)]
    stores = [i for i in main.body if isinstance(i, Store)]
    assert len(loads) == 2 and all("'g'" in str(i.addr) for i in loads)  # g.x and g.y, each its own load
    assert all(i.kind is Kind.GLOBAL for i in loads)
    assert len(stores) == 2 and all(".arg" in str(i.addr) for i in stores)
    (call,) = [i for i in main.body if isinstance(i, Call)]
    assert "'.arg'" in str(call.args[0])


def test_results_arguments_and_compound_literals_in_every_position() -> None:
    program = lower("""
struct p make(int a) { struct p r = { a, a + 1 }; return r; }
struct p swap(struct p q) { int t = q.x; q.x = q.y; q.y = t; return q; }
int sum(struct p q) { return q.x + q.y; }
struct p (*fp)(struct p) = swap;
struct p g;
int main(void) {
    struct p v = make(2);
    v = swap(v);
    g = fp(make(1));
    int a = sum((struct p){ 4, 5 }) + make(7).y + sum(1 ? v : g);
    struct p s = ({ struct p t = make(8); t.x++; t; });
    return a + s.x + (v = g).y;
}""")
    main = program.function("main")
    calls = [i for i in main.body if isinstance(i, Call)]
    assert len(calls) == 8
    assert all(len(c.args) == 2 for c in calls if "make" in str(c.callee) or "swap" in str(c.callee))
    temps = sorted(s.name.split(".")[1] for s in main.stack if s.name.startswith("."))
    assert set(temps) == {"arg", "ret", "compound", "cond"}


def test_a_large_struct_argument_is_one_copy_step() -> None:
    program = lower("int first(struct big b) { return b.a[0]; }\nstruct big g;\n"
                    "int main(void) { return first(g); }")
    copies = [i for i in program.function("main").body if isinstance(i, Intrinsic) and i.op is Op.MEMCPY]
    assert [c.name for c in copies] == ["struct copy"]


def test_a_body_less_function_returns_its_struct_through_the_temporary() -> None:
    program = lower("struct p get(struct p);\nstruct p g;\nint main(void) { g = get(g); return g.x; }")
    (ext,) = [i for i in program.function("main").body if isinstance(i, Intrinsic) and i.op is Op.EXTERNAL]
    assert ext.name == "get" and ext.dst is None
    assert "'.ret'" in str(ext.args[0]) and "'.arg'" in str(ext.args[1])


def test_a_union_passes_by_value_too() -> None:
    program = lower("union u { int i; char c[4]; };\nunion u mk(int v) { union u x; x.i = v; return x; }\n"
                    "int main(void) { return mk(3).c[0]; }")
    assert [p.name for p in program.function("mk").params] == ["%ret", "v"]


def test_a_struct_used_as_a_scalar_is_still_reported() -> None:
    program = lower_source(PRELUDE + "struct p make(void);\nint main(void) { return make() + 1; }", "t.c")
    assert [f.message for f in program.findings] == ["struct or void value used as a scalar"]
