"""Litmus tests: ``--count-executions`` counts RC11-consistent executions
under ``--memory-model rc11`` and sequentially consistent ones under
``sc``. The counts below were worked out by hand (each read's possible
writes, each location's possible orders, less what the model forbids); the
brute-force oracle of :mod:`tests.c11.litmus` must agree with them, and the
engine with both, here and on generated tests."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from distaff.analysis.executions import count_executions
from distaff.analysis.frontend import parse_program
from distaff.analysis.options import Options
from distaff.server import cli
from tests.c11.litmus import c_text, count


def R(loc, order="relaxed"):
    return ("R", loc, order)


def W(loc, order="relaxed"):
    return ("W", loc, order)


def U(loc, order="relaxed"):
    return ("U", loc, order)


def F(order="seq_cst"):
    return ("F", order)


# name -> (test, RC11-consistent executions, sequentially consistent ones)
LITMUS = {
    # store buffering: both reads may see 0 unless seq_cst orders the threads
    "SB": (((W("x"), R("y")), (W("y"), R("x"))), 4, 3),
    "SB+rel+acq": (((W("x", "release"), R("y", "acquire")), (W("y", "release"), R("x", "acquire"))), 4, 3),
    "SB+sc": (((W("x", "seq_cst"), R("y", "seq_cst")), (W("y", "seq_cst"), R("x", "seq_cst"))), 3, 3),
    "SB+fences": (((W("x"), F(), R("y")), (W("y"), F(), R("x"))), 3, 3),
    "SB+fence-one-side": (((W("x"), F(), R("y")), (W("y"), R("x"))), 4, 3),
    # message passing: the flag carries the data only with release/acquire (or fences)
    "MP": (((W("x"), W("y")), (R("y"), R("x"))), 4, 3),
    "MP+rel+acq": (((W("x"), W("y", "release")), (R("y", "acquire"), R("x"))), 3, 3),
    "MP+fences": (((W("x"), F("release"), W("y")), (R("y"), F("acquire"), R("x"))), 3, 3),
    "MP+rel+rlx": (((W("x"), W("y", "release")), (R("y"), R("x"))), 4, 3),
    # load buffering: RC11 forbids po ∪ rf cycles, so no read sees the other's later write
    "LB": (((R("x"), W("y")), (R("y"), W("x"))), 3, 3),
    # independent reads of independent writes: readers may disagree on the order
    "IRIW": (((W("x"),), (W("y"),), (R("x"), R("y")), (R("y"), R("x"))), 16, 15),
    "IRIW+acq": (((W("x", "release"),), (W("y", "release"),), (R("x", "acquire"), R("y", "acquire")),
                  (R("y", "acquire"), R("x", "acquire"))), 16, 15),
    "IRIW+fences": (((W("x"),), (W("y"),), (R("x"), F(), R("y")), (R("y"), F(), R("x"))), 15, 15),
    # write-to-read causality: transitive only through release/acquire
    "WRC": (((W("x"),), (R("x"), W("y")), (R("y"), R("x"))), 8, 7),
    "WRC+rel+acq": (((W("x", "release"),), (R("x", "acquire"), W("y", "release")), (R("y", "acquire"), R("x"))), 7, 7),
    # two writes each: the modification orders may disagree with every interleaving
    "2+2W": (((W("x"), W("y")), (W("y"), W("x"))), 4, 3),
    "2+2W+sc": (((W("x", "seq_cst"), W("y", "seq_cst")), (W("y", "seq_cst"), W("x", "seq_cst"))), 3, 3),
    # coherence: reads of one location never go back in its modification order
    "CoRR": (((W("x"), W("x")), (R("x"), R("x"))), 6, 6),
    "CoWR": (((W("x"), R("x")), (W("x"),)), 3, 3),
    "CoRW": (((R("x"), W("x")), (W("x"),)), 3, 3),
    # read-modify-writes are atomic whatever their order
    "RMW+RMW": (((U("x"),), (U("x"),)), 2, 2),
    "RMW+R": (((U("x"),), (R("x"),)), 2, 2),
}


@pytest.mark.parametrize("name", sorted(LITMUS))
def test_the_oracle_counts_what_the_hand_counted(name):
    test, rc11, sc = LITMUS[name]
    assert (count(test, "rc11"), count(test, "sc")) == (rc11, sc)


@pytest.mark.parametrize("name", sorted(LITMUS))
def test_count_executions_gives_the_number_of_consistent_executions(name):
    test, rc11, sc = LITMUS[name]
    program = parse_program(c_text(test), f"{name}.c")
    got = {}
    for model in ("rc11", "sc"):
        result = count_executions(program, Options(memory_model=model))
        assert result.complete, result.stop_message
        assert result.stats.runs >= result.executions
        got[model] = result.executions
    assert got == {"rc11": rc11, "sc": sc}


def test_the_command_line_says_how_many_in_text_and_json(tmp_path, capsys):
    path = tmp_path / "sb.c"
    path.write_text(c_text(LITMUS["SB"][0]))
    assert cli.main(["check", "--count-executions", "--memory-model", "rc11", str(path)]) == cli.EXIT_OK
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: 4 executions under C11 (RC11) (")
    assert cli.main(["check", "--count-executions", "--format", "json", str(path)]) == cli.EXIT_OK
    (entry,) = json.loads(capsys.readouterr().out)["files"]
    assert (entry["memory_model"], entry["executions"], entry["complete"]) == ("sc", 3, True)
    assert entry["stats"]["counters"]["executions"] == 3


ORDERS_R = ("relaxed", "acquire", "seq_cst")
ORDERS_W = ("relaxed", "release", "seq_cst")
ORDERS_U = ("relaxed", "acquire", "release", "acq_rel", "seq_cst")
ORDERS_F = ("acquire", "release", "acq_rel", "seq_cst")
LOCS = st.sampled_from(("x", "y"))
OPS = st.one_of(
    st.tuples(st.just("R"), LOCS, st.sampled_from(ORDERS_R)),
    st.tuples(st.just("W"), LOCS, st.sampled_from(ORDERS_W)),
    st.tuples(st.just("U"), LOCS, st.sampled_from(ORDERS_U)),
    st.tuples(st.just("F"), st.sampled_from(ORDERS_F)),
)
LITMUS_TESTS = st.lists(st.lists(OPS, min_size=1, max_size=3).map(tuple), min_size=2, max_size=3).map(tuple)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LITMUS_TESTS)
def test_generated_litmus_tests_count_what_the_oracle_counts(test):
    program = parse_program(c_text(test), "gen.c")
    for model in ("rc11", "sc"):
        result = count_executions(program, Options(memory_model=model))
        assert result.complete, result.stop_message
        assert result.executions == count(test, model), (model, test)


def test_a_count_the_bound_cut_says_it_is_incomplete_and_exits_undecided(tmp_path, capsys):
    path = tmp_path / "forever.c"
    path.write_text("#include <pthread.h>\n#include <stdatomic.h>\natomic_int x;\n"
                    "void *t(void *a) { for (;;) atomic_fetch_add_explicit(&x, 1, memory_order_relaxed); }\n"
                    "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0);\n"
                    "  int r = atomic_load_explicit(&x, memory_order_relaxed); (void)r; return 0; }\n")
    status = cli.main(["check", "--count-executions", "--memory-model", "rc11", "--unwind", "2", str(path)])
    out = capsys.readouterr().out
    assert status == cli.EXIT_UNDECIDED
    assert "; incomplete: the unwind bound stopped a thread" in out
