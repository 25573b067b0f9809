/* Peterson's lock with seq_cst accesses: the flags and the turn are in one
 * total order with every thread's accesses to them, so at most one thread
 * reads the other's flag as 0 before the other has stored it: mutual
 * exclusion holds under C11 as under sequential consistency (the
 * critical section's counter is relaxed: the lock alone orders it).
 * UNDER rc11 line 23: holds
 * UNDER sc line 23: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int flag[2], turn, inside;

void *enter(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    atomic_store_explicit(&flag[me], 1, memory_order_seq_cst);
    atomic_store_explicit(&turn, other, memory_order_seq_cst);
    while (atomic_load_explicit(&flag[other], memory_order_seq_cst)
           && atomic_load_explicit(&turn, memory_order_seq_cst) == other)
        ;
    int before = atomic_fetch_add_explicit(&inside, 1, memory_order_relaxed);
    assert(before == 0);
    atomic_fetch_sub_explicit(&inside, 1, memory_order_relaxed);
    atomic_store_explicit(&flag[me], 0, memory_order_seq_cst);
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
