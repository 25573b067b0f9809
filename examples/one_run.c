/* The smallest check there is: a thread writes, main joins it and reads.
 *
 * Nothing else runs between the write and the read, so there is one run,
 * and the assertion is proven. bench/startup_bench.py measures what such a
 * check costs from the command line, start-up included.
 *
 * distaff reports: the assertion holds for all interleavings (1 run).
 * Exit status 0.
 *
 * VERDICT: holds
 * EXIT: 0
 */
#include <pthread.h>
#include <assert.h>

int x;

void *writer(void *arg) {
    x = 1;
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, writer, 0);
    pthread_join(h, 0);
    assert(x == 1);
    return 0;
}
