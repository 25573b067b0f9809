/* A cache guarded by a reader-writer lock: two readers check that the pair
 * (version, value) is consistent while a writer updates both under the
 * write lock. Readers share the lock; the writer excludes them.
 * VERDICT 19: holds
 * VERDICT 38: holds
 */
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int version;
int value;
int reads;

void *reader(void *arg) {
    pthread_rwlock_rdlock(&lock);
    int v = version;
    int x = value;
    assert(x == v * 10);
    pthread_rwlock_unlock(&lock);
    return 0;
}

void *writer(void *arg) {
    pthread_rwlock_wrlock(&lock);
    version = version + 1;
    value = version * 10;
    pthread_rwlock_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t r1, r2, w;
    pthread_create(&r1, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r2, 0, reader, 0);
    pthread_join(r1, 0); pthread_join(w, 0); pthread_join(r2, 0);
    assert(value == 10);
    return 0;
}
