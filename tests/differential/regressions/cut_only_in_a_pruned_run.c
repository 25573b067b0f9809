/* Differential regression: cut_only_in_a_pruned_run
 * Was open: dpor and dpor-ag answered unreachable for main's assertion where the
 *   oracle answered "bound reached" (t0's spin loop was cut in some runs, only in runs
 *   DPOR's sleep sets prune). t1's assertion fails in every run and main joins t1 first,
 *   so main's assertion is unreachable at any bound. Since spin loops are awaits
 *   (2026-11-28) t0's loop is cut in no run, on either side: every mode and the oracle
 *   answer unreachable.
 * Found by a fresh draw (5,000 programs) on 2026-11-27 (the ORACLE lines count this
 *   comment's lines).
 * ORACLE line 40: violated  (every run: t1's assertion fails as soon as t1 runs)
 * ORACLE line 64: unreachable
 * ORACLE deadlock: no
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int g0 = 1;
pthread_mutex_t m0;

void *t0(void *arg) {
    int l0 = 0;
    int l1 = 0;
    while (g0 != 1) { }
    g0 = abs(1);
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    int l1 = 0;
    __VERIFIER_atomic_begin();
    for (int i0 = 0; i0 < 1; i0++) {
        l0 = g0 * 0;
        assert(l0 > g0);
    }
    __VERIFIER_atomic_end();
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x0 && x0 <= 2);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x1 && x1 <= 2);
    if ((x0 <= x0) && (x1 < x0)) {
        x1 = g0;
        g0 = g0 + g0;
    }
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t0, 0);
    r0 = g0;
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    assert(abs(g0) <= g0);
    return 0;
}
