/* Differential regression: rf_unlock_and_lock_are_not_blind_writes
 * Mode rf (first post-hoc cut): the deadlock missed. A mutex's unlock and the lock
 * that waits for it do not race, and touch no common byte, yet the blind-write test
 * took them for a pair of writes nobody observed and left them unordered: the
 * reversal that puts t0's broadcast between a waiter's read and its wait then
 * carried the other waiter's lock ahead of the unlock it needs.
 * ORACLE line 31: violated
 * ORACLE deadlock: yes
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <stdatomic.h>

atomic_int g0 = 1;
pthread_mutex_t m0;
pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;

void *t0(void *arg) {
    int l0 = 0;
    pthread_cond_broadcast(&c0);
    l0 = l0 * 2;
    return 0;
}

void *t1(void *arg) {
    int l0 = 0;
    int l1 = 0;
    pthread_mutex_lock(&m0);
    if (g0 <= 1) pthread_cond_wait(&c0, &m0);
    assert(g0 > 0);
    g0--;
    pthread_mutex_unlock(&m0);
    g0 += 2;
    pthread_cond_signal(&c0);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_t h2;
    pthread_mutex_init(&m0, 0);
    g0 = 0;
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t1, 0);
    pthread_create(&h2, 0, t0, 0);
    pthread_join(h0, 0);
    pthread_join(h2, 0);
    pthread_join(h1, 0);
    return 0;
}
