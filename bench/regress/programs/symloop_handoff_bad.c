/* ping and pong hand a turn back and forth n times (n nondet in [1, 15]); ping appends one log entry
 * per round to a log of capacity 12, so the capacity check fails only in ping's 13th round, which
 * needs n >= 13 and twelve full round trips first (schedule: n == 13, strict alternation).
 * STYLE: symbolic-loop
 * EXPECT: false
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
    __VERIFIER_assume(n >= 1 && n <= 15);
    pthread_create(&a, NULL, ping, NULL);
    pthread_create(&b, NULL, pong, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
