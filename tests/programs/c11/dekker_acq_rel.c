/* Dekker's lock with release stores and acquire loads. Each thread raises
 * its flag and then looks at the other's; if it is up and it is not this
 * thread's turn, it lowers its flag, waits for its turn and raises it
 * again. The raise-then-look is store buffering: release/acquire does not
 * forbid both threads seeing the other's flag down, so both enter.
 * UNDER rc11 line 27: violated
 * UNDER sc line 27: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int wants[2], turn, inside;

void *enter(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    atomic_store_explicit(&wants[me], 1, memory_order_release);
    while (atomic_load_explicit(&wants[other], memory_order_acquire)) {
        if (atomic_load_explicit(&turn, memory_order_acquire) != me) {
            atomic_store_explicit(&wants[me], 0, memory_order_release);
            while (atomic_load_explicit(&turn, memory_order_acquire) != me)
                ;
            atomic_store_explicit(&wants[me], 1, memory_order_release);
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
