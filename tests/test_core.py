"""The compiled core (distaff/core.py): built where a C compiler is, used only
while it is the build of its sources, and checking as the sources do."""

from __future__ import annotations

import ast
import collections
import copy
import dataclasses
import gc
import importlib
import importlib.machinery
import inspect
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from distaff import core
from distaff.analysis.record import Record

ROOT = Path(__file__).resolve().parent.parent
HAS_COMPILER = shutil.which("cc") is not None or shutil.which("gcc") is not None
needs_compiled = pytest.mark.skipif(core.STATE != "compiled",
                                    reason=f"the core is not compiled here ({core.STATE})")


def fake_package(root: Path) -> Path:
    """A package directory with every core module's source and a build of each."""
    for m in core.MODULES:
        src = core.source_of(m, root)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"# {m}\n")
        src.with_name(src.stem + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    (root / core.RECORD).write_text(json.dumps(core.record(root)))
    return root


@pytest.mark.skipif(not HAS_COMPILER, reason="no C compiler: the install is pure Python by design")
def test_the_install_compiled_the_core_where_a_compiler_is():
    # (after editing a core module, `pip install -e .` rebuilds it)
    assert core.STATE == "compiled"
    dpor = sys.modules.get("distaff.analysis.explore.dpor") or __import__(
        "distaff.analysis.explore.dpor", fromlist=["x"])
    assert not dpor.__file__.endswith(".py"), dpor.__file__


def test_a_build_is_used_only_while_every_source_is_the_one_built(tmp_path):
    pkg = fake_package(tmp_path)
    assert core.state(pkg, environ={}) == "compiled"
    assert core.state(pkg, environ={"DISTAFF_PURE": "1"}) == "pure Python, DISTAFF_PURE is set"
    dpor = core.source_of("distaff.analysis.explore.dpor", pkg)
    dpor.write_text("# edited\n")
    assert core.state(pkg, environ={}) == (
        "pure Python, dpor.py changed since the build (`pip install -e .` rebuilds it)")
    (pkg / core.RECORD).write_text(json.dumps(core.record(pkg)))
    assert core.state(pkg, environ={}) == "compiled"
    dpor.with_name("dpor" + importlib.machinery.EXTENSION_SUFFIXES[0]).unlink()
    assert core.state(pkg, environ={}) == (
        "pure Python, no build of distaff.analysis.explore.dpor for this Python")
    (pkg / core.RECORD).unlink()
    assert core.state(pkg, environ={}) == "pure Python, not compiled"


def run_python(code: str, **env) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={**os.environ, **env})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@needs_compiled
def test_distaff_pure_imports_every_core_module_from_its_source():
    code = ("import importlib, distaff.core as c\n"
            "print(c.STATE)\n"
            "for m in c.MODULES:\n"
            "    print(importlib.import_module(m).__file__.endswith('.py'))\n")
    pure = run_python(code, DISTAFF_PURE="1").split("\n")
    assert pure[0] == "pure Python, DISTAFF_PURE is set" and set(pure[1:-1]) == {"True"}
    compiled = run_python(code).split("\n")
    assert compiled[0] == "compiled" and set(compiled[1:-1]) == {"False"}


