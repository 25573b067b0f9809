/* C11 atomics: three threads count with atomic_fetch_add and ++ on an
 * atomic_int, and count themselves done with a release add that main reads
 * with an acquire load after the joins (orders are read as sequentially
 * consistent).
 * EXPECT: holds
 * THREADS: 4
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int hits;
atomic_int done;

void *worker(void *arg) {
    atomic_fetch_add(&hits, 1);
    hits++;
    atomic_fetch_add_explicit(&done, 1, memory_order_release);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(atomic_load_explicit(&done, memory_order_acquire) == 3);
    assert(atomic_load(&hits) == 6);
    return 0;
}
