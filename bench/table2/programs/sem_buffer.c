/* A bounded buffer of two slots guarded by counting semaphores (empty,
 * full) and a binary semaphore around the slot index: two producers, one
 * consumer, each item taken once.
 * EXPECT: holds
 * THREADS: 4
 */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t empty, full, guard;
int slots[2];
int in, out, taken;

void *producer(void *arg) {
    int item = *(int *)arg;
    sem_wait(&empty);
    sem_wait(&guard);
    slots[in] = item;
    in = (in + 1) % 2;
    sem_post(&guard);
    sem_post(&full);
    return 0;
}

void *consumer(void *arg) {
    for (int k = 0; k < 2; k++) {
        sem_wait(&full);
        sem_wait(&guard);
        taken += slots[out];
        out = (out + 1) % 2;
        sem_post(&guard);
        sem_post(&empty);
    }
    return 0;
}

int main(void) {
    int one = 1, two = 2;
    pthread_t p1, p2, c;
    sem_init(&empty, 0, 2);
    sem_init(&full, 0, 0);
    sem_init(&guard, 0, 1);
    pthread_create(&p1, 0, producer, &one);
    pthread_create(&p2, 0, producer, &two);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p1, 0);
    pthread_join(p2, 0);
    pthread_join(c, 0);
    assert(taken == 3);
    return 0;
}
