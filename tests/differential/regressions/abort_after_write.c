/* Differential regression: abort_after_write
 * Engine (all modes): the assertion in t2 holds. t1 aborts at assert(0) right
 * after its write, as local code with no context switch before it, so no
 * explored run lets t2 read g == 1 first. In C, t1 can be preempted between the
 * write and its assert, and t2's assertion then fails: an abort is visible to
 * the other threads, like a write.
 * ORACLE line 21: violated  (inputs {}: main: create t1; main: create t2; t1#1: write g = 1; t1#1: assert(0) == 0)
 * ORACLE line 28: violated  (inputs {}: main: create t1; main: create t2; t1#1: write g = 1; t2#2: read g == 1; t2#2: assert(l == 0) == 0)
 * ORACLE deadlock: no
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *t1(void *arg) {
    g = 1;
    assert(0);
    return 0;
}

void *t2(void *arg) {
    int l = 0;
    l = g;
    assert(l == 0);
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
