/* A barrier for three: each of three workers (created in a loop, the loop
 * counter as id) raises its flag, waits at the barrier, then checks its
 * neighbour's flag.
 *
 * From all three workers about to raise their flags (the same line three
 * times): the ids differ and lie in 0..2, and the barrier's expected count
 * is main's init, 3 (Bcnts), so nobody passes before all three flags are
 * up: the assertion holds. Without synchronization invariants the count is
 * a fresh symbol and the first worker may pass alone; without reaching
 * definitions the ids may collide, leaving a neighbour's flag unwritten.
 *
 * FROM: 26 26 26
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>

#define N 3

pthread_barrier_t all;
int up[N];

void *worker(void *arg) {
    int id = (int)(long)arg;
    up[id] = 1;                                     /* from here (1,2,3): three workers */
    pthread_barrier_wait(&all);
    assert(up[(id + 1) % N] == 1);
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&all, 0, N);
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
