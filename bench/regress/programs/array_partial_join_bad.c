/* Six workers each sum their own block of four numbers into partial[id]; main adds the partial
 * sums after its join loop, but the loop stops one short (i < N - 1), so the last worker may not
 * have written partial[5] yet (schedule: worker 5 runs after main's final sum).
 * STYLE: thread-array
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

#define N 6
#define BLOCK 4

int data[N * BLOCK];
int partial[N];
int ids[N];

void *worker(void *arg) {
    int id = *(int *)arg;
    int s = 0;
    for (int k = 0; k < BLOCK; k++)
        s += data[id * BLOCK + k];
    partial[id] = s;
    return NULL;
}

int main(void) {
    pthread_t t[N];
    int i, total = 0;
    for (i = 0; i < N * BLOCK; i++)
        data[i] = 1;
    for (i = 0; i < N; i++) {
        ids[i] = i;
        if (pthread_create(&t[i], NULL, worker, &ids[i]) != 0)
            abort();
    }
    for (i = 0; i < N - 1; i++)
        pthread_join(t[i], NULL);
    for (i = 0; i < N; i++)
        total += partial[i];
    assert(total == N * BLOCK);
    return 0;
}
