/* A consumer waits for a producer's value with `if (!ready) pthread_cond_wait(...)`; with a single
 * producer no other thread can steal the value, but a spurious wake-up returns from the wait while
 * ready == 0 and value is still unset (schedule: consumer waits first, wakes spuriously, asserts).
 * STYLE: if-wait
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready = 0;
int value = 0;

void *producer(void *arg) {
    pthread_mutex_lock(&m);
    value = 42;
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    return 0;
}

void *consumer(void *arg) {
    pthread_mutex_lock(&m);
    if (!ready)
        pthread_cond_wait(&cv, &m);
    assert(value == 42);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(c, 0);
    pthread_join(p, 0);
    return 0;
}
