/* Differential regression: rf_observer_in_the_writers_thread
 * Mode rf (first cut, observed write-write races reversed as they were seen, on
 * clocks without the unobserved edges): the deadlock missed. t1 writes g1 = 0,
 * main overwrites it with 1 and t1 reads the 1 (an observer in the writer's own
 * thread), then waits with no signal to come; the wakeup tree took the reversed
 * pair for an order it had explored.
 * ORACLE line 35: violated
 * ORACLE line 39: unreachable
 * ORACLE deadlock: yes
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g0;
int g1;
pthread_mutex_t m0;
pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;

void *t0(void *arg) {
    int l0 = 0;
    int l1 = 0;
    l1 = g0;
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    g1 = l0;
    pthread_mutex_lock(&m0);
    if (g1 == 1) pthread_cond_wait(&c0, &m0);
    assert(g1 > 2);
    pthread_mutex_unlock(&m0);
    pthread_mutex_lock(&m0);
    g1 = 1;
    assert(g1 == 2);
    pthread_mutex_unlock(&m0);
    pthread_cond_signal(&c0);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(-2 <= x0 && x0 <= 1);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x1 && x1 <= 2);
    pthread_create(&h0, 0, t0, 0);
    pthread_create(&h1, 0, t1, 0);
    pthread_mutex_lock(&m0);
    g1 = 1;
    pthread_mutex_unlock(&m0);
    pthread_cond_signal(&c0);
    pthread_join(h1, 0);
    pthread_join(h0, 0);
    g0 = -2;
    return 0;
}
