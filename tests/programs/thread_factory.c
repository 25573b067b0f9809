/* A server that starts a worker for every request, forever. Each worker
 * takes a ticket under a lock; the assertion says no worker gets ticket 4 or
 * more. Main's loop never exits, so the unwind bound stops main when it
 * would take its loop's back edge an (N+1)th time, N+1 workers created, while
 * the workers go on: within --unwind 3 the assertion holds, from --unwind 4
 * on a fifth worker breaks it.
 * VERDICT: violated
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int next_ticket;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    int mine = next_ticket;
    next_ticket = mine + 1;
    pthread_mutex_unlock(&m);
    assert(mine < 4);
    return 0;
}

int main(void) {
    pthread_t t;
    while (1)
        pthread_create(&t, 0, worker, 0);
    return 0;
}
