/* Store buffering with release stores and acquire loads: each thread
 * stores its flag and then reads the other's. C11 lets both reads see 0:
 * release and acquire order a thread's accesses only with what it reads
 * from, and neither read reads the other's store; only seq_cst accesses or
 * fences forbid it (sb_seq_cst_fences.c).
 * UNDER rc11 line 34: violated
 * UNDER sc line 34: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;
int r1, r2;

void *left(void *arg) {
    atomic_store_explicit(&x, 1, memory_order_release);
    r1 = atomic_load_explicit(&y, memory_order_acquire);
    return 0;
}

void *right(void *arg) {
    atomic_store_explicit(&y, 1, memory_order_release);
    r2 = atomic_load_explicit(&x, memory_order_acquire);
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
