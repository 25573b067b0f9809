/* A release sequence: the producer's release store of the flag is followed
 * by another thread's relaxed fetch-and-add on it. A consumer whose acquire
 * load reads the add's value still synchronises with the producer (the add
 * continues the release sequence), so it sees the payload.
 * UNDER rc11 line 27: holds
 * UNDER sc line 27: holds
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
    atomic_fetch_add_explicit(&flag, 1, memory_order_relaxed);
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
