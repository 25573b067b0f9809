/* A producer fills a slot with relaxed stores and posts a semaphore; the
 * consumer waits on it and reads the slot. The post happens before the wait
 * that takes it, so the consumer sees the whole slot.
 * UNDER rc11 line 25: holds
 * UNDER sc line 25: holds
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <assert.h>

sem_t full;
atomic_int slot_id, slot_value;

void *producer(void *arg) {
    atomic_store_explicit(&slot_id, 7, memory_order_relaxed);
    atomic_store_explicit(&slot_value, 70, memory_order_relaxed);
    sem_post(&full);
    return 0;
}

void *consumer(void *arg) {
    sem_wait(&full);
    int id = atomic_load_explicit(&slot_id, memory_order_relaxed);
    assert(atomic_load_explicit(&slot_value, memory_order_relaxed) == id * 10);
    return 0;
}

int main(void) {
    pthread_t p, c;
    sem_init(&full, 0, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
