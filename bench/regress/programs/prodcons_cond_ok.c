/* A two-slot ring buffer guarded by a mutex and two condition variables (not-full, not-empty), both
 * waited for in while loops; one producer sends 1..4 and one consumer checks it receives them in
 * order. Invariant: 0 <= count <= 2 and the count items from head on are the next values to take.
 * STYLE: prodcons
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

#define CAP 2
#define ITEMS 4

int buf[CAP];
int head = 0, tail = 0, count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t notfull = PTHREAD_COND_INITIALIZER;
pthread_cond_t notempty = PTHREAD_COND_INITIALIZER;

void *producer(void *arg) {
    for (int i = 1; i <= ITEMS; i++) {
        pthread_mutex_lock(&m);
        while (count == CAP)
            pthread_cond_wait(&notfull, &m);
        buf[tail] = i;
        tail = (tail + 1) % CAP;
        count++;
        pthread_cond_signal(&notempty);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    for (int k = 1; k <= ITEMS; k++) {
        int v;
        pthread_mutex_lock(&m);
        while (count == 0)
            pthread_cond_wait(&notempty, &m);
        v = buf[head];
        head = (head + 1) % CAP;
        count--;
        pthread_cond_signal(&notfull);
        pthread_mutex_unlock(&m);
        assert(v == k);
    }
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
