/* Thread-local storage: each worker counts in its own copy of a __thread
 * counter (started from its initial value 10), so its own count is exact;
 * the shared total is updated under a lock. A worker that adds to the
 * shared total without the lock loses an update.
 * VERDICT 21: holds
 * VERDICT 35: violated
 */
#include <pthread.h>
#include <assert.h>

__thread int mine = 10;
_Thread_local static int calls;
int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    for (int i = 0; i < 3; i++) {
        mine++;
        calls++;
    }
    assert(mine == 13 && calls == 3);
    pthread_mutex_lock(&m);
    total += mine;
    pthread_mutex_unlock(&m);
    total += 1; /* without the lock */
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(total == 28 && mine == 10);
    return 0;
}
