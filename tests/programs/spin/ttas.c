/* A test-and-test-and-set lock: spin reading the flag until it looks free,
 * then try to take it with an atomic exchange; a failed exchange writes the
 * value that was there (1 over 1), which changes nothing.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

int locked;
int counter;

static void acquire(void) {
    for (;;) {
        while (__atomic_load_n(&locked, __ATOMIC_RELAXED))
            ;
        if (__atomic_exchange_n(&locked, 1, __ATOMIC_ACQUIRE) == 0)
            return;
    }
}

static void release(void) {
    __atomic_store_n(&locked, 0, __ATOMIC_RELEASE);
}

void *worker(void *arg) {
    acquire();
    int seen = counter;
    counter = seen + 1;
    release();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
