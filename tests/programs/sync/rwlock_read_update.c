/* The misuse: a thread updates the cache holding only the read lock, so a
 * reader can see the new version with the old value.
 * VERDICT 19: violated
 */
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int version;
int value;

void *reader(void *arg) {
    pthread_rwlock_rdlock(&lock);
    int v = version;
    int x = value;
    pthread_rwlock_unlock(&lock);
    if (v == 1)
        return 0;
    assert(x == v * 10);
    return 0;
}

void *updater(void *arg) {
    pthread_rwlock_rdlock(&lock); /* should be wrlock */
    version = version + 1;
    value = version * 10;
    pthread_rwlock_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t r, u;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&u, 0, updater, 0);
    pthread_join(r, 0);
    pthread_join(u, 0);
    return 0;
}
