"""Linking translation units as a C linker does (analysis/link.py): external
names shared, static ones per file, tentative definitions merged, duplicates
and missing definitions named; and the linked program checked as any other."""

from __future__ import annotations

import pytest

from distaff.analysis.check import check, disk_includes
from distaff.analysis.frontend import translation_unit
from distaff.analysis.frontend.build_flags import flags_for
from distaff.analysis.ir import Call, FindingKind, Intrinsic, Op
from distaff.analysis.link import LinkError, link
from distaff.analysis.options import Options
from distaff.analysis.report import AssertionResult, Status
from tests.link.projects import MULTI, expected, files

OPTIONS = Options(timeout_s=60, workers=1)


def unit(path: str, text: str):
    return translation_unit(text, path)


def project_units(project: str, names: list[str] | None = None):
    root = MULTI / project
    out = []
    for rel in names or files(project):
        path = root / rel
        out.append(translation_unit(path.read_text(), str(path), read_include=disk_includes,
                                    flags=flags_for(str(path))))
    return out


def verdicts(linked) -> dict[tuple[str, int], AssertionResult]:
    out = {}
    for item in check(linked.program, OPTIONS):
        if isinstance(item, AssertionResult):
            item = linked.shown(item)
            out[(item.span.file, item.span.line)] = item
    return out


def by_project_path(project: str, results) -> dict[tuple[str, int], str]:
    root = str(MULTI / project) + "/"
    return {(f.removeprefix(root), line): r.status.label for (f, line), r in results.items()}


@pytest.mark.parametrize("project", ["tally", "statics", "pool"])
def test_linked_projects_have_the_verdicts_their_files_state(project):
    linked = link(project_units(project), require_entry=True)
    assert by_project_path(project, verdicts(linked)) == expected(project)


def test_the_lost_update_in_one_file_breaks_the_assertion_in_another():
    linked = link(project_units("tally"))
    results = verdicts(linked)
    main = str(MULTI / "tally" / "src" / "main.c")
    violated = results[(main, 19)]
    assert violated.status is Status.VIOLATED
    files_stepped = {s.span.file.rsplit("/", 1)[-1] for s in violated.trace.steps}
    assert {"main.c", "queue.c", "worker.c", "stats.c"} <= files_stepped
    # the two workers read the total before either writes it back
    reads = [s for s in violated.trace.steps if s.action == "read total == 0"]
    assert len({s.thread for s in reads}) == 2
    # worker.c has no main: its calls of other files' functions became calls
    worker = linked.program.function("worker")
    assert not [i for i in worker.body if isinstance(i, Intrinsic) and i.op is Op.EXTERNAL]
    assert {i.callee.name for i in worker.body if isinstance(i, Call)} == {"queue_pop", "stats_add"}


def test_statics_of_the_same_name_stay_each_files_own_and_read_as_their_c_names():
    linked = link(project_units("statics"))
    renamed = {(path.rsplit("/", 1)[-1], c) for path, c, _ in linked.renamed}
    assert renamed == {("fast.c", "count"), ("fast.c", "bump"), ("slow.c", "count"), ("slow.c", "bump")}
    ids = [s.id for s in linked.program.assertions()]
    assert len(ids) == len(set(ids)) == 4  # the two bump()s' assertions are two sites
    fast = str(MULTI / "statics" / "fast.c")
    assert linked.internal_name(fast, "count") != linked.internal_name(str(MULTI / "statics" / "slow.c"), "count")
    assert linked.internal_name(fast, "fast_run") == "fast_run"  # external names are never renamed
    results = verdicts(linked)
    failing = next(r for r in results.values() if r.status is Status.VIOLATED)
    actions = " ".join(s.action for s in failing.trace.steps)
    threads = {s.thread for s in failing.trace.steps}
    assert "call bump" in actions and "read count == 0" in actions and "@" not in actions
    assert threads == {"main", "fast_run#1", "slow_run#1"}


def test_a_thread_routine_passed_through_a_pointer_from_another_file_is_resolved():
    linked = link(project_units("pool"))
    (site,) = linked.program.threads
    assert site.func == "pool_start" and site.routines == ("run_tasks",)
    assert "run_tasks" in linked.program.thread_routines()


def test_a_name_defined_twice_is_an_error_naming_both_places():
    with pytest.raises(LinkError) as e:
        link(project_units("duplicate"))
    message = str(e.value)
    assert "duplicate definition of `workers`" in message
    assert "config.c:4:5" in message and "defaults.c:4:5" in message and "\n" not in message
    a = unit("a.c", "int helper(void) { return 1; }\n")
    b = unit("b.c", "int helper(void) { return 2; }\nint main(void) { return helper(); }\n")
    with pytest.raises(LinkError, match=r"duplicate definition of `helper`: a.c:1:1 and b.c:1:1"):
        link([a, b])
    c = unit("c.c", "int helper;\n")
    with pytest.raises(LinkError, match=r"`helper` is a function at a.c:1:1 and an object at c.c:1:5"):
        link([a, c])
    with pytest.raises(LinkError, match=r"duplicate definition of `main`"):
        link([unit("m1.c", "int main(void) { return 0; }\n"), unit("m2.c", "int main(void) { return 1; }\n")])


