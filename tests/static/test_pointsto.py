"""Points-to on hand-built IR: chains, fields, function pointers, thread arguments."""

from __future__ import annotations

import time

from distaff.analysis.ir import ArrayType, Field, InitValue, Ite, Op, PtrType, StructType
from distaff.analysis.static.pointsto import UNKNOWN, Loc, MemObject, ObjectKind, points_to
from tests.static.irbuild import (
    I32, I64, P, PP, VP, add, assign, c, call, create, fa, fn, g, gvar, load, op, program,
    r, ret, st, store,
)


def stack(func: str, name: str) -> MemObject:
    return MemObject(ObjectKind.STACK, name, func)


def glob(name: str) -> MemObject:
    return MemObject(ObjectKind.GLOBAL, name)


def objs(locs) -> set[str]:
    return {str(loc.obj) for loc in locs}


PAIR = StructType("pair", (Field("a", P, 0), Field("b", P, 8)), 16, 8)


def test_pointer_chain_through_memory():
    # int x, *p; int **pp = &p; p = &x; int *q = *pp; *q = 1;
    main = fn("main", [
        assign(r("pp", PP), st("p", P)),
        store(st("p", P), st("x", I32)),
        load(r("q"), r("pp", PP)),
        store(r("q"), c(1)),
        ret(c(0)),
    ], stack={"x": I32, "p": P})
    pts = points_to(program(main))
    assert pts.reg("main", "q") == {Loc(stack("main", "x"), 0)}
    assert pts.operand_targets("main", 3) == (frozenset({Loc(stack("main", "x"), 0)}),)
    assert pts.deref("main", 2) == {Loc(stack("main", "p"), 0)}


def test_struct_fields_stay_apart():
    # struct pair s; s.a = &x; s.b = &y; struct pair *sp = &s; int *u = sp->a, *v = sp->b;
    main = fn("main", [
        store(st("s", PAIR), st("x", I32)),
        store(add(st("s", PAIR), 8), st("y", I32)),
        assign(r("sp", PtrType(PAIR)), st("s", PAIR)),
        load(r("u"), r("sp", PtrType(PAIR))),
        assign(r("fb", PP), add(r("sp", PtrType(PAIR)), 8)),
        load(r("v"), r("fb", PP)),
        ret(c(0)),
    ], stack={"s": PAIR, "x": I32, "y": I32})
    pts = points_to(program(main))
    assert objs(pts.reg("main", "u")) == {"main.x"}
    assert objs(pts.reg("main", "v")) == {"main.y"}
    assert pts.deref("main", 5) == {Loc(stack("main", "s"), 8)}


def test_symbolic_index_reads_every_element_and_writes_any_offset():
    arr = ArrayType(P, 4)
    main = fn("main", [
        store(add(st("a", arr), 8), st("x", I32)),               # a[1] = &x
        store(add(st("a", arr), r("i", I64)), st("y", I32)),     # a[i] = &y
        load(r("u"), add(st("a", arr), r("j", I64))),            # u = a[j]
        load(r("v"), st("a", arr)),                              # v = a[0]
        load(r("w"), add(st("a", arr), 8)),                      # w = a[1]
        ret(c(0)),
    ], stack={"a": arr, "x": I32, "y": I32})
    pts = points_to(program(main))
    assert objs(pts.reg("main", "u")) == {"main.x", "main.y"}
    assert objs(pts.reg("main", "v")) == {"main.y"}
    assert objs(pts.reg("main", "w")) == {"main.x", "main.y"}
    assert pts.deref("main", 1) == {Loc(stack("main", "a"), None)}


def test_pointer_increment_loop_terminates_with_any_offset():
    arr = ArrayType(I32, 1000)
    main = fn("main", [
        assign(r("p"), st("a", arr)),
        assign(r("p"), add(r("p"), 4)),
        store(r("p"), c(0)),
        ret(c(0)),
    ], stack={"a": arr})
    pts = points_to(program(main))
    offsets = {loc.offset for loc in pts.reg("main", "p")}
    assert None in offsets and len(offsets) <= 17


def test_function_pointers_resolve_callees_and_bind_parameters():
    f = fn("f", [store(r("fp_arg"), c(1)), ret(c(0))], params=(r("fp_arg"),))
    h = fn("h", [ret(c(0))], params=(r("hp"),))
    main = fn("main", [
        # fp = c ? f : h; table[1] = fp; (*table[1])(&x)
        assign(r("fp", VP), Ite(r("c", I32), fa("f"), fa("h"), VP)),
        store(add(g("table", ArrayType(VP, 2)), 8), r("fp", VP)),
        load(r("q", VP), add(g("table", ArrayType(VP, 2)), 8)),
        call(r("q", VP), st("x", I32), dst=r("res", I32)),
        call(fa("f"), st("y", I32)),
        ret(c(0)),
    ], stack={"x": I32, "y": I32})
    pts = points_to(program(main, f, h, globals=(gvar("table", ArrayType(VP, 2)),)))
    assert pts.callees[("main", 3)] == ("f", "h")
    assert pts.callees[("main", 4)] == ("f",)
    assert ("main", 3) not in pts.unknown_calls
    assert objs(pts.reg("f", "fp_arg")) == {"main.x", "main.y"}
    assert objs(pts.reg("h", "hp")) == {"main.x"}


def test_function_pointer_in_global_initialiser():
    ops = StructType("ops", (Field("run", VP, 0),), 8, 8)
    f = fn("f", [ret(c(7))])
    main = fn("main", [
        load(r("q", VP), g("vt", ops)),
        call(r("q", VP), dst=r("v", I32)),
        ret(c(0)),
    ])
    vt = gvar("vt", ops, (InitValue(0, VP, fa("f")),))
    pts = points_to(program(main, f, globals=(vt,)))
    assert pts.callees[("main", 1)] == ("f",)


