/* Differential regression: ag_misses_a_stuck_spin
 * Mode dpor-ag: the stuck thread missed (dpor, rf and baseline report it; so does
 * distaff check with two workers). t1 writes g0 = 0, t0 increments it to 1 and t1
 * then spins on g0 != 0 for good. The same at 9a85834: not from the rf work. Found
 * by bench/differential_scale.py --first-seed 13000 (shard 14).
 * Fixed: a pruning dpor-ag sub-check no longer stands in for the findings search.
 * ORACLE line 28: violated
 * ORACLE line 35: holds
 * ORACLE deadlock: no
 * ORACLE stuck: yes
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <stdatomic.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

atomic_int g0;
pthread_mutex_t m0;

void *t0(void *arg) {
    int l0 = 0;
    int l1 = 0;
    l1 = g0 - (-2);
    g0++;
    assert(g0 != l0);
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    g0 = abs(l0);
    assert(l0 <= 3);
    while (g0 != 0) { }
    g0 -= 1;
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= x0 && x0 <= 2);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= x1 && x1 <= 2);
    if (x1 > 0) return 0;
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t0, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    g0 += 2;
    return 0;
}
