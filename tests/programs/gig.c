/* The generalized interleaving graph example (the assertion-guided paper's
 * Figure 4, our own text): two threads each do an atomic fetch-and-increment
 * of m and then of n, branching on the value they saw. m and n start
 * symbolic, so the increments can overflow (reported as run-time errors);
 * on every run without overflow both counters grew by exactly 2.
 * VERDICT: holds
 * FINDING: error 24 signed integer overflow
 * FINDING: error 26 signed integer overflow
 * FINDING: error 33 signed integer overflow
 * FINDING: error 35 signed integer overflow
 * RUNS: baseline=171
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int m, n;

void *left(void *arg) {
    int seen, r1, r2;
    __VERIFIER_atomic_begin(); seen = m; m = m + 1; __VERIFIER_atomic_end();
    if (seen == 0) r1 = 1; else r1 = 2;
    __VERIFIER_atomic_begin(); seen = n; n = n + 1; __VERIFIER_atomic_end();
    if (seen == 0) r2 = 1; else r2 = 2;
    return 0;
}

void *right(void *arg) {
    int seen, r1, r2;
    __VERIFIER_atomic_begin(); seen = m; m = m + 1; __VERIFIER_atomic_end();
    if (seen == 0) r1 = 1; else r1 = 2;
    __VERIFIER_atomic_begin(); seen = n; n = n + 1; __VERIFIER_atomic_end();
    if (seen == 0) r2 = 1; else r2 = 2;
    return 0;
}

int main(void) {
    pthread_t a, b;
    int m0, n0;
    m = __VERIFIER_nondet_int();
    n = __VERIFIER_nondet_int();
    m0 = m;
    n0 = n;
    pthread_create(&a, 0, left, 0);
    pthread_create(&b, 0, right, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(m == m0 + 2 && n == n0 + 2);
    return 0;
}
