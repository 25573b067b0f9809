/* Peterson's lock for two threads, but each thread gives the turn to itself (turn = me) instead of
 * to the other, so the later writer of turn does not wait (schedule: thr0 sets flag0, turn = 0 and
 * enters; thr1 sets flag1, turn = 1, sees turn != 0 and enters too).
 * STYLE: spin-lock
 * EXPECT: false
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
        turn = 0;
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
        turn = 1;
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
