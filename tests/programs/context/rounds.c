/* Barrier rounds: two workers run the same number of rounds in lock-step;
 * each round a worker publishes its round number in its own slot, waits at
 * the barrier, reads its partner's slot, and waits again before the next
 * round may overwrite it.
 *
 * From both workers at the top of a round (the same line twice: two
 * instances), barrier matching says they are in the same round (one loop,
 * the same number of waits behind each, a barrier for exactly the two of
 * them, the same start and step), so each reads its own round number from
 * its partner: the assertion holds. The workers' ids come from their
 * creation arguments (0 and 1, different). Without synchronization
 * invariants the round counters are unrelated and the partner may be a
 * round ahead or behind; without reaching definitions so are the ids.
 *
 * FROM: 29 29
 * UNWIND: 1
 * EXPECT: full=bounded -RD=violated -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_barrier_t step;
int slot[2];
int rounds = 3;

void *worker(void *arg) {
    int me = (int)(long)arg;
    for (int r = 0; r < rounds; r++) {
        slot[me] = r;                               /* from here (1,2): both workers */
        pthread_barrier_wait(&step);
        int seen = slot[1 - me];
        assert(seen == r);
        pthread_barrier_wait(&step);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_barrier_init(&step, 0, 2);
    pthread_create(&a, 0, worker, (void *)0);
    pthread_create(&b, 0, worker, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
