/* Peterson's algorithm with the flag raised too late: a thread gives the
 * turn away first and raises its flag after, so the other can read the flag
 * still down, pass, and both end up inside.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

int flag[2];
int turn;
int inside;

void *enter(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    turn = other;
    flag[me] = 1;
    while (flag[other] == 1 && turn == other)
        ;
    inside++;
    assert(inside == 1);
    inside--;
    flag[me] = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, enter, (void *)0);
    pthread_create(&b, 0, enter, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
