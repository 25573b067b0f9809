/* Differential regression: dpor_misses_a_failure_beside_aborting_threads
 * dpor and dpor-ag reported the assertion in t1 unreachable; baseline and the
 * oracle find it failing when t1 runs alone first (found by CI's set). Two
 * threads blocked on the same held mutex were dependent, so the later
 * attempt's race was taken with the earlier attempt (a useless reversal: the
 * mutex was still held) instead of with the lock that made both block; and
 * a reversed attempt kept its "blocked" footprint, so a wakeup sequence that
 * starts with it covered sequences it does not cover once it takes the mutex.
 * ORACLE line 31: violated
 * ORACLE line 53: violated
 * ORACLE deadlock: yes
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g0 = 1;
int g1 = 1;
int g2 = 1;
pthread_mutex_t m0;
pthread_mutex_t m1;
pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;

void *t0(void *arg) {
    int l0 = 0;
    int l1 = 0;
    pthread_mutex_lock(&m0);
    pthread_mutex_lock(&m1);
    assert((-2) >= g2);
    g1 = g1 + 1;
    pthread_mutex_unlock(&m1);
    pthread_mutex_unlock(&m0);
    l0 = l0;
    g2 = g2 + 1;
    g2++;
    pthread_cond_signal(&c0);
    pthread_cond_signal(&c0);
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    pthread_mutex_lock(&m1);
    pthread_mutex_lock(&m0);
    g0 = g0 + 1;
    pthread_mutex_unlock(&m0);
    pthread_mutex_unlock(&m1);
    pthread_mutex_lock(&m0);
    g2++;
    while (g2 == 1) pthread_cond_wait(&c0, &m0);
    assert(g2 < 2);
    g2 = 1;
    pthread_mutex_unlock(&m0);
    l0 = l0;
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_t h2;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    pthread_mutex_init(&m1, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= x0 && x0 <= 1);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(-1 <= x1 && x1 <= 2);
    if (x0 < 1) return 0;
    pthread_create(&h0, 0, t0, 0);
    pthread_create(&h1, 0, t1, 0);
    pthread_create(&h2, 0, t0, 0);
    pthread_join(h1, 0);
    pthread_join(h0, 0);
    pthread_join(h2, 0);
    return 0;
}
