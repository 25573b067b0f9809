/* Differential regression: trace_goes_on_after_an_abort
 * Engine (all modes): both verdicts right, but the counterexample for t2's
 * assertion is t1 writing g = 1, t1's own assertion failing, and only then t2
 * reading g == 1 and failing: not a C run, since the first failure aborts the
 * process. A counterexample must end at the first failing assertion (here: t1
 * writes, t2 reads 1 and fails, before t1 checks its assertion).
 * ORACLE line 21: violated  (inputs {}: main: create t1; main: create t2; t1#1: write g = 1; t1#1: read g == 1; t1#1: assert(g == 0) == 0)
 * ORACLE line 28: violated  (inputs {}: main: create t1; main: create t2; t1#1: write g = 1; t1#1: read g == 1; t2#2: read g == 1; t2#2: assert(l != 1) == 0)
 * ORACLE deadlock: no
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *t1(void *arg) {
    g = 1;
    assert(g == 0);
    return 0;
}

void *t2(void *arg) {
    int l = 0;
    l = g;
    assert(l != 1);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t2, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    return 0;
}
