/* A test-and-test-and-set lock whose "set" is a plain re-test and store instead of an atomic
 * exchange: both threads can see the lock free and both take it (schedule: t0 and t1 both pass
 * the tests, both store 1, both load count == 0 and store 1), so an increment is lost.
 * STYLE: spin-lock
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

int lk = 0;
int count = 0;

void acquire(void) {
    for (;;) {
        while (lk != 0)
            ;
        if (lk == 0) {
            lk = 1;
            return;
        }
    }
}

void release(void) {
    lk = 0;
}

void *worker(void *arg) {
    for (int k = 0; k < 2; k++) {
        acquire();
        int tmp = count;
        count = tmp + 1;
        release();
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
