/* Constant loops in started threads, run to their end under --unwind 2:
 * inside and outside a lock, around a lock taken on every round, nested,
 * with the counter a global only the thread writes, or behind a pointer to
 * the starter's local, and calling functions that branch on shared memory.
 * UNWIND: 2
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

#define ROUNDS 10

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
int grid[4][5];
int gi;
int marks[ROUNDS];

int below(int limit) { return total < limit; }

void *locked_rounds(void *arg) {
    for (int r = 0; r < ROUNDS; r++) {      /* a lock on every round */
        pthread_mutex_lock(&m);
        if (below(1000))                    /* a callee reads shared memory */
            total++;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *nested_in_lock(void *arg) {
    pthread_mutex_lock(&m);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            grid[r][c] += 1;
    for (gi = 0; gi < ROUNDS; gi++)         /* a global counter */
        marks[gi] = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *through_pointer(void *arg) {
    int *p = arg;
    for (*p = 0; *p < ROUNDS; (*p)++)
        marks[*p] += 1;
    return 0;
}

int main(void) {
    pthread_t t1, t3;
    int k = -1;
    pthread_create(&t1, 0, locked_rounds, 0);
    pthread_create(&t3, 0, nested_in_lock, 0);
    pthread_join(t1, 0);
    pthread_join(t3, 0);
    assert(total == ROUNDS);
    assert(grid[3][4] == 1 && marks[ROUNDS - 1] == 1 && gi == ROUNDS);
    pthread_create(&t1, 0, through_pointer, &k);
    pthread_join(t1, 0);
    assert(k == ROUNDS && marks[ROUNDS - 1] == 2);
    return 0;
}
