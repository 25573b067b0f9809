/* Twelve workers each add to a shared counter twice, every increment under one mutex; main joins
 * all and expects 24. Invariant: each locked increment adds exactly one to count, and all 24 have run
 * once every worker is joined.
 * STYLE: thread-array
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
void __VERIFIER_assert(int cond) {
    if (!cond) {
    ERROR:
        reach_error();
        abort();
    }
}

#define N 12

pthread_mutex_t lock;
int count;

void *worker(void *arg) {
    for (int r = 0; r < 2; r++) {
        pthread_mutex_lock(&lock);
        count = count + 1;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    pthread_t t[N];
    int i;
    pthread_mutex_init(&lock, NULL);
    for (i = 0; i < N; i++)
        if (pthread_create(&t[i], NULL, worker, NULL))
            abort();
    for (i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    __VERIFIER_assert(count == 2 * N);
    return 0;
}
