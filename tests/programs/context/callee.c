/* A context inside a helper with a known call stack: `twice` is called from
 * exactly one place, so the initial state has the worker's frame below the
 * helper's and the worker runs on after the helper returns.
 *
 * From inside `twice` (the worker's `k` is 5 where it called, the helper's
 * `v` is that argument): the helper returns 10 and the worker's assertion
 * holds. Without reaching definitions `v` is fresh, and the worker's check
 * fails.
 *
 * FROM: 19
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

int twice(int v) {
    int w = v + v;
    return w;                                       /* from here (1): the helper */
}

void *worker(void *unused) {
    int k = 5;
    int r = twice(k);
    assert(r == 10);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
