/* Two threads increment a counter under a mutex; after both joined, the
 * counter is exactly 2.
 * VERDICT: holds
 * RUNS: baseline=26
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *bump(void *arg) {
    pthread_mutex_lock(&lock);
    int seen = counter;
    counter = seen + 1;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, bump, 0);
    pthread_create(&b, 0, bump, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
