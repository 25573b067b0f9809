/* A test-and-set spin lock with __sync_lock_test_and_set / __sync_lock_release guards a counter
 * that three threads each bump twice by a load and a store. Invariant: the exchange lets exactly
 * one thread see lk == 0 until it releases, so no increment is lost and count ends at 6.
 * STYLE: spin-lock
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
void __VERIFIER_assert(int cond) {
    if (!cond) {
    ERROR:
        reach_error();
        abort();
    }
}

int lk = 0;
int count = 0;

void acquire(void) {
    while (__sync_lock_test_and_set(&lk, 1))
        ;
}

void release(void) {
    __sync_lock_release(&lk);
}

void *worker(void *arg) {
    for (int k = 0; k < 2; k++) {
        acquire();
        int tmp = count;
        count = tmp + 1;
        release();
    }
    return NULL;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    __VERIFIER_assert(count == 6);
    return 0;
}
