/* Differential regression: rf_ag_summary_over_unobserved_writes
 * A first rf-ag (observers under assertion-guided pruning) said the first assertion
 * holds: r0 == 3 needs main's g2 = 2 between t1's second g2 = 1 and its read of g2,
 * and the summaries learned below a node stood for runs whose pairs of writes only
 * reads in pruned runs would have observed. Written by hand for the rf work (not
 * drawn by the generator); rf-ag was dropped, and every mode must get it right.
 * ORACLE line 38: violated
 * ORACLE line 39: holds
 * ORACLE deadlock: no
 */
#include <pthread.h>
#include <assert.h>

int g0;
int g1;
int g2;
int r0;
void *t0(void *a) {
    g1 = 2;
    int l0 = g2;
    r0 = l0;
    return 0;
}
void *t1(void *a) {
    g2 = 1;
    g0 = g0 + 1;
    g2 = 1;
    g2 = g2 + 1;
    return 0;
}
int main(void) {
    pthread_t h[2];
    pthread_create(&h[0], 0, t0, 0);
    pthread_create(&h[1], 0, t1, 0);
    g2 = 2;
    pthread_join(h[0], 0);
    pthread_join(h[1], 0);
    assert(!(r0 == 3 && r0 == 3));
    assert(!(g2 == 0 && g1 <= 3));
    return 0;
}
