/* Message passing with relaxed atomics: the consumer sees the flag and
 * asserts the payload. Under C11 the flag's store does not carry the
 * payload's with it (no release/acquire): the consumer may see flag == 1 and
 * payload == 0, as ARM and POWER do.
 * UNDER rc11 line 22: violated
 * UNDER sc line 22: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int payload, flag;

void *producer(void *arg) {
    atomic_store_explicit(&payload, 42, memory_order_relaxed);
    atomic_store_explicit(&flag, 1, memory_order_relaxed);
    return 0;
}

void *consumer(void *arg) {
    if (atomic_load_explicit(&flag, memory_order_relaxed) == 1)
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
