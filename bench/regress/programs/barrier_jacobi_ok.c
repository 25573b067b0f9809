/* Two threads run two Jacobi-style rounds over cur[] = {1, 2}: each computes nxt[id] = cur[0] + cur[1],
 * waits at a barrier, copies nxt[id] into cur[id], and waits again. Invariant: both reads of a round
 * come before either copy (first barrier) and both copies before the next round's reads (second
 * barrier), so the rounds give {3, 3} and then {6, 6}.
 * STYLE: barrier
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);

pthread_barrier_t bar;
int cur[2] = {1, 2};
int nxt[2];

void *worker(void *arg) {
    int id = *(int *)arg;
    for (int r = 0; r < 2; r++) {
        nxt[id] = cur[0] + cur[1];
        pthread_barrier_wait(&bar);
        cur[id] = nxt[id];
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    int ia = 0, ib = 1;
    pthread_barrier_init(&bar, NULL, 2);
    pthread_create(&a, NULL, worker, &ia);
    pthread_create(&b, NULL, worker, &ib);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (cur[0] != 6 || cur[1] != 6) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
