/* Differential regression: rf_deadlock_after_a_lost_decrement
 * Mode rf's search for findings missed the deadlock (27 runs, "explored every
 * run"); baseline, dpor and dpor-ag reported it. t1's unlocked `g0 = l0` has to
 * fall between t0's read and write of `g0--` (a lost update) for t0 to read 2
 * and wait for a signal nobody sends. The reversal that runs t0's read before
 * t1's `g0 = l0` was taken as covered by the wakeup tree's node for t1, whose
 * footprint came from a run where that store wrote what memory held (a silent
 * store, read there): here it writes. A wakeup tree's footprints now count
 * their silent stores as writes. Older than the session that found it (746f4ed
 * misses it too); found by the differential test at scale with spurious
 * wake-ups (seed 46000+, shard 7).
 * ORACLE line 35: violated
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
pthread_mutex_t m0;
pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;

void *t0(void *arg) {
    int l0 = 0;
    g0 = l0 - l0;
    pthread_mutex_lock(&m0);
    g0--;
    while (g0 == 2) pthread_cond_wait(&c0, &m0);
    g0 = 2;
    assert(g0 != 2);
    pthread_mutex_unlock(&m0);
    pthread_mutex_lock(&m0);
    pthread_cond_signal(&c0);
    g0 += 2;
    pthread_mutex_unlock(&m0);
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    pthread_mutex_lock(&m0);
    if (g0 >= 1) pthread_cond_wait(&c0, &m0);
    g0 -= 1;
    pthread_mutex_unlock(&m0);
    g0 = l0;
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x0 && x0 <= 2);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x1 && x1 <= 2);
    g1 = x1 * (-2);
    g0 = x1 * 2;
    if (x1 > x1) {
        g1++;
        x1 = g0;
    }
    pthread_create(&h0, 0, t0, 0);
    pthread_create(&h1, 0, t1, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    g1 = g1 * 0;
    return 0;
}
