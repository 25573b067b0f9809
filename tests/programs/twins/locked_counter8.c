/* Eight identical workers increment a counter under a mutex; main joins
 * them all, then checks the sum. The workers are twins: explored up to
 * their permutation, one run.
 * VERDICT: holds */
#include <pthread.h>
#include <assert.h>
#define N 8
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    counter++;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(counter == N);
    return 0;
}
