/* Differential regression: rf_ag_pruned_run_hides_the_observer
 * Mode rf-ag: the assertion in t1 said to hold. t0's `g0 = g0` writes blindly after
 * t1's write, and t1's assertion reads t0's value; assertion-guided pruning cut the run
 * before that read, the pair of writes looked unobserved, and its reversal was never
 * made. A run cut short by a summary stands for runs not taken: every write in it
 * counts as observed.
 * ORACLE line 35: violated
 * ORACLE line 51: violated
 * ORACLE deadlock: no
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <semaphore.h>
#include <time.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g0 = -1;
sem_t s0;

void *t0(void *arg) {
    int l0 = 0;
    sem_post(&s0);
    g0 = g0;
    sem_wait(&s0);
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    int l1 = 0;
    g0 = g0 - 2;
    assert((-1) == g0);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    int r0 = 0;
    sem_init(&s0, 0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x0 && x0 <= 2);
    g0 = abs(-1);
    pthread_create(&h0, 0, t0, 0);
    pthread_create(&h1, 0, t1, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    assert(g0 != g0);
    return 0;
}
