/* Two threads each take a test-and-set lock twice (the exchange's loop is
 * the whole acquire) and bump a counter under it by a read and a write. The
 * first failed exchange of a wait is already a round that changed nothing:
 * the thread awaits from there, as from a later one.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

int lk;
int count;

void *worker(void *arg) {
    for (int k = 0; k < 2; k++) {
        while (__sync_lock_test_and_set(&lk, 1))
            ;
        int tmp = count;
        count = tmp + 1;
        __sync_lock_release(&lk);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 4);
    return 0;
}
