/* A thread holding the read lock asks for the write lock on the same rwlock
 * (an "upgrade"): it waits for itself for ever.
 * FINDING: deadlock 14
 */
#include <pthread.h>

pthread_rwlock_t lock;
int table;

void *refresher(void *arg) {
    pthread_rwlock_rdlock(&lock);
    int stale = table == 0;
    if (stale) {
        pthread_rwlock_wrlock(&lock);
        table = 1;
    }
    pthread_rwlock_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_rwlock_init(&lock, 0);
    pthread_create(&t, 0, refresher, 0);
    pthread_join(t, 0);
    pthread_rwlock_destroy(&lock);
    return 0;
}
