/* main waits for its worker: from main at its join, with the worker not
 * given (a routine main created before that point, so it starts at its
 * entry). The handle main joins is the one pthread_create wrote, which
 * names the context's worker, and `base` is main's 6: after the join the
 * result is there and the assertion holds. With fresh symbols the handle
 * is any number (joins of invalid threads, or of main itself) and `base`
 * anything.
 *
 * FROM: 27
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

int base, result;

void *worker(void *unused) {
    result = base * 7;
    return 0;
}

int main(void) {
    pthread_t t;
    base = 6;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);                             /* from here (1): main */
    assert(result == 42);
    return 0;
}
