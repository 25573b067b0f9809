/* The same lock with an acquire exchange and a release store: the holder's
 * increment is visible to the next. Under C11 a spinning exchange may read
 * an older 1 and place its own write before the release in modification
 * order, so each round changes the graph and counts against the bound:
 * no violation within it, not a proof (sequential consistency proves it).
 * UNDER rc11 line 30: bounded
 * UNDER sc line 30: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int lock, counter;

void *worker(void *arg) {
    while (atomic_exchange_explicit(&lock, 1, memory_order_acquire))
        ;
    int c = atomic_load_explicit(&counter, memory_order_relaxed);
    atomic_store_explicit(&counter, c + 1, memory_order_relaxed);
    atomic_store_explicit(&lock, 0, memory_order_release);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(atomic_load(&counter) == 2);
    return 0;
}
