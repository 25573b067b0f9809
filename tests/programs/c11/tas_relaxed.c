/* A test-and-set spin lock whose exchange and release are relaxed, around
 * a counter's increment: the lock excludes the two threads from each other
 * but hands nothing over, so the second may read the counter's old value
 * and an increment is lost under C11.
 * UNDER rc11 line 29: violated
 * UNDER sc line 29: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int lock, counter;

void *worker(void *arg) {
    while (atomic_exchange_explicit(&lock, 1, memory_order_relaxed))
        ;
    int c = atomic_load_explicit(&counter, memory_order_relaxed);
    atomic_store_explicit(&counter, c + 1, memory_order_relaxed);
    atomic_store_explicit(&lock, 0, memory_order_relaxed);
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
