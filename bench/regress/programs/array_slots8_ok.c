/* Eight workers each write only their own slot of an array (slot i gets i * i + 1); the index
 * reaches each worker through its own element of ids[]. Invariant: slot i is written once, by worker i
 * alone, so after the joins the slots sum to 140 + 8 == 148.
 * STYLE: thread-array
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

#define N 8

int sq[N];
int ids[N];

void *worker(void *arg) {
    int id = *(int *)arg;
    sq[id] = id * id + 1;
    return NULL;
}

int main(void) {
    pthread_t t[N];
    int i, sum = 0;
    for (i = 0; i < N; i++) {
        ids[i] = i;
        if (pthread_create(&t[i], NULL, worker, &ids[i]))
            abort();
    }
    for (i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (i = 0; i < N; i++)
        sum += sq[i];
    assert(sum == 148);
    return 0;
}
