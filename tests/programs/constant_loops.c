/* Set-up loops over constants, as real programs write them: 256 mutexes
 * initialised and twelve workers created and joined in loops whose trip count
 * only a concrete local decides. No bound applies to such loops, so the
 * assertion holds outright, not "within the bound".
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

#define WORKERS 12

pthread_mutex_t locks[256];
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
    for (int i = 0; i < 256; i++)
        pthread_mutex_init(&locks[i], 0);
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], 0);
    int sum = 0;
    for (int i = 0; i < WORKERS; i++)
        sum += done[i];
    assert(sum == WORKERS);
    return 0;
}
