/* Check from here, with the writer paused inside its write lock (line 15):
 * whatever "busy" holds then, the reader cannot take the read lock before
 * the writer has cleared it and unlocked.
 * VERDICT: holds
 */
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int busy;

void *writer(void *arg) {
    pthread_rwlock_wrlock(&lock);
    busy = 1;
    busy = 0;
    pthread_rwlock_unlock(&lock);
    return 0;
}

void *reader(void *arg) {
    pthread_rwlock_rdlock(&lock);
    int seen = busy;
    pthread_rwlock_unlock(&lock);
    assert(seen == 0);
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
