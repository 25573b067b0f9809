/* Store buffering with relaxed accesses and a seq_cst fence between each
 * thread's store and load: the fences are ordered one way or the other,
 * and the thread whose fence comes second reads the other's store.
 * UNDER rc11 line 34: holds
 * UNDER sc line 34: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;
int r1, r2;

void *left(void *arg) {
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    r1 = atomic_load_explicit(&y, memory_order_relaxed);
    return 0;
}

void *right(void *arg) {
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    r2 = atomic_load_explicit(&x, memory_order_relaxed);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, left, 0);
    pthread_create(&b, 0, right, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(r1 == 1 || r2 == 1);
    return 0;
}
