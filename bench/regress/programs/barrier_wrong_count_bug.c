/* Three threads write their slot, meet at a barrier and read their neighbour's slot, but the barrier
 * is initialised with count 2, so the first two arrivals are released while the third has not
 * written yet (schedule: threads 0 and 1 write and arrive, are released, and thread 1 reads slot[2] == 0).
 * STYLE: barrier
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

#define N 3

pthread_barrier_t bar;
int slot[N];
int ids[N];

void *worker(void *arg) {
    int id = *(int *)arg;
    slot[id] = 10 + id;
    pthread_barrier_wait(&bar);
    assert(slot[(id + 1) % N] != 0);
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&bar, 0, 2);
    for (int i = 0; i < N; i++) {
        ids[i] = i;
        pthread_create(&t[i], 0, worker, &ids[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
