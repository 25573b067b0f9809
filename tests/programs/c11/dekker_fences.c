/* Dekker's lock with a seq_cst fence after each raise of a flag (the
 * accesses stay release/acquire): the fence orders the raise before the
 * look at the other's flag in the one order of seq_cst fences, so the two
 * threads cannot both see the other's flag down. Mutual exclusion holds.
 * UNDER rc11 line 28: holds
 * UNDER sc line 28: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int wants[2], turn, inside;

void *enter(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    atomic_store_explicit(&wants[me], 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    while (atomic_load_explicit(&wants[other], memory_order_acquire)) {
        if (atomic_load_explicit(&turn, memory_order_acquire) != me) {
            atomic_store_explicit(&wants[me], 0, memory_order_release);
            while (atomic_load_explicit(&turn, memory_order_acquire) != me)
                ;
            atomic_store_explicit(&wants[me], 1, memory_order_release);
            atomic_thread_fence(memory_order_seq_cst);
        }
    }
    int before = atomic_fetch_add_explicit(&inside, 1, memory_order_relaxed);
    assert(before == 0);
    atomic_fetch_sub_explicit(&inside, 1, memory_order_relaxed);
    atomic_store_explicit(&turn, other, memory_order_release);
    atomic_store_explicit(&wants[me], 0, memory_order_release);
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
