/* Differential regression: rf_sleep_blocked_attempt
 * Engine (rf): the assertion in t0 was "not reached by any run" in 2 runs. main
 * takes m0 and reads g1; the reversal of that read with t0's g1 = 0 runs t0's
 * store first, where it is silent (a read): main's read commutes with it, so
 * main stays asleep, and t0's next step, lock m0, is parked behind main. Every
 * enabled thread asleep, the run was dropped as sleep-set blocked, and the
 * parked attempt's race with main's acquisition was never reversed: the run
 * where t0 locks, signals and sets g1 = 1 before main increments it (then
 * t0's decrement leaves 1 and the wait loop exits) was never explored. dpor
 * reached it through the pair of writes rf leaves unordered. A sleep-blocked
 * run now reverses its parked attempts' races too. Found by the differential
 * test at scale with spurious wake-ups (--first-seed 43000, shard 19; 2026-12-06).
 * ORACLE line 40: violated  (inputs {'x0': -1}: t0 locks and sets g1 = 1 before main's g1++; t0's g1-- leaves 1)
 * ORACLE deadlock: yes
 * SPURIOUS: yes
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g0 = 2;
int g1;
int g2 = -1;
pthread_mutex_t m0;
pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;

void *t0(void *arg) {
    int l0 = 0;
    g1 = l0 + l0;
    pthread_mutex_lock(&m0);
    pthread_cond_signal(&c0);
    g1 = 1;
    pthread_mutex_unlock(&m0);
    pthread_mutex_lock(&m0);
    g1--;
    while ((l0 >= abs(l0)) && (l0 == g1)) pthread_cond_wait(&c0, &m0);
    assert(g1 < 0);
    g1 = 0;
    pthread_mutex_unlock(&m0);
    pthread_mutex_lock(&m0);
    g1 += 2;
    pthread_cond_broadcast(&c0);
    pthread_mutex_unlock(&m0);
    do { l0 = g1; } while (!__sync_bool_compare_and_swap(&g1, l0, l0 + 1));
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    l0 = g2;
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(-1 <= x0 && x0 <= 1);
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t0, 0);
    pthread_mutex_lock(&m0);
    g1++;
    pthread_cond_broadcast(&c0);
    pthread_mutex_unlock(&m0);
    pthread_join(h1, 0);
    pthread_join(h0, 0);
    return 0;
}

