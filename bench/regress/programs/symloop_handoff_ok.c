/* ping and pong hand a turn back and forth n times (n nondet in [1, 12]); ping appends one log entry
 * per round to a log of capacity 12. Invariant: at ping's check in round i, entries == i (its finished
 * rounds, nobody else appends) and i < n <= 12, so the capacity check always passes.
 * STYLE: symbolic-loop
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void __VERIFIER_assert(int cond) {
    if (!cond) {
    ERROR:
        reach_error();
        abort();
    }
}

#define LOGCAP 12
int n;
int turn = 0;
int entries = 0;
int logbuf[LOGCAP];

void *ping(void *arg) {
    for (int i = 0; i < n; i++) {
        __VERIFIER_atomic_begin();
        __VERIFIER_assume(turn == 0);
        __VERIFIER_assert(entries < LOGCAP);
        logbuf[entries] = i;
        entries = entries + 1;
        turn = 1;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

void *pong(void *arg) {
    for (int i = 0; i < n; i++) {
        __VERIFIER_atomic_begin();
        __VERIFIER_assume(turn == 1);
        turn = 0;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 1 && n <= LOGCAP);
    pthread_create(&a, NULL, ping, NULL);
    pthread_create(&b, NULL, pong, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
