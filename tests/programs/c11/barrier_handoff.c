/* Two threads store relaxed values and meet at a barrier; after it each
 * reads the other's. Every arrival happens before every departure, so each
 * sees the other's store, relaxed as it is.
 * UNDER rc11 line 18: holds
 * UNDER sc line 18: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

pthread_barrier_t meet;
atomic_int seen[2];

void *worker(void *arg) {
    int me = (int)(long)arg;
    atomic_store_explicit(&seen[me], 1, memory_order_relaxed);
    pthread_barrier_wait(&meet);
    assert(atomic_load_explicit(&seen[1 - me], memory_order_relaxed) == 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_barrier_init(&meet, 0, 2);
    pthread_create(&a, 0, worker, (void *)0);
    pthread_create(&b, 0, worker, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
