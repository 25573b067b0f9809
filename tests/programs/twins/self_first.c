/* Two identical workers record who took the lock first with
 * pthread_self; main asserts it was the first one started. A program that
 * asks for thread ids has no twins.
 * VERDICT: violated */
#include <pthread.h>
#include <assert.h>
pthread_t first;
int taken;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    if (!taken) { taken = 1; first = pthread_self(); }
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(pthread_equal(first, t[0]));
    return 0;
}
