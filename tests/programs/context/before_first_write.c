/* Two workers in the same critical section, one inside it before its first
 * write, the other waiting at the lock. main started exactly these two, and
 * neither has written the counters yet, so in every run that reaches here
 * both still hold their initial 0: the assertion holds from here, as it does
 * from main. (Giving the counters unknown values because some thread writes
 * them at some time makes `total == 2 * count` "fail" and `c + 1` "overflow".)
 *
 * FROM: 24 23
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;
int total = 0;

void *worker(void *arg) {
    (void)arg;
    /* the second thread waits at the lock (23), the first is past it (24);
     * the lines below are the critical section */
    pthread_mutex_lock(&m);
    int c = count;
    count = c + 1;
    total = total + 2;
    assert(total == 2 * count);
    pthread_mutex_unlock(&m);
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