def test_tentative_definitions_merge_and_an_initialised_one_wins():
    a = unit("a.c", "int n;\nint limit;\nvoid bump(void) { n++; }\n")
    b = unit("b.c", "#include <assert.h>\nint n;\nint limit = 3;\nvoid bump(void);\n"
                    "int main(void) { bump(); bump(); assert(n == 2 && limit == 3); return 0; }\n")
    linked = link([a, b])
    assert [g.name for g in linked.program.globals].count("n") == 1
    (result,) = [v for v in verdicts(linked).values()]
    assert result.status is Status.HOLDS, result.message
    assert link([b, a]).program.global_var("limit").init  # whichever file comes first


def test_what_no_file_defines_is_named_with_its_users():
    a = unit("a.c", "#include <assert.h>\nextern int limit;\nint lookup(int key);\n"
                    "int main(void) { int v = lookup(3); assert(v != 7); return 0; }\n"
                    "int check(void) { assert(limit == 0); return 0; }\n")
    linked = link([a, unit("b.c", "int unused;\n")])
    undefined = {u.name: u for u in linked.undefined}
    assert set(undefined) == {"limit", "lookup"}
    assert undefined["lookup"].kind == "function" and undefined["limit"].kind == "object"
    assert undefined["lookup"].describe() == "`lookup` is defined in no linked file (used at a.c:4:26)"
    # the object's value is not known: a finding, so nothing about it holds
    assert any(f.kind is FindingKind.UNSUPPORTED and "`limit`" in f.message for f in linked.program.findings)
    assert [u.line for u in undefined["limit"].users] == [5]  # where check() reads it
    results = sorted(verdicts(linked).values(), key=lambda r: r.span.line)
    assert [r.status for r in results] == [Status.VIOLATED, Status.UNKNOWN]
    assert "`limit`" in results[1].message
    assert results[0].depends_on  # the violation relies on lookup() returning 7


def test_linking_needs_a_main_when_asked_and_calls_with_the_wrong_arguments_are_findings():
    with pytest.raises(LinkError, match="no linked file defines `main` \\(a.c\\)"):
        link([unit("a.c", "int f(void) { return 0; }\n")], require_entry=True)
    a = unit("a.c", "int twice(int x, int y) { return x + y; }\n")
    b = unit("b.c", "int twice();\nint main(void) { return twice(1); }\n")
    linked = link([a, b])
    (finding,) = [f for f in linked.program.findings if "twice" in f.message]
    assert finding.message == "call of `twice` with 1 arguments, defined with 2 at a.c:1:1: its result is any value"


def test_header_inline_helpers_are_each_files_own():
    header = "static inline int twice(int x) { return 2 * x; }\ninline int half(int x) { return x / 2; }\n"
    a = unit("a.c", header + "int a_value(void) { return twice(half(4)); }\n")
    b = unit("b.c", header + "#include <assert.h>\nint a_value(void);\n"
                             "int main(void) { assert(a_value() == twice(2) && half(6) == 3); return 0; }\n")
    linked = link([a, b])
    assert sorted(f.name for f in linked.program.functions) == \
        ["a_value", "half@a.c", "half@b.c", "main", "twice@a.c", "twice@b.c"]
    (result,) = verdicts(linked).values()
    assert result.status is Status.HOLDS


def test_an_extern_array_takes_its_definitions_size():
    a = unit("a.c", "int slots[4];\n")
    b = unit("b.c", "#include <assert.h>\nextern int slots[];\n"
                    "int main(void) { slots[3] = 1; assert(slots[3] == 1); return 0; }\n")
    linked = link([b, a])
    assert linked.program.global_var("slots").type.length == 4
    (result,) = verdicts(linked).values()
    assert result.status is Status.HOLDS


def test_structs_by_value_cross_files_in_the_front_ends_convention():
    # a.c calls b.c's functions: the call passes the hidden result pointer and
    # the address of the argument's copy, as b.c's definitions take them
    a = unit("a.c", "struct p { int x, y; };\nstruct p make(int a);\nint sum(struct p q);\n"
                    "int main(void) { struct p v = make(2); assert(sum(v) == 5); return 0; }\n")
    b = unit("b.c", "struct p { int x, y; };\n"
                    "struct p make(int a) { struct p r; r.x = a; r.y = a + 1; return r; }\n"
                    "int sum(struct p q) { return q.x + q.y; }\n")
    linked = link([a, b], require_entry=True)
    assert not [f for f in linked.program.findings if f.kind is FindingKind.UNSUPPORTED]
    calls = [i for i in linked.program.function("main").body if isinstance(i, Call)]
    assert [(c.callee.name, len(c.args)) for c in calls] == [("make", 2), ("sum", 1)]
    assert [r.status for r in verdicts(linked).values()] == [Status.HOLDS]
