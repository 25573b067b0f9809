/* The same program with a normal mutex: the holder's second lock waits
 * for itself for ever.
 * VERDICT: unreachable
 * FINDING: deadlock
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int counter;

void add(int k) {
    pthread_mutex_lock(&m);
    counter = counter + k;
    pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    add(1);
    int seen = counter;
    add(1);
    assert(counter == seen + 1);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_NORMAL);
    pthread_mutex_init(&m, &attr);
    pthread_mutexattr_destroy(&attr);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 4);
    return 0;
}
