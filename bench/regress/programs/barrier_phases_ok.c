/* Three threads work in three phases separated by one reused pthread barrier (count 3): each writes
 * its slot, then reads its neighbour's slot and writes a pair sum, then reads its neighbour's pair
 * sum. Invariant: no thread starts phase k + 1 before all three finished phase k, so every read sees
 * the neighbour's write of the previous phase.
 * STYLE: barrier
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

#define N 3

pthread_barrier_t bar;
int slot[N];
int pair[N];
int ids[N];

void *worker(void *arg) {
    int id = *(int *)arg;
    int nb = (id + 1) % N;
    slot[id] = id + 1;
    pthread_barrier_wait(&bar);
    assert(slot[nb] == nb + 1);
    pair[id] = slot[id] + slot[nb];
    pthread_barrier_wait(&bar);
    assert(pair[nb] == (nb + 1) + ((nb + 1) % N + 1));
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&bar, 0, N);
    for (int i = 0; i < N; i++) {
        ids[i] = i;
        pthread_create(&t[i], 0, worker, &ids[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
