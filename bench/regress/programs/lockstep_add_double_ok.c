/* One thread adds 3 to c six times and another doubles c three times, each step under a
 * mutex, starting from c = 1. Invariant: the result lies between 26 (all doublings first) and 152
 * (all additions first), since each doubling multiplies whatever has been added so far.
 * STYLE: lockstep-atomic
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int c = 1;

void *adder(void *arg) {
    for (int i = 0; i < 6; i++) {
        pthread_mutex_lock(&m);
        c = c + 3;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *doubler(void *arg) {
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&m);
        c = c * 2;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, adder, 0);
    pthread_create(&t2, 0, doubler, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(c >= 26 && c <= 152);
    return 0;
}
