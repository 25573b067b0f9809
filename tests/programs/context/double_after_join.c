/* Two workers each add 3 to the total once; after joining them main
 * checks the total and then doubles it. From main waiting for the second
 * worker, with that worker about to return, the doubling (main's own
 * store, which it has not reached) cannot have happened: the total is the
 * 1 main started with plus at most 6 (less with a lost update).
 *
 * FROM: 30 22
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total = 1;

void *worker(void *arg) {
    int add = 3;
    pthread_mutex_lock(&m);
    total = total + add;
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(total >= 1 && total <= 7);
    total = total * 2;
    return 0;
}
