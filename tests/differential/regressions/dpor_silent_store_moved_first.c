/* Differential regression: dpor_silent_store_moved_first
 * Engine (dpor, rf, with silent_stores): the assertion in t0 holds. t1#2's g0 = 1
 * after t1#1's was silent (a read); reversing t0's read of g0 before t1#1's write,
 * the wakeup tree's t1#2-first branch, read-only in its old place, seemed to cover it:
 * run first, t1#2's store writes. A store moved before what it raced with may write.
 * ORACLE line 23: violated  (inputs {'x0': -1}: t0#3: read g0 == 0; t0#3: assert(l0 != g0) == 0)
 * ORACLE line 50: violated
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
    for (int i0 = 0; i0 < 1; i0++) {
        assert(l0 != g0);
        g0 = abs(-1);
    }
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    g0 = abs(1);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_t h2;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(-1 <= x0 && x0 <= 0);
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t1, 0);
    pthread_create(&h2, 0, t0, 0);
    pthread_join(h2, 0);
    pthread_join(h1, 0);
    pthread_join(h0, 0);
    r0 = g0;
    assert(g0 > g0);
    return 0;
}

