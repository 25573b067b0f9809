/* The payload is a plain int and the flag a relaxed atomic: the consumer's
 * read of the payload races with the producer's write (nothing orders
 * them), which C leaves undefined. Under C11 the race is reported and the
 * read may see the old payload.
 * UNDER rc11 line 25: violated
 * UNDER sc line 25: holds
 * RACES rc11: 1
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

int payload;
atomic_int flag;

void *producer(void *arg) {
    payload = 42;
    atomic_store_explicit(&flag, 1, memory_order_relaxed);
    return 0;
}

void *consumer(void *arg) {
    while (!atomic_load_explicit(&flag, memory_order_relaxed))
        ;
    assert(payload == 42);
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
