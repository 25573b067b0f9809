/* Three workers fill their own cell, meet at a barrier, then each sums all
 * cells: after the barrier every write is visible.
 * EXPECT: holds
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

pthread_barrier_t phase;
int cell[3];

void *worker(void *arg) {
    long me = (long)arg;
    cell[me] = 1;
    pthread_barrier_wait(&phase);
    assert(cell[0] + cell[1] + cell[2] == 3);
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_barrier_init(&phase, 0, 3);
    for (long k = 0; k < 3; k++)
        pthread_create(&t[k], 0, worker, (void *)k);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], 0);
    return 0;
}
