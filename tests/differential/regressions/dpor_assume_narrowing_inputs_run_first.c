/* Differential regression: dpor_assume_narrowing_inputs_run_first
 * Engine (dpor, dpor-ag, rf; with or without spurious wake-ups): the assertion in t1
 * was unreachable. t2's assume(g0 == 0) on the symbolic input read only g0, so it
 * commuted with every step that did not write g0; run first, it narrowed the input
 * to 0 for the rest of the run, and the run where t2 reads g0 only after t1 wrote 0
 * (input 2) was never reached. An assumption that narrows symbolic inputs is now
 * dependent with every step. Found by the differential test at scale with spurious
 * wake-ups (seed 19005); the commit before this session missed it too.
 * ORACLE line 31: violated
 * ORACLE line 47: violated  (inputs {'x0': 1, 'x1': -2}: t0 runs lines 17-20; t1 waits; t0 broadcasts, g0 = 2; t1 wakes, g0 = 0; t2 reads 0)
 * ORACLE deadlock: yes
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <stdatomic.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

atomic_int g0;
pthread_mutex_t m0;
pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;

void *t0(void *arg) {
    int l0 = 0;
    int l1 = 0;
    l1 = 3 * 0;
    pthread_mutex_lock(&m0);
    while (g0 == 1) pthread_cond_wait(&c0, &m0);
    assert(g0 != 0);
    pthread_mutex_unlock(&m0);
    pthread_mutex_lock(&m0);
    pthread_cond_broadcast(&c0);
    g0 = g0 + 1;
    pthread_mutex_unlock(&m0);
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    int l1 = 0;
    pthread_mutex_lock(&m0);
    g0 = 1;
    while (g0 == 1) pthread_cond_wait(&c0, &m0);
    g0 = 0;
    assert(g0 > 2);
    pthread_mutex_unlock(&m0);
    l0 = 3 * (-2);
    return 0;
}

void *t2(void *arg) {
    int l0 = 0;
    int l1 = 0;
    if (((-2) >= l1) || (l1 <= l0)) {
        l1 = -1;
    }
    __VERIFIER_assume(g0 == 0);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_t h2;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x0 && x0 <= 2);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(-2 <= x1 && x1 <= 0);
    g0 = abs(x1);
    pthread_create(&h0, 0, t2, 0);
    pthread_create(&h1, 0, t0, 0);
    pthread_create(&h2, 0, t1, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    pthread_join(h2, 0);
    return 0;
}