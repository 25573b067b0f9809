/* Two threads take strict turns through a turn flag that each waits for with an assume inside its
 * atomic section, updating p += q and q += p four times each. Invariant: the steps alternate
 * first, second, first and so on, so the result is exactly the Fibonacci pair p == 34, q == 55.
 * STYLE: lockstep-atomic
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int turn = 0;
int p = 1, q = 1;

void *first(void *arg) {
    for (int k = 0; k < 4; k++) {
        __VERIFIER_atomic_begin();
        __VERIFIER_assume(turn == 0);
        p = p + q;
        turn = 1;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

void *second(void *arg) {
    for (int k = 0; k < 4; k++) {
        __VERIFIER_atomic_begin();
        __VERIFIER_assume(turn == 1);
        q = q + p;
        turn = 0;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, NULL, first, NULL);
    pthread_create(&t2, NULL, second, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    if (p != 34 || q != 55) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
