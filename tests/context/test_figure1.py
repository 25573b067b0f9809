"""The arbitrary-context paper's Figure 1 (our copy: tests/programs/context/nodes.c)
from its two marked lines, on the command line: the full context proves the
assertion; the naive context explores more paths and reports a violation
that no run from main has."""

import json
import re

from distaff.analysis.check import Options, check, check_assertion
from distaff.analysis.report import AssertionResult, Status
from distaff.server import cli
from tests.context.cases import CASES_DIR, load

FIGURE1 = load(CASES_DIR / "nodes.c")
FROM = [arg for line in FIGURE1.lines for arg in ("--from", str(line))]


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _only_assertion(out: str) -> tuple[dict, dict]:
    (f,) = json.loads(out)["files"]
    (a,) = f["assertions"]
    return f, a


def test_full_context_proves_the_assertion(capsys):
    code, out, err = run(capsys, "check", "--format", "json", "--mode", "dpor", "--unwind", "2", *FROM,
                         str(FIGURE1.path))
    f, a = _only_assertion(out)
    assert (code, err) == (0, "")
    assert a["status"] == "holds" and not a.get("counterexample")
    assert a["context"] == "context (reaching definitions, synchronization invariants)"
    assert f["ingredients"] == {"reaching_defs": True, "sync_invariants": True}
    assert f["from"] == [[30, 9], [40, 5]]


def test_naive_context_explores_more_and_reports_a_false_violation(capsys):
    code, out, _ = run(capsys, "check", "--format", "json", "--mode", "dpor", "--unwind", "2", "--max-runs", "200",
                       "--naive-context", "--disable", "context_confirm", *FROM, str(FIGURE1.path))
    f, a = _only_assertion(out)
    assert code == 1 and a["status"] == "violated" and a["counterexample"]["steps"]
    assert a["context"] == "approximate context (fresh symbols)"
    assert f["ingredients"] == {"reaching_defs": False, "sync_invariants": False}
    # the same sub-check with every ingredient: fewer runs, no violation
    program = FIGURE1.program()
    (site,) = program.assertions()
    options = Options(mode="dpor", unwind=2, optimisations=(("context_confirm", False),))
    full, _ = check_assertion(program, site, options, None, FIGURE1.context(program, "full"))
    naive, _ = check_assertion(program, site, options, None, FIGURE1.context(program, "naive"))
    assert full.status is Status.HOLDS and naive.status is Status.VIOLATED
    assert naive.stats.runs > full.stats.runs
    # the violation cannot happen: from main (with the bound main's loops need) it holds
    whole = [r for r in check(program, Options(mode="dpor", unwind=3)) if isinstance(r, AssertionResult)]
    assert [r.status for r in whole] == [Status.HOLDS]
    # which the check from main finds, taking the naive context's false alarm back
    assert naive.depends_on  # possible from the context: it relies on values the context does not know
    taken_back, _ = check_assertion(program, site, Options(mode="dpor", unwind=3), None,
                                    FIGURE1.context(program, "naive"))
    assert taken_back.status is Status.HOLDS and taken_back.stats.counter("context_refuted") == 1


def test_without_synchronization_invariants_the_lock_may_be_free(capsys):
    code, out, _ = run(capsys, "check", "--format", "json", "--mode", "dpor", "--unwind", "2",
                       "--no-sync-invariants", "--disable", "context_confirm", *FROM, str(FIGURE1.path))
    f, a = _only_assertion(out)
    assert code == 1 and a["status"] == "violated"
    assert a["context"] == "approximate context (no synchronization invariants)"
    # the counterexample starts with the bumper taking the lock the adder holds in truth
    actions = [s["action"] for s in a["counterexample"]["steps"]]
    assert any(x.startswith("lock slots[1]") for x in actions)


def test_ingredient_switches_need_a_context(capsys):
    code, out, err = run(capsys, "check", "--naive-context", str(FIGURE1.path))
    assert code == 2 and out == "" and "need --from" in err and err.count("\n") == 1


def test_a_counterexample_from_a_context_replays_with_the_same_ingredients(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--format", "json", "--mode", "dpor", "--unwind", "2",
                       "--no-sync-invariants", "--disable", "context_confirm", *FROM, str(FIGURE1.path))
    assert code == 1
    result = tmp_path / "result.json"
    result.write_text(out)
    code, out, _ = run(capsys, "check", "--replay", str(result))
    assert code == 1
    m = re.search(r"replayed (\d+) of (\d+) counterexamples?, (\d+) identical", out.splitlines()[-1])
    assert m and int(m[1]) == int(m[2]) == int(m[3]) >= 1
