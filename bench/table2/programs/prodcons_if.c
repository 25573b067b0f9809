/* Producer/consumer with two consumers that wait with `if` instead of
 * `while`: a consumer woken after the other took the item reads an empty
 * slot.
 * EXPECT: violated
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

int slot, full;
pthread_mutex_t m;
pthread_cond_t filled;

void *producer(void *arg) {
    for (int k = 0; k < 2; k++) {
        pthread_mutex_lock(&m);
        slot = 5;
        full = 1;
        pthread_cond_broadcast(&filled);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    pthread_mutex_lock(&m);
    if (!full)
        pthread_cond_wait(&filled, &m);
    assert(full == 1);
    full = 0;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t p, c1, c2;
    pthread_mutex_init(&m, 0);
    pthread_cond_init(&filled, 0);
    pthread_create(&c1, 0, consumer, 0);
    pthread_create(&c2, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c1, 0);
    pthread_join(c2, 0);
    return 0;
}
