/* One producer puts two items, one at a time, into a counter-guarded pool; two consumers each
 * take one, waiting with `if (count == 0)`. A waiting consumer woken by the first item can find
 * it already taken by the other consumer, who got the mutex first (schedule: A waits, producer adds
 * and signals, B locks and takes the item, A re-locks and sees count == 0) -- no spurious wake-up needed.
 * STYLE: if-wait
 * EXPECT: false
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
    if (count == 0)
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
