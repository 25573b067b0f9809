/* The same ring, but the producer publishes head relaxed: the consumer that
 * sees the new head is not ordered after the slot's store, so it reads the
 * slot racing with it (a data race, undefined in C) and may take an old
 * item. Under sequential consistency the ring works.
 * UNDER rc11 line 34: violated
 * UNDER sc line 34: holds
 * RACES rc11: 1
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define SLOTS 2
#define ITEMS 3

int ring[SLOTS];
atomic_uint head, tail;

void *producer(void *arg) {
    for (unsigned i = 0; i < ITEMS; i++) {
        while (i - atomic_load_explicit(&tail, memory_order_acquire) == SLOTS)
            ;
        ring[i % SLOTS] = 10 + i;
        atomic_store_explicit(&head, i + 1, memory_order_relaxed);
    }
    return 0;
}

void *consumer(void *arg) {
    for (unsigned i = 0; i < ITEMS; i++) {
        while (atomic_load_explicit(&head, memory_order_acquire) == i)
            ;
        int item = ring[i % SLOTS];
        assert(item == 10 + i);
        atomic_store_explicit(&tail, i + 1, memory_order_release);
    }
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
