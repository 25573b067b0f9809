"""Racing whole-object copies must tear. A struct assignment is copied
scalar by scalar (a QA pass found it was one step, and an assertion that
fails on a torn copy was reported as holding); memcpy and memset of shared
memory move 4 bytes per visible step (they too were one step, with the same
wrong verdict), and so does a struct too large to split."""

import pytest

from distaff.analysis.check import MODES, Options, check_text
from distaff.analysis.report import AssertionResult, Status
from tests.explore.expectations import PROGRAMS


def verdict(path, mode):
    [r] = [i for i in check_text(path.read_text(), str(path), Options(mode=mode, timeout_s=60))
           if isinstance(i, AssertionResult)]
    return r


@pytest.mark.parametrize("mode", MODES)
def test_a_racing_struct_assignment_can_tear(mode):
    r = verdict(PROGRAMS / "torn_struct_copy.c", mode)
    assert r.status is Status.VIOLATED
    reads = [s.action for s in r.trace.steps if s.thread.startswith("reader") and s.action.startswith("read")]
    assert len(reads) > 1, reads  # the reader's copy is several steps


def pieces(r, thread: str, verb: str) -> list[str]:
    return [s.action for s in r.trace.steps if s.thread.startswith(thread) and s.action.startswith(verb)]


@pytest.mark.parametrize("mode", MODES)
def test_a_racing_memcpy_can_tear(mode):
    r = verdict(PROGRAMS / "torn_memcpy.c", mode)
    assert r.status is Status.VIOLATED
    assert pieces(r, "reader", "copy") == [f"copy bytes {k}..{k + 3} of 16 from shared to c" for k in (0, 4, 8, 12)]
    # the reader copied while the writer was part way through
    copies = [s.thread.split("#")[0] for s in r.trace.steps if s.action.startswith("copy")]
    last = len(copies) - 1 - copies[::-1].index("reader")
    assert 1 <= copies[:last].count("writer") <= 3, copies


@pytest.mark.parametrize("mode", MODES)
def test_a_locked_memcpy_does_not_tear_and_memset_does(mode):
    path = PROGRAMS / "locked_memcpy.c"
    got = {r.span.line: r.status for r in check_text(path.read_text(), str(path), Options(mode=mode, timeout_s=60))
           if isinstance(r, AssertionResult)}
    assert got == {29: Status.VIOLATED, 30: Status.HOLDS}


def test_a_copy_within_thread_local_memory_is_one_step():
    src = """
    #include <assert.h>
    #include <string.h>
    int main(void) {
        int a[4] = {1, 2, 3, 4}, b[4];
        memcpy(b, a, sizeof a);
        assert(b[3] == 4);
        return 0;
    }
    """
    [r] = [i for i in check_text(src, "local.c", Options(mode="dpor-ag")) if isinstance(i, AssertionResult)]
    assert r.status is Status.HOLDS and r.stats.runs == 1


LARGE = """
#include <pthread.h>
#include <assert.h>
struct big { int v[40]; };
struct big shared;
void *writer(void *arg) {
    struct big n;
    for (int i = 0; i < 40; i++) n.v[i] = 1;
    shared = n;
    return 0;
}
void *reader(void *arg) {
    struct big c = shared;
    assert(c.v[0] == c.v[39]);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""


@pytest.mark.parametrize("mode", ["dpor", "dpor-ag"])  # baseline: every interleaving of 80 pieces
def test_a_struct_too_large_to_split_still_tears(mode):
    [r] = [i for i in check_text(LARGE, "large.c", Options(mode=mode, unwind=41, timeout_s=60, findings=False))
           if isinstance(i, AssertionResult)]
    assert r.status is Status.VIOLATED
    assert len(pieces(r, "reader", "copy")) == 40


WITHIN = """
#include <pthread.h>
#include <assert.h>
#include <string.h>
int buf[8] = {1, 1, 1, 1, 0, 0, 0, 0};
void *writer(void *arg) {
    memcpy(&buf[4], &buf[0], 4 * sizeof(int));
    return 0;
}
void *reader(void *arg) {
    int low = buf[4];
    int high = buf[7];
    assert(!(low == 1 && high == 0));
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_copy_between_disjoint_parts_of_one_object_tears_too(mode):
    [r] = [i for i in check_text(WITHIN, "within.c", Options(mode=mode, timeout_s=60))
           if isinstance(i, AssertionResult)]
    assert r.status is Status.VIOLATED
    assert len(pieces(r, "writer", "copy")) in (1, 2, 3)  # the reader came between two pieces
