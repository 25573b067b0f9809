/* One signal with two threads waiting on the condition: POSIX lets the
 * scheduler wake either one, not necessarily the one that waited first.
 * `second` only waits once `first` is waiting, so a first-in-first-out
 * signal would always wake `first` and `second`'s assertion would never be
 * reached; waking `second` makes it fail.
 * VERDICT 36: violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int waiting;
int go;
int woken;

void *first(void *arg) {
    pthread_mutex_lock(&m);
    waiting = 1;
    while (!go)
        pthread_cond_wait(&c, &m);
    if (woken == 0)
        woken = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *second(void *arg) {
    pthread_mutex_lock(&m);
    if (waiting == 1) {
        waiting = 2;
        while (!go)
            pthread_cond_wait(&c, &m);
        if (woken == 0)
            woken = 2;
        assert(woken == 1);
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, first, 0);
    pthread_create(&t2, 0, second, 0);
    pthread_mutex_lock(&m);
    if (waiting == 2) {
        go = 1;
        pthread_cond_signal(&c);
    }
    pthread_mutex_unlock(&m);
    return 0;
}
