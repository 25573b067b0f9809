/* Three assertions after twelve workers, each worker locking its own mutex:
 * the baseline mode explores every order of the workers' steps, minutes per
 * assertion on any machine: what tests of cancellation need to interrupt.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

#define WORKERS 12

pthread_mutex_t locks[WORKERS];
int done[WORKERS];

void *worker(void *arg) {
    long k = (long)arg;
    pthread_mutex_lock(&locks[k]);
    done[k] = 1;
    pthread_mutex_unlock(&locks[k]);
    return 0;
}

int main(void) {
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_mutex_init(&locks[i], 0);
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], 0);
    int sum = 0;
    for (int i = 0; i < WORKERS; i++)
        sum += done[i];
    assert(done[0] == 1);
    assert(done[WORKERS - 1] == 1);
    assert(sum == WORKERS);
    return 0;
}
