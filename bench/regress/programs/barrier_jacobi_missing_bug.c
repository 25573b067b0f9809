/* Two threads run two Jacobi-style rounds over cur[] = {1, 2} but without the barrier after the
 * copy step, so a fast thread starts round two reading the other's old value (schedule: after the
 * first barrier thread 0 copies cur[0] = 3 and computes nxt[0] = 3 + 2 before thread 1 copies),
 * and cur[0] ends at 5, not 6.
 * STYLE: barrier
 * EXPECT: false
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
