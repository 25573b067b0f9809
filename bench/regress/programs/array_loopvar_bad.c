/* main passes the address of its loop variable i to each of five workers, which read it only
 * when they run; a worker that runs after main has moved i on reads a later index (or 5, which
 * it ignores), so some slot stays unmarked (schedule: all workers start after the create loop ends).
 * STYLE: thread-array
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

#define N 5

int seen[N];

void *worker(void *arg) {
    int k = *(int *)arg;
    if (k >= 0 && k < N)
        seen[k] = 1;
    return 0;
}

int main(void) {
    pthread_t t[N];
    int i, j;
    for (i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, &i);
    for (j = 0; j < N; j++)
        pthread_join(t[j], 0);
    for (j = 0; j < N; j++)
        assert(seen[j] == 1);
    return 0;
}
