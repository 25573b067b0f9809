/* One producer, one consumer, a one-slot buffer guarded by a mutex and two
 * condition variables. The consumer waits in a loop until the slot is full,
 * so it always takes the value the producer put.
 * VERDICT: holds
 * RUNS: baseline=63
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
int full;
int slot;

void *producer(void *arg) {
    pthread_mutex_lock(&mu);
    while (full)
        pthread_cond_wait(&not_full, &mu);
    slot = 42;
    full = 1;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&mu);
    return 0;
}

void *consumer(void *arg) {
    pthread_mutex_lock(&mu);
    while (!full)
        pthread_cond_wait(&not_empty, &mu);
    int got = slot;
    full = 0;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&mu);
    assert(got == 42);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
