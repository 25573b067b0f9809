/* A spinlock made of an atomic_flag (test-and-set to take it, clear to give
 * it back) around a non-atomic counter.
 * VERDICT: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_flag busy = ATOMIC_FLAG_INIT;
int counter;

void *worker(void *arg) {
    while (atomic_flag_test_and_set_explicit(&busy, memory_order_acquire))
        ;
    counter = counter + 1;
    atomic_flag_clear_explicit(&busy, memory_order_release);
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
