/* A test-and-set lock with acquire and release orders, but each worker bumps
 * the counter after it has released the lock: two workers can both read 0
 * and both store 1 on any machine, sequentially consistent or not. The
 * counter is a relaxed atomic, so no access is a data race.
 * UNDER rc11 line 33: violated
 * UNDER sc line 33: violated
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int lock;
atomic_int counter;

void *worker(void *arg) {
    while (atomic_exchange_explicit(&lock, 1, memory_order_acquire))
        ;
    atomic_store_explicit(&lock, 0, memory_order_release);
    int seen = atomic_load_explicit(&counter, memory_order_relaxed);
    atomic_store_explicit(&counter, seen + 1, memory_order_relaxed);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    /* both joined: every store to counter happens before this read */
    int total = atomic_load_explicit(&counter, memory_order_relaxed);
    /* a lost bump leaves 1 */
    assert(total == 2);
    return 0;
}
