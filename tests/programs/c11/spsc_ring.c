/* A single-producer, single-consumer ring of two slots: the producer fills
 * a slot (plain stores) and publishes it by storing head with release; the
 * consumer reads head with acquire, takes the slot, and gives it back by
 * storing tail with release, which the producer reads with acquire before
 * it reuses the slot. Three items go through in order.
 * UNDER rc11 line 34: holds
 * UNDER sc line 34: holds
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
        atomic_store_explicit(&head, i + 1, memory_order_release);
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
