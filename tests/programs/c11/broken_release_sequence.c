/* No release sequence: the other thread, once it sees the flag at 1, stores
 * 2 into it instead of adding 1. A store that is not a read-modify-write of
 * the flag ends the release sequence: a consumer whose acquire load reads 2
 * does not synchronise with the producer and may see the old payload (under
 * sequential consistency 2 comes after the producer's store, and so does
 * the payload).
 * UNDER rc11 line 30: violated
 * UNDER sc line 30: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int payload, flag;

void *producer(void *arg) {
    atomic_store_explicit(&payload, 42, memory_order_relaxed);
    atomic_store_explicit(&flag, 1, memory_order_release);
    return 0;
}

void *adder(void *arg) {
    if (atomic_load_explicit(&flag, memory_order_relaxed) == 1)
        atomic_store_explicit(&flag, 2, memory_order_relaxed);
    return 0;
}

void *consumer(void *arg) {
    if (atomic_load_explicit(&flag, memory_order_acquire) == 2)
        assert(atomic_load_explicit(&payload, memory_order_relaxed) == 42);
    return 0;
}

int main(void) {
    pthread_t p, a, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&a, 0, adder, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(a, 0);
    pthread_join(c, 0);
    return 0;
}
