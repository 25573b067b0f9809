/* The bounded buffer of one slot with "empty" started at 2: the producer
 * may overwrite the item before the consumer takes it, and the unprotected
 * count can lose an update.
 * VERDICT: violated
 */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t full, empty;
int buf, count;

void *producer(void *arg) {
    for (int i = 1; i <= 2; i++) {
        sem_wait(&empty);
        buf = i;
        count++;
        sem_post(&full);
    }
    return 0;
}

void *consumer(void *arg) {
    for (int i = 1; i <= 2; i++) {
        sem_wait(&full);
        assert(buf == i);
        count--;
        sem_post(&empty);
    }
    return 0;
}

int main(void) {
    pthread_t p, c;
    sem_init(&full, 0, 0);
    sem_init(&empty, 0, 2);
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    assert(count == 0);
    return 0;
}
