/* Open bug (dpor-ag): the assertion `l1 < g1` (t1) can fail -- baseline and dpor
 * report it, dpor-ag says it holds (summaries on; --disable summaries finds it).
 * Found by the differential test (tests/differential) against its oracle.
 * VIOLATED: 27 35 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g0 = 2;
int g1 = -1;
pthread_mutex_t m0;

void *t0(void *arg) {
    int l0 = 0;
    if (((-2) >= l0) || (l0 > (l0 + l0))) {
        g0 = (-2) * (-2);
    }
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    int l1 = 0;
    l1 = g0;
    assert(l1 < g1);
    return 0;
}

void *t2(void *arg) {
    int l0 = 0;
    l0 = 0 + 2;
    g0 = l0 * 0;
    assert(l0 < g1);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_t h2;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(-2 <= x0 && x0 <= -1);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= x1 && x1 <= 1);
    g0 = -1;
    g1 = x1 * 1;
    if ((x0 == (x1 * 1)) || (x1 < (x1 + x1))) {
        g1 += 2;
        g0 += 1;
    }
    pthread_create(&h0, 0, t2, 0);
    pthread_create(&h1, 0, t0, 0);
    pthread_create(&h2, 0, t1, 0);
    pthread_join(h2, 0);
    pthread_join(h1, 0);
    pthread_join(h0, 0);
    if (g0 >= g1) {
        g1 = g1 + 1;
        x0 = g1;
    } else {
        g1 += 2;
        x0 = g0;
    }
    return 0;
}

