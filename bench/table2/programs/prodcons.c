/* Producer/consumer on a one-slot buffer guarded by a mutex and two
 * condition variables; each side waits in a loop. Two items go through; the
 * consumer sees them in order.
 * EXPECT: holds
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

int slot, full;
pthread_mutex_t m;
pthread_cond_t not_empty, not_full;

void *producer(void *arg) {
    for (int k = 1; k <= 2; k++) {
        pthread_mutex_lock(&m);
        while (full)
            pthread_cond_wait(&not_full, &m);
        slot = k;
        full = 1;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    int last = 0;
    for (int k = 1; k <= 2; k++) {
        pthread_mutex_lock(&m);
        while (!full)
            pthread_cond_wait(&not_empty, &m);
        assert(slot == last + 1);
        last = slot;
        full = 0;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_mutex_init(&m, 0);
    pthread_cond_init(&not_empty, 0);
    pthread_cond_init(&not_full, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
