/* Differential regression: dpor_assume_first_hides_an_earlier_failure
 * Engine (dpor, dpor-ag, rf; with or without spurious wake-ups): the assertion in t1
 * held. t0's first step, assume(g0 == 0) on the input, and t1's reads of g0 commute
 * as reads; run first, the assumption left only input 0, and the run where t1 fails
 * with input -1 before t0 assumes anything was never explored. Found by the
 * differential test at scale with spurious wake-ups (seed 19009); main's last
 * assertion (assert(g0 < g0), violated whenever reached) left out.
 * ORACLE line 38: violated  (inputs {'x0': -1, 'x1': 0}: t1 locks, waits, wakes spuriously, g0 == -1)
 * ORACLE deadlock: yes
 * SPURIOUS: yes
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <stdatomic.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

atomic_int g0 = 2;
pthread_mutex_t m0;
pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;

void *t0(void *arg) {
    int l0 = 0;
    l0 = l0 * 2;
    __VERIFIER_assume(g0 == 0);
    g0 += 2;
    pthread_cond_signal(&c0);
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    l0 = abs(l0);
    pthread_mutex_lock(&m0);
    if (g0 <= 2) pthread_cond_wait(&c0, &m0);
    assert(g0 != (-1));
    pthread_mutex_unlock(&m0);
    return 0;
}

void *t2(void *arg) {
    int l0 = 0;
    if (!(2 != l0)) {
        l0 = abs(l0);
    } else {
        l0 = abs(l0);
    }
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_t h2;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(-2 <= x0 && x0 <= 1);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= x1 && x1 <= 2);
    g0 = x0;
    pthread_create(&h0, 0, t2, 0);
    pthread_create(&h1, 0, t0, 0);
    pthread_create(&h2, 0, t1, 0);
    pthread_join(h2, 0);
    pthread_join(h1, 0);
    pthread_join(h0, 0);
    pthread_mutex_lock(&m0);
    g0 = r0 + r0;
    g0 -= 2;
    pthread_mutex_unlock(&m0);
    return 0;
}