/* An error path unlocks an rwlock its thread never locked: a run-time error.
 * FINDING: error 13 unlock of a rwlock
 */
#include <pthread.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int items;

void *worker(void *arg) {
    if (items > 0)
        pthread_rwlock_rdlock(&lock);
    items++;
    pthread_rwlock_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
