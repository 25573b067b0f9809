/* A pool of 10 slots; each of two workers borrows 3 once and gives 1 back
 * once. Whatever the order, and even with an update lost, the pool never
 * holds fewer than 10 - 2 * 3 = 4 slots. From a worker about to read it
 * after its own return, the count is unknown but within its bounds.
 *
 * FROM: 24 33
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int pool = 10;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pool = pool - 3;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    pool = pool + 1;
    pthread_mutex_unlock(&m);
    int left = pool;
    assert(left >= 4);
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
