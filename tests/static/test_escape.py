"""Escape analysis: which Load/Store/memory intrinsics stay LOCAL."""

from __future__ import annotations

import dataclasses

from distaff.analysis.ir import ArrayType, Cast, Kind, Op
from distaff.analysis.static.escape import classify, shared_objects
from distaff.analysis.static.pointsto import points_to
from tests.static.irbuild import (
    I32, I64, P, VP, add, assign, c, create, fa, fn, g, gvar, load, op, program, r, ret, st,
    store,
)

ARR = ArrayType(I32, 10)


def kinds(p, func):
    return [i.kind for i in p.function(func).body]


def worker_with_local_array():
    return fn("worker", [
        store(add(st("a", ARR), r("i", I64)), r("i", I32)),    # a[i] = i
        load(r("x", I32), add(st("a", ARR), 8), I32),          # x = a[2]
        store(g("gx", I32), r("x", I32)),                      # gx = x
        ret(c(0, VP)),
    ], params=(r("arg", VP),), stack={"a": ARR}, ret_type=VP)


def test_thread_local_array_stays_local_and_globals_stay_global():
    main = fn("main", [create(st("t", I64), fa("worker"), c(0, VP)), ret(c(0))], stack={"t": I64})
    p = classify(program(main, worker_with_local_array(), globals=(gvar("gx", I32),)))
    assert kinds(p, "worker")[:3] == [Kind.LOCAL, Kind.LOCAL, Kind.GLOBAL]


def test_local_whose_address_is_a_thread_argument_becomes_global():
    worker = fn("worker", [load(r("v", I32), r("arg", VP), I32), ret(c(0, VP))],
                params=(r("arg", VP),), ret_type=VP)
    main = fn("main", [
        store(st("data", I32), c(1)),
        create(st("t", I64), fa("worker"), st("data", I32)),
        load(r("h", I64), st("t", I64)),
        op(Op.THREAD_JOIN, r("h", I64), c(0, VP)),
        load(r("d", I32), st("data", I32)),
        store(st("own", I32), r("d", I32)),
        ret(c(0)),
    ], stack={"data": I32, "t": I64, "own": I32})
    p = classify(program(main, worker))
    k = kinds(p, "main")
    assert (k[0], k[2], k[4], k[5]) == (Kind.GLOBAL, Kind.LOCAL, Kind.GLOBAL, Kind.LOCAL)
    assert kinds(p, "worker")[0] is Kind.GLOBAL


def test_heap_block_stored_into_a_global_is_shared_another_is_not():
    main = fn("main", [
        op(Op.MALLOC, c(4, I64), dst=r("p"), name="malloc"),
        store(r("p"), c(1)),
        store(g("gp"), r("p")),
        op(Op.MALLOC, c(4, I64), dst=r("q"), name="malloc"),
        store(r("q"), c(2)),
        op(Op.MEMSET, r("q"), c(0), c(4, I64)),
        op(Op.MEMSET, r("p"), c(0), c(4, I64)),
        op(Op.FREE, r("q")),
        op(Op.FREE, r("p")),
        ret(c(0)),
    ])
    p = classify(program(main, globals=(gvar("gp"),)))
    assert kinds(p, "main")[1:9] == [
        Kind.GLOBAL, Kind.GLOBAL, Kind.LOCAL, Kind.LOCAL, Kind.LOCAL, Kind.GLOBAL,
        Kind.LOCAL, Kind.GLOBAL,
    ]


def test_unknown_and_null_pointers_are_global():
    helper = fn("never_called", [store(r("hp"), c(3)), ret(c(0))], params=(r("hp"),))
    main = fn("main", [
        assign(r("p"), Cast(r("n", I64), P)),
        store(r("p"), c(1)),
        store(c(0, P), c(1)),
        op(Op.EXTERNAL, dst=r("e"), name="get_buffer"),
        load(r("v", I32), r("e"), I32),
        ret(c(0)),
    ])
    p = classify(program(main, helper, externals=("get_buffer",)))
    assert kinds(p, "main")[1:5] == [Kind.GLOBAL, Kind.GLOBAL, Kind.LOCAL, Kind.GLOBAL]
    assert kinds(p, "never_called")[0] is Kind.GLOBAL


def test_sharing_is_transitive_through_heap_and_stack():
    # struct box { int *inner; } on the heap, holding &local; the box goes to a thread.
    worker = fn("worker", [
        load(r("in"), r("arg", VP)),
        store(r("in"), c(5)),
        ret(c(0, VP)),
    ], params=(r("arg", VP),), ret_type=VP)
    main = fn("main", [
        op(Op.MALLOC, c(8, I64), dst=r("box", VP), name="malloc"),
        store(r("box", VP), st("local", I32)),
        create(st("t", I64), fa("worker"), r("box", VP)),
        store(st("local", I32), c(1)),
        store(st("other", I32), c(1)),
        ret(c(0)),
    ], stack={"local": I32, "other": I32, "t": I64})
    prog = program(main, worker)
    shared = {str(o) for o in shared_objects(points_to(prog))}
    assert shared == {"?", "malloc@main:0", "main.local"}
    p = classify(prog)
    assert kinds(p, "main")[3:5] == [Kind.GLOBAL, Kind.LOCAL]
    assert kinds(p, "worker")[:2] == [Kind.GLOBAL, Kind.GLOBAL]


def test_thread_result_is_shared():
    worker = fn("worker", [
        op(Op.MALLOC, c(4, I64), dst=r("m", VP), name="malloc"),
        store(r("m", VP), c(1), I32),
        ret(r("m", VP)),
    ], params=(r("arg", VP),), ret_type=VP)
    main = fn("main", [create(st("t", I64), fa("worker"), c(0, VP)), ret(c(0))], stack={"t": I64})
    p = classify(program(main, worker))
    assert kinds(p, "worker")[1] is Kind.GLOBAL


def test_classify_changes_only_kinds():
    main = fn("main", [create(st("t", I64), fa("worker"), c(0, VP)), ret(c(0))], stack={"t": I64})
    before = program(main, worker_with_local_array(), globals=(gvar("gx", I32),))
    after = classify(before)
    assert after.function("worker") is not before.function("worker")
    assert after.function("main") is before.function("main")
    strip = lambda prog: [
        [dataclasses.replace(i, kind=Kind.LOCAL) for i in f.body] for f in prog.functions
    ]
    assert strip(after) == strip(before)
    assert (after.globals, after.threads, after.findings, after.path) == (
        before.globals, before.threads, before.findings, before.path)
    assert classify(after) is after
