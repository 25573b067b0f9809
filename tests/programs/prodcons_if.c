/* The consumer waits with "if" instead of "while" and a second consumer
 * competes: after a broadcast, both consumers wake but only one finds the slot
 * full; the other takes an empty slot. And when the producer runs first, a
 * consumer that finds the slot already emptied waits for a signal that never
 * comes.
 * VERDICT: violated
 * FINDING: deadlock
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
int full;
int slot;

void *producer(void *arg) {
    pthread_mutex_lock(&mu);
    slot = 42;
    full = 1;
    pthread_cond_broadcast(&not_empty);
    pthread_mutex_unlock(&mu);
    return 0;
}

void *consumer(void *arg) {
    pthread_mutex_lock(&mu);
    if (!full)
        pthread_cond_wait(&not_empty, &mu);
    int got = slot;
    slot = 0;
    full = 0;
    pthread_mutex_unlock(&mu);
    assert(got == 42);
    return 0;
}

int main(void) {
    pthread_t p, c1, c2;
    pthread_create(&c1, 0, consumer, 0);
    pthread_create(&c2, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c1, 0);
    pthread_join(c2, 0);
    return 0;
}
