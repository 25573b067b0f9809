/* Peterson's lock with release stores and acquire loads: not enough. Each
 * thread's store of its flag and its load of the other's are a store
 * buffering pair, which release/acquire does not order: both threads can
 * read the other's flag as 0 and enter together. seq_cst accesses (or a
 * seq_cst fence after the stores) make it a lock (peterson_seq_cst.c).
 * UNDER rc11 line 23: violated
 * UNDER sc line 23: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int flag[2], turn, inside;

void *enter(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    atomic_store_explicit(&flag[me], 1, memory_order_release);
    atomic_store_explicit(&turn, other, memory_order_release);
    while (atomic_load_explicit(&flag[other], memory_order_acquire)
           && atomic_load_explicit(&turn, memory_order_acquire) == other)
        ;
    int before = atomic_fetch_add_explicit(&inside, 1, memory_order_relaxed);
    assert(before == 0);
    atomic_fetch_sub_explicit(&inside, 1, memory_order_relaxed);
    atomic_store_explicit(&flag[me], 0, memory_order_release);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, enter, (void *)0);
    pthread_create(&b, 0, enter, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
