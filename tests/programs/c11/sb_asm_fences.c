/* Store buffering with relaxed accesses and an x86 full fence between each
 * thread's store and load, written as inline assembly (mfence; a locked add
 * to the stack). Under C11 each is a seq_cst thread fence, so the fences
 * are ordered and the second reads the first's store. (sfence, which only
 * orders stores, would not do: it is no C11 fence.)
 * UNDER rc11 line 36: holds
 * UNDER sc line 36: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;
int r1, r2;

void *left(void *arg) {
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    __asm__ __volatile__("mfence" ::: "memory");
    r1 = atomic_load_explicit(&y, memory_order_relaxed);
    return 0;
}

void *right(void *arg) {
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    __asm__ __volatile__("lock; addl $0,0(%%rsp)" ::: "memory", "cc");
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
