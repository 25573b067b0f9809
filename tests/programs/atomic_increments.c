/* VERDICT: holds
 * Two threads each read-and-increment two shared counters inside atomic
 * regions and branch on what they read. Whatever the order, each counter ends
 * exactly two above its symbolic start value. */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int m, n;

void *step(void *unused) {
    int got, left, right;
    __VERIFIER_atomic_begin();
    got = m;
    m = m + 1;
    __VERIFIER_atomic_end();
    left = got == 0 ? 1 : 2;
    __VERIFIER_atomic_begin();
    got = n;
    n = n + 1;
    __VERIFIER_atomic_end();
    if (got == 0)
        right = 1;
    else
        right = 2;
    return 0;
}

int main(void) {
    pthread_t a, b;
    m = __VERIFIER_nondet_int();
    n = __VERIFIER_nondet_int();
    int m0 = m, n0 = n;
    pthread_create(&a, 0, step, 0);
    pthread_create(&b, 0, step, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(m == m0 + 2 && n == n0 + 2);
    return 0;
}
