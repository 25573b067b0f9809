/* Dekker's algorithm for two threads: raise your flag, and while the other's flag is up back off
 * (lower yours, wait for the turn) unless the turn is yours; each thread enters twice and checks
 * it is alone. Invariant (sequential consistency): a thread enters only after reading the other's
 * flag down while its own is up, and keeps its flag up until it leaves, so of two entering threads
 * the later reader would have seen the earlier one's flag up.
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

int wants[2];
int turn = 0;
int inside = 0;

void *proc(void *arg) {
    int me = *(int *)arg;
    int other = 1 - me;
    for (int k = 0; k < 2; k++) {
        wants[me] = 1;
        while (wants[other]) {
            if (turn != me) {
                wants[me] = 0;
                while (turn != me)
                    ;
                wants[me] = 1;
            }
        }
        inside = inside + 1;
        __VERIFIER_assert(inside == 1);
        inside = inside - 1;
        turn = other;
        wants[me] = 0;
    }
    return NULL;
}

int main(void) {
    pthread_t t0, t1;
    int id0 = 0, id1 = 1;
    pthread_create(&t0, NULL, proc, &id0);
    pthread_create(&t1, NULL, proc, &id1);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    return 0;
}
