/* Differential regression: ag_summary_over_a_silent_store
 * Engine (dpor-ag, summaries on): the assertion at line 32 is unreachable. t0's g0 = g0
 * was silent (a read) in the runs below a control state, so DPOR there left it unreversed
 * with t1's reads; the summary learned from those runs was then used where main's write
 * came between t0's read and its store, and the store wrote. A silent store's summary
 * holds only where it is silent again.
 * ORACLE line 31: violated  (inputs {'x0': 0, 'x1': 0}: main: write g0 = 0; main: create t0; main: create t1; t0#1: read g0 == 0; main: write g0 = 1; t1#2: read g0 == 1; t0#1: write g0 = 0; main: join h0; t1#2: read g0 == 0; t1#2: assert(g0 < l1) == 1; t1#2: read g0 == 0; t1#2: assert(g0 < l0) == 0)
 * ORACLE line 32: violated  (inputs {'x0': 0, 'x1': 0}: main: write g0 = 0; main: create t0; main: create t1; t0#1: read g0 == 0; main: write g0 = 1; t1#2: read g0 == 1; t0#1: write g0 = 0; main: join h0; t1#2: read g0 == 0; t1#2: assert(g0 < l1) == 1; t1#2: read g0 == 0; t1#2: assert(g0 < l0) == 0)
 * ORACLE deadlock: no
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g0;
pthread_mutex_t m0;

void *t0(void *arg) {
    int l0 = 0;
    g0 = g0;
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    int l1 = 0;
    l1 = g0;
    assert(g0 < l1);
    assert(g0 < l0);
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
    g0 = 0;
    if (x0 == 1) return 0;
    if (x1 < x1) {
        x1 = g0;
        g0 = g0 * (-1);
    }
    pthread_create(&h0, 0, t0, 0);
    pthread_create(&h1, 0, t1, 0);
    x1 = x0 - (-1);
    g0 = abs(x1);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    return 0;
}

