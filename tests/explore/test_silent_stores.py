"""A store of what the memory holds already is a read for DPOR (optimisation
``silent_stores``): a test-and-set lock's failed exchanges and a flag set
again no longer race with each other, and nothing a silent store could have
changed in another order is lost."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check_assertion
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import FindingKind, Status
from distaff.analysis.subcheck import explorer_for

TAS = """
#include <pthread.h>
#include <assert.h>
int lk = 0;
int count = 0;
void *worker(void *arg) {
    while (__sync_lock_test_and_set(&lk, 1))
        ;
    int tmp = count;
    count = tmp + 1;
    __sync_lock_release(&lk);
    return 0;
}
int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(count == 3);
    return 0;
}
"""

# the second `flag = 1` is silent or not depending on the order; the reader
# must see every order of the first store against its reads
FLAGS = """
#include <pthread.h>
#include <assert.h>
int flag = 0, data = 0;
void *a(void *arg) { flag = 1; return 0; }
void *b(void *arg) { data = 1; flag = 1; return 0; }
void *c(void *arg) {
    int f = flag;
    int d = data;
    assert(!(f == 1 && d == 0));
    return 0;
}
int main(void) {
    pthread_t x, y, z;
    pthread_create(&x, 0, a, 0);
    pthread_create(&y, 0, b, 0);
    pthread_create(&z, 0, c, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    pthread_join(z, 0);
    return 0;
}
"""


def checked(text: str, mode: str, silent: bool = True, **kw):
    # (without ghost rounds, whose futile firsts leave out most reversals of a
    # failed exchange either way: with them TAS takes 17 runs, and 15 when
    # the exchange's store is a write)
    program = parse_program(text, "p.c")
    options = Options(mode=mode, optimisations=(("silent_stores", silent), ("ghost_rounds", False)), **kw)
    return check_assertion(program, program.assertions()[0], options)


@pytest.mark.parametrize("mode", ["dpor", "rf"])
def test_failed_exchanges_of_a_test_and_set_lock_do_not_race(mode):
    on, _ = checked(TAS, mode)
    off, _ = checked(TAS, mode, silent=False)
    assert on.status is off.status is Status.HOLDS
    assert on.stats.counter("silent_stores") > 0 and off.stats.counter("silent_stores") == 0
    assert on.stats.runs < off.stats.runs


@pytest.mark.parametrize("mode", ["dpor", "rf", "dpor-ag"])
def test_a_store_silent_in_one_order_is_a_write_in_the_other(mode):
    # a's flag = 1 before b's data = 1: c can see flag 1 and data 0
    result, _ = checked(FLAGS, mode)
    assert result.status is Status.VIOLATED
    baseline, _ = checked(FLAGS, "baseline")
    assert baseline.status is Status.VIOLATED


def test_assertion_guided_pruning_records_a_silent_store_as_the_write_it_may_be():
    # its run's dependence reads the failed exchanges as reads, but the
    # accesses recorded below a control state stand for pruned runs, where
    # the exchange may change memory: the record keeps it a write
    program = parse_program(TAS, "p.c")
    options = Options(mode="dpor-ag", optimisations=(("ghost_rounds", False),))
    explorer = explorer_for(program, options, program.assertions()[0])
    result = explorer.run()
    assert result.violation is None and result.stats.counter("silent_stores") > 0
    recorded = [fp for entry in explorer.reduction.table.entries() for fp in entry.accesses.values()]
    assert recorded and not any(fp.silent for fp in recorded)


def test_a_race_of_two_stores_of_the_same_value_is_still_a_race():
    program = parse_program(FLAGS, "p.c")
    result, findings = check_assertion(program, program.assertions()[0],
                                       Options(mode="dpor", report_races=True))
    races = [f for f in findings if f.kind is FindingKind.DATA_RACE]
    assert any("flag" in f.message for f in races)
    assert result.stats.counter("silent_stores") == 0
