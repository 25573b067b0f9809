/* The textbook bounded buffer of one slot with two counting semaphores:
 * the producer waits for an empty slot, the consumer for a full one, so
 * the consumer sees the items in order and the count returns to 0.
 * VERDICT: holds
 * FINDING: none
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
    sem_init(&empty, 0, 1);
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    assert(count == 0);
    return 0;
}
