/* Peterson's mutual exclusion for two threads: each raises its flag, gives
 * the turn away and spins while the other wants in and has the turn. Each
 * spin round reads the two variables and changes nothing, so it is an await:
 * the search is finite and the assertion is proven, not bounded.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

int flag[2];
int turn;
int inside;

void *enter(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    flag[me] = 1;
    turn = other;
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