def test_thread_argument_reaches_routine_parameter_and_join_result():
    worker = fn("worker", [
        load(r("v", I32), r("arg", VP), I32),
        op(Op.MALLOC, c(4, I64), dst=r("m", VP), name="malloc"),
        ret(r("m", VP)),
    ], params=(r("arg", VP),), ret_type=VP)
    main = fn("main", [
        assign(r("rt", VP), fa("worker")),
        create(st("t", I64), r("rt", VP), st("data", I32)),
        load(r("h", I64), st("t", I64)),
        op(Op.THREAD_JOIN, r("h", I64), st("res", VP)),
        load(r("out", VP), st("res", VP)),
        ret(c(0)),
    ], stack={"t": I64, "data": I32, "res": VP})
    pts = points_to(program(main, worker))
    assert pts.routines[("main", 1)] == ("worker",)
    assert objs(pts.reg("worker", "arg")) == {"main.data"}
    assert objs(pts.locs(pts.thread_args)) == {"main.data"}
    assert objs(pts.reg("main", "out")) == {"malloc@worker:1"}
    assert objs(pts.deref("worker", 0)) == {"main.data"}


def test_sync_operands_report_their_objects():
    main = fn("main", [
        op(Op.MUTEX_LOCK, g("m", I64)),
        op(Op.COND_WAIT, g("cv", I64), g("m", I64)),
        op(Op.MUTEX_UNLOCK, g("m", I64)),
        ret(c(0)),
    ])
    pts = points_to(program(main, globals=(gvar("m", I64), gvar("cv", I64))))
    assert pts.deref("main", 0) == {Loc(glob("m"), 0)}
    assert pts.operand_targets("main", 1) == ({Loc(glob("cv"), 0)}, {Loc(glob("m"), 0)})


def test_memcpy_keeps_fields():
    main = fn("main", [
        store(st("s", PAIR), st("x", I32)),
        store(add(st("s", PAIR), 8), st("y", I32)),
        op(Op.MEMCPY, st("d", PAIR), st("s", PAIR), c(16, I64)),
        load(r("u"), st("d", PAIR)),
        load(r("v"), add(st("d", PAIR), 8)),
        ret(c(0)),
    ], stack={"s": PAIR, "d": PAIR, "x": I32, "y": I32})
    pts = points_to(program(main))
    assert objs(pts.reg("main", "u")) == {"main.x"}
    assert objs(pts.reg("main", "v")) == {"main.y"}


def test_integers_made_pointers_and_externals_are_unknown():
    from distaff.analysis.ir import Cast
    main = fn("main", [
        assign(r("p"), Cast(r("n", I64), P)),
        op(Op.EXTERNAL, st("x", I32), dst=r("e", VP), name="getenv"),
        assign(r("z"), Cast(c(0, I64), P)),
        ret(c(0)),
    ], stack={"x": I32})
    pts = points_to(program(main, externals=("getenv",)))
    assert pts.reg("main", "p") == {Loc(UNKNOWN, None)}
    assert objs(pts.reg("main", "e")) == {"?", "main.x"}
    assert pts.reg("main", "z") == frozenset()
    assert ("main", 1) in pts.unknown_calls


def realistic_program(functions: int = 300):
    """About 15,000 instructions (a 5,000-line C file lowers to roughly that):
    functions with stack structs, heap nodes linked into a global list, a
    helper called with many different addresses, locks and thread creation."""
    node = StructType("node", (Field("next", VP, 0), Field("val", P, 8)), 16, 8)
    helper = fn("set", [store(r("hp"), r("hv", I32)), ret(c(0))], params=(r("hp"), r("hv", I32)))
    funcs = [helper]
    for k in range(functions):
        body = [
            op(Op.MALLOC, c(16, I64), dst=r("n", VP), name="malloc"),
            load(r("h", VP), g("head", VP)),
            store(r("n", VP), r("h", VP)),
            store(g("head", VP), r("n", VP)),
            store(add(r("n", VP), 8), st("x", I32)),
            op(Op.MUTEX_LOCK, g("m", I64)),
        ]
        for j in range(8):
            body += [
                call(fa("set"), st("x", I32), c(j)),
                assign(r(f"q{j}"), add(st("s", node), 8)),
                store(r(f"q{j}"), st("y", I32), P),
                load(r(f"v{j}"), add(st("s", node), 8)),
                load(r(f"w{j}", I32), r(f"v{j}"), I32),
            ]
        body += [op(Op.MUTEX_UNLOCK, g("m", I64)), ret(c(0, VP))]
        funcs.append(fn(f"worker{k}", body, params=(r("arg", VP),),
                        stack={"x": I32, "y": I32, "s": node}, ret_type=VP))
    main = fn("main", [
        create(add(st("t", ArrayType(I64, functions)), 8 * k), fa(f"worker{k}"), c(0, VP))
        for k in range(functions)
    ] + [ret(c(0))], stack={"t": ArrayType(I64, functions)})
    return program(main, *funcs, globals=(gvar("head", VP), gvar("m", I64)))


def test_five_thousand_line_program_is_fast():
    prog = realistic_program()
    assert sum(len(f.body) for f in prog.functions) > 14000
    t0 = time.process_time()
    pts = points_to(prog)
    elapsed = time.process_time() - t0
    assert objs(pts.reg("set", "hp")) == {f"worker{k}.x" for k in range(300)}
    assert objs(pts.reg("worker7", "v3")) == {"worker7.y"}
    assert len(pts.reg("worker7", "h")) == 300  # every heap node, through the list
    assert elapsed < 3.0, elapsed  # typically well under a second; slack for a loaded CI
