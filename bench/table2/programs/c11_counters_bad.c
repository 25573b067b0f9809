/* The C11 counters with one update written hits = hits + 1: an atomic load
 * and an atomic store, between which another thread's update is lost.
 * EXPECT: violated
 * THREADS: 4
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int hits;
atomic_int done;

void *worker(void *arg) {
    atomic_fetch_add(&hits, 1);
    hits = hits + 1;
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