def core_dataclasses() -> list[tuple[type, list[tuple[str, object]], set[str]]]:
    """Each dataclass of the core with its constructor's parameters and
    defaults and the attributes it sets, read off the source (a compiled
    ``__init__`` has no signature)."""
    out = []
    for m in core.MODULES:
        mod = importlib.import_module(m)
        tree = ast.parse(core.source_of(m).read_text())
        for node in ast.walk(tree):
            c = vars(mod).get(getattr(node, "name", None))
            if not (isinstance(node, ast.ClassDef) and dataclasses.is_dataclass(c)):
                continue
            inits = [d for d in node.body if isinstance(d, ast.FunctionDef) and d.name == "__init__"]
            assert inits, f"{m}.{node.name} has no __init__ of its own"
            args = inits[0].args
            names = [a.arg for a in args.args[1:]]
            defaults = [eval(ast.unparse(d), vars(mod)) for d in args.defaults]
            params = list(zip(names, [inspect.Parameter.empty] * (len(names) - len(defaults)) + defaults))
            assigned = {t.attr for a in ast.walk(inits[0]) if isinstance(a, ast.Assign) for t in a.targets
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
            assigned |= {a.args[1].value for a in ast.walk(inits[0]) if isinstance(a, ast.Call)
                         and ast.unparse(a.func) == "object.__setattr__" and isinstance(a.args[1], ast.Constant)}
            out.append((c, params, assigned))
    return out


def test_every_dataclass_of_the_core_has_its_own_constructor_taking_its_fields():
    """The dataclasses module generates ``__init__`` as Python source, which
    stays interpreted in a compiled module (about 7x slower per object than a
    compiled one): the core's dataclasses say ``init=False`` and write their
    own, which must take every field in order with the field's default (None
    standing for a default factory) and set each."""
    classes = core_dataclasses()
    assert {"Event", "Frame", "Thread", "Step", "Footprint", "MemObject"} <= {c.__name__ for c, _, _ in classes}
    for c, params, assigned in classes:
        assert c.__dataclass_params__.init is False, c
        assert issubclass(c, Record), c  # (pickle and copy go through the constructor)
        fields = dataclasses.fields(c)
        assert [name for name, _ in params] == [f.name for f in fields], c
        assert assigned == {f.name for f in fields}, c
        for f, (_, default) in zip(fields, params):
            if f.default_factory is not dataclasses.MISSING:
                assert default is None, (c, f.name)
            elif f.default is not dataclasses.MISSING:
                assert default == f.default, (c, f.name)
            else:
                assert default is inspect.Parameter.empty, (c, f.name)


def test_the_cores_exception_classes_are_not_native():
    """Compiled as native classes, exceptions kept alive what they carried
    (every Leaf of a check: see test_a_check_leaves_no_objects_behind); the
    core's say ``@mypyc_attr(native_class=False)``."""
    tree_says = {}
    for m in core.MODULES:
        for node in ast.walk(ast.parse(core.source_of(m, ROOT / "distaff").read_text())):
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") == "Exception" for b in node.bases):
                tree_says[node.name] = any("native_class=False" in ast.unparse(d) for d in node.decorator_list)
    assert {"LeafReached", "PivotReached", "BudgetExpired", "MaxRunsReached"} <= set(tree_says)
    assert tree_says and all(tree_says.values()), tree_says


def test_the_core_dataclasses_pickle_and_copy():
    """Compiled, a class with its own ``__init__`` cannot be made empty first,
    as pickle and copy do by default: Record sends them through the constructor."""
    from distaff.analysis.explore.dependence import Footprint
    from distaff.analysis.ir import NO_SPAN
    from distaff.analysis.symex.pivots import Leaf, LeafKind
    from distaff.analysis.symex.state import Event, PlacedAccess

    event = Event(3, 1, "worker", 7, NO_SPAN)
    event.accesses.append(PlacedAccess(True, 5, 4, tid=1))
    for made in (Footprint(2, reads=((5, 4),), exit=True), Leaf(LeafKind.END, "done", NO_SPAN, 1), event,
                 PlacedAccess(False, 9, 1, atomic=True)):
        for again in (pickle.loads(pickle.dumps(made)), copy.copy(made), copy.deepcopy(made)):
            assert type(again) is type(made) and again == made and again is not made


def test_the_irs_width_functions():
    """Sizes, widths and two's complement readings of every kind of type (the
    engine asks them at nearly every instruction; masks and powers come from
    tables)."""
    from distaff.analysis import ir

    i32 = ir.IntType(32, True)
    point = ir.StructType("point", (ir.Field("x", i32, 0), ir.Field("y", i32, 4)), 8, 4)
    rows = [  # type, size, scalar, signed, bits with 32- and 64-bit pointers
        (ir.VoidType(), 0, False, False, 32, 64),
        (ir.IntType(8, False, is_bool=True), 1, True, False, 8, 8),
        (ir.IntType(16, True), 2, True, True, 16, 16),
        (ir.IntType(64, False), 8, True, False, 64, 64),
        (ir.PtrType(i32, 64), 8, True, False, 64, 64),
        (ir.PtrType(ir.VoidType(), 32), 4, True, False, 32, 32),
        (point, 8, False, False, 32, 64),
        (ir.ArrayType(i32, 5), 20, False, False, 32, 64),
        (ir.ArrayType(point, None), 0, False, False, 32, 64),
        (ir.StructType("opaque", (), 0, 1, complete=False), 0, False, False, 32, 64),
        (ir.FuncType(ir.VoidType(), ()), 1, False, False, 32, 64),
    ]
    for t, size, scalar, signed, b32, b64 in rows:
        assert (ir.type_size(t), ir.is_scalar(t), ir.is_signed(t)) == (size, scalar, signed), t
        assert (ir.bits_of(t, 32), ir.bits_of(t, 64)) == (b32, b64), t
    for bits in (1, 8, 32, 64, 128, 200):
        assert ir.mask(bits) == 2 ** bits - 1
        for v in (0, 1, 2 ** (bits - 1) - 1, 2 ** (bits - 1), 2 ** bits - 1):
            assert ir.to_signed(v, bits) == (v - 2 ** bits if v >= 2 ** (bits - 1) else v)


@pytest.mark.parametrize("mode", ["baseline", "dpor", "dpor-ag"])
def test_a_check_leaves_no_objects_behind(mode):
    """A reference the compiled code fails to drop keeps what it points to for
    the life of the process (symex/pivots.py's exception classes, compiled as
    native classes, left every Leaf they carried and a dict with it: 230 MB
    per check of Table 2's peterson.c in baseline, until the test workers ran
    out of memory; this test failed on that build). The third check of a program
    (14,235 runs in baseline) leaves at most a few objects of a type more alive
    than the second."""
    from distaff.analysis.check import Options, check_text

    text = (ROOT / "tests" / "programs" / "segments3.c").read_text()
    options = Options(mode=mode, workers=1)

    def alive() -> collections.Counter:
        list(check_text(text, "segments3.c", options))
        gc.collect()
        return collections.Counter(type(o).__name__ for o in gc.get_objects())

    alive()
    second = alive()
    grown = alive() - second
    # (caches keyed by program or options may keep a few objects more)
    assert not {t: n for t, n in grown.items() if n > 100}, grown.most_common(5)


@needs_compiled
@pytest.mark.parametrize("mode", ["baseline", "dpor", "dpor-ag"])
def test_the_compiled_and_the_pure_core_check_alike(mode):
    """Verdicts, run counts, schedules, inputs and learned summaries, on
    examples with violations, deadlocks and holds."""
    programs = [str(ROOT / "examples" / p) for p in ("racy_counter.c", "deadlock.c", "reorder.c",
                                                      "locked_counter.c", "producer_consumer.c")]
    code = (
        "import json, sys\n"
        "from distaff.analysis.check import Options, check_text\n"
        "out = []\n"
        f"for p in {programs!r}:\n"
        f"    o = Options(mode={mode!r}, workers=1, timeout_s=120)\n"
        "    for r in check_text(open(p).read(), p, o):\n"
        "        if hasattr(r, 'status'):\n"
        "            t = r.trace\n"
        "            out.append([p, r.id, r.status.name, r.stats.runs, r.stats.steps, r.stats.events,\n"
        "                        t and [(s.tid, s.span.line, s.action) for s in t.steps], t and [(i.name, i.value) for i in t.inputs],\n"
        "                        [(s.span.line, s.expr, s.pruned_runs) for s in r.summaries]])\n"
        "        elif hasattr(r, 'end'):\n"
        "            out.append([p, 'search', r.end.name])\n"
        "        else:\n"
        "            out.append([p, r.kind.name, r.message])\n"
        "print(json.dumps(out))\n")
    pure = json.loads(run_python(code, DISTAFF_PURE="1"))
    compiled = json.loads(run_python(code))
    assert compiled == pure
    assert any(row[2] == "VIOLATED" for row in compiled) and any(row[2] == "HOLDS" for row in compiled)


# Reviewed: where a variable of a fixed type takes a value mypy cannot type
# (an untyped table's entry, an untyped method's result), and the value is of
# that type whenever the code runs. module's last name: function: variable.
REVIEWED_UNTYPED_FLOWS = {
    "dpor:on_pivot:sleep", "dpor:on_pivot:wut",  # the pending reversal's sleep set and wakeup tree
    "dpor:dpor_node:st", "guided:guided_node:st",  # a node's store, made by the reduction's new_store
    "engine:resolve:oid", "engine:resolve_function:oid",  # a context's object ids are concrete
    "sync:_barrier_wait:entry",  # a context's barrier entry, as the state keeps them
    "memory:_load_cells:b",  # a cell's end offset
    "wakeup:insert:children",  # a wakeup node's children
    "guided:on_backtrack:accesses",  # the accesses _combine joins: a frozenset
    "guided:on_pivot:incoming",  # the pending reversal's sleep set, a dict
}


def untyped_flows() -> set[str]:
    """Assignments in the core's typed functions where a variable whose type
    mypy fixed (not Any, not object, no Any in a union) takes a value of type
    Any. The compiled code checks such a value as it runs: a z3 term reaching
    a variable first given an int or a bool there is a TypeError, not the
    sources' behaviour."""
    from mypy import build, nodes, types
    from mypy.main import process_options

    names = set(core.MODULES)
    sources = [str(core.source_of(m, Path("distaff"))) for m in core.MODULES]
    # no incremental cache: a module read from one (the install's build may
    # write it) comes without its types
    files, options = process_options(["--ignore-missing-imports", "--follow-imports=silent", "--no-incremental",
                                      *sources])
    options.export_types = True
    options.preserve_asts = True  # (else mypy drops function bodies once checked)
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = build.build(files, options)
    finally:
        os.chdir(here)

    def fixed(t) -> bool:
        t = types.get_proper_type(t)
        if t is None or isinstance(t, types.AnyType):
            return False
        if isinstance(t, types.Instance) and t.type.fullname == "builtins.object":
            return False
        return not (isinstance(t, types.UnionType)
                    and any(isinstance(types.get_proper_type(x), types.AnyType) for x in t.items))

    found = set()

    def assignment(module: str, fn, s) -> None:
        for lv in s.lvalues:
            if isinstance(lv, nodes.TupleExpr) and isinstance(s.rvalue, nodes.TupleExpr) \
                    and len(lv.items) == len(s.rvalue.items):
                pairs = list(zip(lv.items, s.rvalue.items))
            elif isinstance(lv, nodes.TupleExpr):
                untyped = isinstance(types.get_proper_type(result.types.get(s.rvalue)), types.AnyType)
                pairs = [(x, None) for x in lv.items] if untyped else []
            else:
                pairs = [(lv, s.rvalue)]
            for target, value in pairs:
                if not isinstance(target, (nodes.NameExpr, nodes.MemberExpr)):
                    continue
                if isinstance(target, nodes.NameExpr) and target.is_inferred_def:
                    continue
                if not isinstance(target.node, nodes.Var) or not fixed(target.node.type):
                    continue
                vt = types.get_proper_type(result.types.get(value)) if value is not None else None
                if value is None or isinstance(vt, types.AnyType):
                    found.add(f"{module.rsplit('.', 1)[1]}:{fn.name}:{target.name}")

    def walk(module: str, fn, n) -> None:
        if isinstance(n, list):
            for x in n:
                walk(module, fn, x)
        elif isinstance(n, nodes.Block):
            walk(module, fn, n.body)
        elif isinstance(n, nodes.FuncDef):
            if not n.is_dynamic():  # (an untyped function's variables are objects there)
                walk(module, n, n.body)
        elif isinstance(n, nodes.Decorator):
            walk(module, fn, n.func)
        elif isinstance(n, nodes.ClassDef):
            walk(module, fn, n.defs)
        elif isinstance(n, (nodes.IfStmt, nodes.WhileStmt, nodes.ForStmt)):
            walk(module, fn, n.body)
            if n.else_body is not None:
                walk(module, fn, n.else_body)
        elif isinstance(n, nodes.TryStmt):
            for part in (n.body, n.handlers, n.else_body, n.finally_body):
                if part is not None:
                    walk(module, fn, part)
        elif isinstance(n, nodes.WithStmt):
            walk(module, fn, n.body)
        elif isinstance(n, nodes.AssignmentStmt) and fn is not None:
            assignment(module, fn, n)

    for name, state in result.graph.items():
        if name in names and state.tree is not None:
            walk(name, None, state.tree.defs)
    return found


def test_the_compiled_core_gives_no_variable_a_value_its_type_rejects():
    pytest.importorskip("mypy", reason="mypy comes with the test extras")
    assert untyped_flows() == REVIEWED_UNTYPED_FLOWS
