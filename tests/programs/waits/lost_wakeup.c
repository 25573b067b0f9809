/* The producer sets the flag and signals without the lock: between the
 * consumer's test of the flag and its wait, the signal can come and go,
 * and the consumer waits for good (unless a spurious wake-up saves it,
 * which POSIX allows but never promises). The assertion holds on every
 * run that gets there.
 * VERDICT: holds
 * FINDING: deadlock */
#include <pthread.h>
#include <assert.h>
int flag, got;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *consumer(void *arg) {
    pthread_mutex_lock(&m);
    while (!flag)
        pthread_cond_wait(&c, &m);
    got = flag;
    pthread_mutex_unlock(&m);
    return 0;
}
void *producer(void *arg) {
    flag = 1;
    pthread_cond_signal(&c);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, consumer, 0);
    pthread_create(&b, 0, producer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(got == 1);
    return 0;
}
