/* Differential regression: dpor_deadlock_beside_a_failure_under_locks
 * Modes dpor and dpor-ag: the assertion is violated, as it should be, but no
 * deadlock is reported; baseline reports it. t1 takes a then b and fails its
 * assertion while holding both; t2 takes b then a. The run where t1 holds a and
 * t2 holds b deadlocks. The run where t1 fails ends before t2 does anything,
 * so (a guess) t2's lock of b is never seen racing with t1's, and t2 is never
 * run first.
 * ORACLE line 24: violated  (inputs {}: main: create t1; main: create t2; t1#1: lock a; t1#1: lock b; t1#1: assert(0) == 0)
 * ORACLE deadlock: yes  (inputs {}: main: create t1; main: create t2; t1#1: lock a; t2#2: lock b)
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;
pthread_mutex_t a;
pthread_mutex_t b;

void *t1(void *arg) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    assert(0);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return 0;
}

void *t2(void *arg) {
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    g = g + 1;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_mutex_init(&a, 0);
    pthread_mutex_init(&b, 0);
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t2, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    return 0;
}
