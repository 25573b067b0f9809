/* A waiter gives up after a deadline: pthread_cond_timedwait may return
 * ETIMEDOUT before the flag is set, so a waiter that does not look at the
 * result and assumes the flag was set can fail, while the one that loops
 * until the flag is set or the wait timed out reports honestly.
 * VERDICT 29: violated
 * VERDICT 41: holds
 */
#include <pthread.h>
#include <assert.h>
#include <errno.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *setter(void *arg) {
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}

void *careless(void *deadline) {
    pthread_mutex_lock(&m);
    if (!ready)
        pthread_cond_timedwait(&c, &m, deadline);
    assert(ready);
    pthread_mutex_unlock(&m);
    return 0;
}

void *careful(void *deadline) {
    int timed_out = 0;
    pthread_mutex_lock(&m);
    while (!ready && !timed_out) {
        if (pthread_cond_timedwait(&c, &m, deadline) == ETIMEDOUT)
            timed_out = 1;
    }
    assert(ready || timed_out);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    struct timespec deadline = { 1, 0 };
    pthread_t s, a, b;
    pthread_create(&a, 0, careless, &deadline);
    pthread_create(&b, 0, careful, &deadline);
    pthread_create(&s, 0, setter, 0);
    pthread_join(a, 0); pthread_join(b, 0); pthread_join(s, 0);
    return 0;
}
