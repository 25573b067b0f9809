/* One producer puts two items, one at a time, into a counter-guarded pool; two consumers each
 * take one, waiting with `while (count == 0)`. Invariant: a consumer leaves its wait loop only
 * holding the mutex with count > 0, so the count it decrements is positive, whoever was woken.
 * STYLE: if-wait
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
int count = 0;

void *producer(void *arg) {
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        count = count + 1;
        pthread_cond_signal(&nonempty);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    pthread_mutex_lock(&m);
    while (count == 0)
        pthread_cond_wait(&nonempty, &m);
    assert(count > 0);
    count = count - 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t p, c1, c2;
    pthread_create(&c1, 0, consumer, 0);
    pthread_create(&c2, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c1, 0);
    pthread_join(c2, 0);
    return 0;
}
