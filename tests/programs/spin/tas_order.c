/* Three threads each take a test-and-set lock twice and append their number
 * to a log (in base 4) in the critical section: every one of the 90 orders of
 * the six critical sections is a run, and the assertion names one of them
 * (thread 3, 3, 2, 2, 1, 1). A reversal that would run an exchange first
 * where it could only fail is left out -- as an unlock and the next lock, it
 * is not enabled there -- but the race between two exchanges that both take
 * the lock stays.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

int lk;
int log4;

void *worker(void *arg) {
    int id = (int)(long)arg;
    for (int k = 0; k < 2; k++) {
        while (__sync_lock_test_and_set(&lk, 1))
            ;
        int tmp = log4;
        log4 = tmp * 4 + id;
        __sync_lock_release(&lk);
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)(i + 1));
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(log4 != 4005);
    return 0;
}
