/* Two workers each write their own slot, meet at a barrier, then read the
 * other's slot: after the barrier both writes are visible.
 * VERDICT: holds
 * RUNS: baseline=30
 */
#include <pthread.h>
#include <assert.h>

pthread_barrier_t meet;
int slots[2];

void *worker(void *arg) {
    long me = (long)arg;
    slots[me] = 1;
    pthread_barrier_wait(&meet);
    assert(slots[1 - me] == 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_barrier_init(&meet, 0, 2);
    pthread_create(&a, 0, worker, (void *)0);
    pthread_create(&b, 0, worker, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
