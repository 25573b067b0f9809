/* A two-slot semaphore ring buffer where the two producers update buf[in] and in without the mutex
 * (the consumers still lock): both producers can write slot 0 and both set in = 1, losing an item,
 * so a consumer later takes an unwritten slot and the sum misses 33 (schedule: p1 and p2 both read
 * in == 0 before either stores in).
 * STYLE: prodcons
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

#define CAP 2

int buf[CAP];
int in = 0, out = 0;
int consumed = 0;
sem_t empty_slots, full_slots;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
    int base = *(int *)arg;
    for (int i = 1; i <= 2; i++) {
        sem_wait(&empty_slots);
        buf[in] = base * i;
        in = (in + 1) % CAP;
        sem_post(&full_slots);
    }
    return 0;
}

void *consumer(void *arg) {
    for (int i = 0; i < 2; i++) {
        sem_wait(&full_slots);
        pthread_mutex_lock(&m);
        int v = buf[out];
        out = (out + 1) % CAP;
        consumed = consumed + v;
        pthread_mutex_unlock(&m);
        sem_post(&empty_slots);
    }
    return 0;
}

int main(void) {
    pthread_t p1, p2, c1, c2;
    int one = 1, ten = 10;
    sem_init(&empty_slots, 0, CAP);
    sem_init(&full_slots, 0, 0);
    pthread_create(&p1, 0, producer, &one);
    pthread_create(&p2, 0, producer, &ten);
    pthread_create(&c1, 0, consumer, 0);
    pthread_create(&c2, 0, consumer, 0);
    pthread_join(p1, 0);
    pthread_join(p2, 0);
    pthread_join(c1, 0);
    pthread_join(c2, 0);
    assert(consumed == 33);
    return 0;
}
