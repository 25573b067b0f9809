/* Differential regression: futile_round_read_a_symbol
 * Engine (dpor, dpor-ag): the assertion was "not reached by any run" in 2 runs.
 * g1 holds the input x1 (0 or 1); two twins spin while g1 != 1, then add one. On
 * the side x1 != 1 a twin's round read the symbol x1 and changed nothing; the
 * futile-firsts memo kept "a round that reads x1 is futile" and, on the side
 * x1 == 1, took the race of the second twin's read with the first twin's
 * increment for one that could only lead to an await: the run where both pass
 * the loop before either adds (g1 ends at 3) was never explored. The memo now
 * keeps only rounds that read concrete values. Found by the differential test
 * at scale (--first-seed 31000, shard 14: seed 31014; 2026-12-06).
 * ORACLE line 52: violated  (inputs {'x0': 1, 'x1': 1}: t0#1 and t0#2 read g1 == 1; both add; g1 == 3 != g2)
 * ORACLE deadlock: no
 * ORACLE stuck: yes
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <stdatomic.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g0;
int g1;
atomic_int g2 = 1;
pthread_mutex_t m0;
pthread_mutex_t m1;

void *t0(void *arg) {
    int l0 = 0;
    int l1 = 0;
    while (g1 != 1) { }
    g1++;
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    int r0 = 0;
    pthread_mutex_init(&m0, 0);
    pthread_mutex_init(&m1, 0);
    int x0 = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= x0 && x0 <= 2);
    int x1 = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= x1 && x1 <= 1);
    g1 = x1;
    pthread_create(&h0, 0, t0, 0);
    pthread_create(&h1, 0, t0, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    assert(g1 == g2);
    return 0;
}