/* A consumer spins on an acquire load of a flag the producer sets with
 * release after storing the payload. The spin is an await: a round that
 * read the latest flag, 0, waits for a newer write; one that read an older
 * value is not the last word. Proven under C11 without a bound.
 * UNDER rc11 line 23: holds
 * UNDER sc line 23: holds
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

void *consumer(void *arg) {
    while (!atomic_load_explicit(&flag, memory_order_acquire))
        ;
    assert(atomic_load_explicit(&payload, memory_order_relaxed) == 42);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
