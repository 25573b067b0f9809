/* Differential regression: dpor_spinning_twins_without_park_futile
 * Two threads write g1 = 0 and spin until g1 == 1; main writes an input in
 * [1, 2] to g1, joins both and fails. dpor-ag (and dpor with park_futile
 * off, which dpor-ag always is) says the assertion is unreachable: the run
 * where main's write of 1 comes after both writes of 0 is never explored.
 * dpor, rf and the oracle find it; switching off awaits or ghost_rounds
 * finds it too. Minimised from bench/differential_scale.py --first-seed
 * 65000 (shard 7, five programs); the same at 9376ad4, before the session
 * that found it.
 * OPEN: a wrong "unreachable" in the default mode
 * ORACLE line 34: violated
 * ORACLE deadlock: no
 * ORACLE stuck: yes
 */
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int g1;
void *t0(void *arg) {
    g1 = 0;
    while (g1 != 1) { }
    return 0;
}
int main(void) {
    pthread_t h0, h1;
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x1 && x1 <= 2);
    pthread_create(&h0, 0, t0, 0);
    pthread_create(&h1, 0, t0, 0);
    g1 = x1;
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    assert(g1 != g1);
    return 0;
}
