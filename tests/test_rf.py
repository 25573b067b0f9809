"""Mode ``rf``: DPOR that orders two blind writes only once a
read observes the later one (:mod:`distaff.analysis.explore.dpor`). The
differential test compares both modes with the oracle on generated programs;
these tests pin the reduction itself: the verdicts of every mode agree on
programs of blind writes (one whose first cut in this mode lost a violation),
the runs fall to within a small factor of the reads-from classes (counted by
``bench/rf_bench.py``'s signature-collecting DPOR), and the counters say which
pairs of writes were left unordered."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.rf_bench import count_classes, run
from distaff.analysis.options import MODES
from distaff.analysis.report import Status

PROGRAMS = Path(__file__).parent / "programs" / "rf"


def _check(name: str, mode: str):
    path = PROGRAMS / name
    results, _ = run(path.read_text(), str(path), mode, 120.0, 8)
    return sorted(results, key=lambda r: r.span.line)


@pytest.mark.parametrize("name", ["last_writer.c", "observed_midway.c", "unread_status.c"])
def test_every_mode_gives_the_same_verdicts(name):
    want = [r.status for r in _check(name, "baseline")]
    assert Status.HOLDS in want
    for mode in MODES:
        assert [r.status for r in _check(name, mode)] == want, mode


def test_blind_writes_cost_one_run_per_reads_from_class_within_a_factor():
    text = (PROGRAMS / "unread_status.c").read_text()
    dpor = sum(r.stats.runs for r in _check("unread_status.c", "dpor"))
    rf = sum(r.stats.runs for r in _check("unread_status.c", "rf"))
    classes = count_classes(text, "unread_status.c", 120.0, 8)
    # three threads' three writes: DPOR separates every order of each word's
    # writes (3!^3), rf only what main's one read sees (3 classes)
    assert (dpor, classes) == (216, 3)
    assert rf <= 2 * classes


def test_an_unobserved_pair_of_writes_is_neither_ordered_nor_reversed():
    (result,) = _check("unread_status.c", "rf")
    counters = dict(result.stats.counters)
    assert counters.get("rf_unobserved_pairs", 0) > 0


def test_a_read_modify_write_is_never_a_blind_write():
    # CAS loops read what they overwrite: rf explores exactly dpor's runs
    path = Path(__file__).parent / "programs" / "realworld" / "ms_queue.c"
    runs = {m: [r.stats.runs for r in run(path.read_text(), str(path), m, 120.0, 8)[0]] for m in ("dpor", "rf")}
    assert runs["rf"] == runs["dpor"]
