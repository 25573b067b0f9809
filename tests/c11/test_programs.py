"""Programs of tests/programs/c11 under both memory models: each file's
header says its verdict under each (``UNDER rc11 line N: violated``) and how
many data races C11 finds in it (``RACES rc11: N``; none when absent). A
proof says the model it holds under; a counterexample under C11 says which
write a read did not see and why it could not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from distaff.server import cli

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "tests/programs/c11").glob("*.c"))


def _expected(path: Path) -> tuple[dict, dict]:
    head = path.read_text()[:1500]
    verdicts = {(m, int(line)): v for m, line, v in re.findall(r"UNDER (\w+) line (\d+): (\w+)", head)}
    races = {m: int(n) for m, n in re.findall(r"RACES (\w+): (\d+)", head)}
    return verdicts, races


def _check(path: Path, model: str, capsys) -> dict:
    cli.main(["check", "--memory-model", model, "--format", "json", str(path)])
    (f,) = json.loads(capsys.readouterr().out)["files"]
    return f


@pytest.mark.parametrize("model", ["rc11", "sc"])
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_the_verdict_under_each_model(path, model, capsys):
    verdicts, races = _expected(path)
    f = _check(path, model, capsys)
    got = {(model, a["line"]): a["status"] for a in f["assertions"]}
    assert got == {k: v for k, v in verdicts.items() if k[0] == model}
    found = [x for x in f["findings"] if x["kind"] == "data-race"]
    assert len(found) == races.get(model, 0), found
    words = {"rc11": "under C11 (RC11)", "sc": "under sequential consistency"}[model]
    for a in f["assertions"]:
        if a["status"] == "holds":
            assert words in a["message"], a["message"]


def test_a_read_of_an_older_value_says_which_write_it_did_not_see(capsys):
    path = ROOT / "tests/programs/c11/mp_relaxed.c"
    cli.main(["check", "--memory-model", "rc11", "--no-findings", str(path)])
    out = capsys.readouterr().out
    assert ("[consumer#1] read payload == 0 (the initial value, not the latest: the write of 42 at line 15 is not visible here: "
            "nothing makes it happen before this read") in out


def test_a_race_says_on_what_which_accesses_and_which_threads(capsys):
    f = _check(ROOT / "tests/programs/c11/plain_payload.c", "rc11", capsys)
    (race,) = [x for x in f["findings"] if x["kind"] == "data-race"]
    assert race["line"] == 25
    assert race["message"] == ("data race on `payload`: write at line 17 (thread producer#1) and read at line 25 "
                               "(thread consumer#1), one of them plain, and neither happens before the other "
                               "(undefined in C)")


def test_a_proof_that_rests_on_a_data_race_says_so(tmp_path, capsys):
    src = tmp_path / "peterson.c"
    src.write_text(PETERSON)
    f = _check(src, "rc11", capsys)
    assert [a["status"] for a in f["assertions"]] == ["holds", "holds"]
    assert all("rests on data races" in a["message"] for a in f["assertions"])
    assert any(x["kind"] == "data-race" for x in f["findings"])
    f = _check(src, "sc", capsys)
    assert not any("rests on" in a["message"] for a in f["assertions"])
    assert f["findings"] == []


# Peterson's lock on plain ints: correct under sequential consistency, a
# data race on every flag under C11 (they must be atomics there)
PETERSON = """\
#include <pthread.h>
#include <assert.h>
int flag0, flag1, turn, inside;
void *p0(void *a) {
    flag0 = 1; turn = 1;
    while (flag1 && turn == 1) ;
    inside++; assert(inside == 1); inside--;
    flag0 = 0;
    return 0;
}
void *p1(void *a) {
    flag1 = 1; turn = 0;
    while (flag0 && turn == 0) ;
    inside++; assert(inside == 1); inside--;
    flag1 = 0;
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, p0, 0);
    pthread_create(&b, 0, p1, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""


def test_playback_writes_no_reproducer_for_a_read_no_native_run_can_force(tmp_path, capsys):
    path = ROOT / "tests/programs/c11/mp_relaxed.c"
    status = cli.main(["check", "--memory-model", "rc11", "--no-findings", "--playback", str(tmp_path), str(path)])
    assert status == cli.EXIT_FOUND
    out = capsys.readouterr().out
    assert "no reproducer: the counterexample reads an older value than memory's latest" in out
    assert not list(tmp_path.glob("*.c"))


def test_check_from_here_says_it_reads_weak_atomics_only_from_main(capsys):
    path = ROOT / "tests/programs/c11/mp_relaxed.c"
    status = cli.main(["check", "--memory-model", "rc11", "--no-findings", "--format", "json",
                       "--from", "21", str(path)])
    (f,) = json.loads(capsys.readouterr().out)["files"]
    (a,) = f["assertions"]
    assert a["status"] == "unknown" and "only from main" in a["message"], a
    assert status == cli.EXIT_UNDECIDED


def test_memory_written_outside_the_graph_leaves_the_assertion_undecided_not_wrong(tmp_path, capsys):
    src = tmp_path / "memset_atomic.c"
    src.write_text("#include <pthread.h>\n#include <stdatomic.h>\n#include <string.h>\n#include <assert.h>\n"
                   "atomic_int x;\n"
                   "void *worker(void *arg) { atomic_store_explicit(&x, 1, memory_order_relaxed); return 0; }\n"
                   "int main(void) {\n    pthread_t t;\n    pthread_create(&t, 0, worker, 0);\n"
                   "    pthread_join(t, 0);\n    memset(&x, 0, sizeof x);\n"
                   "    assert(atomic_load_explicit(&x, memory_order_relaxed) == 0);\n    return 0;\n}\n")
    (a,) = _check(src, "rc11", capsys)["assertions"]
    assert a["status"] == "unknown" and "memory written outside its loads and stores" in a["message"], a
    (a,) = _check(src, "sc", capsys)["assertions"]
    assert a["status"] == "holds"


def test_accesses_of_another_size_to_an_atomic_location_leave_the_assertion_undecided(tmp_path, capsys):
    src = tmp_path / "mixed_size.c"
    src.write_text("#include <pthread.h>\n#include <stdatomic.h>\n#include <assert.h>\natomic_int x;\n"
                   "void *w(void *a) { atomic_store_explicit(&x, 0x0101, memory_order_relaxed); return 0; }\n"
                   "int main(void) {\n    pthread_t t;\n    pthread_create(&t, 0, w, 0);\n"
                   "    int v = atomic_load_explicit(&x, memory_order_relaxed);\n"
                   "    char c = atomic_load_explicit((_Atomic char *)&x, memory_order_relaxed);\n"
                   "    pthread_join(t, 0);\n    assert(v + c >= 0);\n    return 0;\n}\n")
    (a,) = _check(src, "rc11", capsys)["assertions"]
    assert a["status"] == "unknown" and "different sizes" in a["message"], a
