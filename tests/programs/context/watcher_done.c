/* A watcher waits until the level is at least 2, which main sets before
 * starting anyone, so it gets through at once; the filler then lowers the
 * level under the lock, and main's final check (a bug) fails.
 *
 * From main at its join of the filler, with the filler holding the lock
 * before its write and the watcher not placed: the watcher may have run and
 * ended while the level was 2. Started again from its entry only, it would
 * wait for good once the filler has written, main's join of it would never
 * return, and the failing check would be out of reach.
 *
 * FROM: 43 24
 * UNWIND: 2
 * EXPECT: full=violated -RD=violated -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int level;

void *filler(void *arg) {
    pthread_mutex_lock(&m);
    level = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    return arg;
}

void *watcher(void *arg) {
    pthread_mutex_lock(&m);
    while (level < 2)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void) {
    pthread_t f, w;
    level = 2;
    pthread_create(&w, 0, watcher, 0);
    pthread_create(&f, 0, filler, 0);
    pthread_join(f, 0);
    pthread_join(w, 0);
    assert(level == 2);
    return 0;
}
