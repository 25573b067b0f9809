/* Peterson's lock for two threads (flag up, turn to the other, wait while the other wants in and
 * has the turn), each entering the critical section twice and checking it is alone there.
 * Invariant (sequential consistency): the thread that wrote turn last finds the other's flag up
 * and turn naming the other, so it waits until the other leaves; in_cs is 1 inside the section.
 * STYLE: spin-lock
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

int flag0 = 0, flag1 = 0;
int turn = 0;
int in_cs = 0;

void *thr0(void *arg) {
    for (int k = 0; k < 2; k++) {
        flag0 = 1;
        turn = 1;
        while (flag1 == 1 && turn == 1)
            ;
        in_cs = in_cs + 1;
        assert(in_cs == 1);
        in_cs = in_cs - 1;
        flag0 = 0;
    }
    return 0;
}

void *thr1(void *arg) {
    for (int k = 0; k < 2; k++) {
        flag1 = 1;
        turn = 0;
        while (flag0 == 1 && turn == 0)
            ;
        in_cs = in_cs + 1;
        assert(in_cs == 1);
        in_cs = in_cs - 1;
        flag1 = 0;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, thr0, 0);
    pthread_create(&b, 0, thr1, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
