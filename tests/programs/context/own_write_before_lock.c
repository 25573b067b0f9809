/* The producer fills the slot, then takes the lock to publish it; the
 * consumer waits at the same lock. From here, only the producer's own code
 * can have written the slot (the consumer only reads it, and there is one
 * producer), so the slot holds what the producer wrote, 42, whichever
 * thread gets the lock first.
 *
 * FROM: 22 32
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int slot;
int ready;

void *producer(void *arg) {
    (void)arg;
    slot = 42;
    /* the producer is here, about to publish */
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *consumer(void *arg) {
    (void)arg;
    int seen = 0;
    /* the consumer is here */
    pthread_mutex_lock(&m);
    if (ready)
        seen = slot;
    pthread_mutex_unlock(&m);
    assert(seen == 0 || seen == 42);
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
