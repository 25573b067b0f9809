/* A writer that only tries: while a reader holds the lock the try fails
 * with EBUSY and the writer leaves the value alone, so a reader never sees
 * a half-done update; the writer's own check that it always gets the lock
 * fails.
 * VERDICT 22: holds
 * VERDICT 33: holds
 * VERDICT 43: violated
 */
#include <pthread.h>
#include <assert.h>
#include <errno.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int lo, hi;
int written;

void *reader(void *arg) {
    pthread_rwlock_rdlock(&lock);
    int a = lo;
    int b = hi;
    pthread_rwlock_unlock(&lock);
    assert(a == b);
    return 0;
}

void *writer(void *arg) {
    if (pthread_rwlock_trywrlock(&lock) == EBUSY)
        return 0;
    lo = lo + 1;
    hi = hi + 1;
    written = 1;
    pthread_rwlock_unlock(&lock);
    assert(written); /* never reached without the lock: holds */
    return 0;
}

int main(void) {
    pthread_t r, w;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_join(r, 0);
    pthread_join(w, 0);
    assert(written == 1);
    return 0;
}
