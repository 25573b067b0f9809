/* Reference counting with a relaxed decrement: the last owner's acquire
 * fence has no release to pair with, so it is not ordered after the other
 * owner's write: its read of that part races with it (undefined in C) and
 * may miss it.
 * UNDER rc11 line 23: violated
 * UNDER sc line 23: holds
 * RACES rc11: 2
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

struct object {
    atomic_int refs;
    int part[2];
} obj = {2, {0, 0}};

void *owner(void *arg) {
    int me = (int)(long)arg;
    obj.part[me] = 1;
    if (atomic_fetch_sub_explicit(&obj.refs, 1, memory_order_relaxed) == 1) {
        atomic_thread_fence(memory_order_acquire);
        assert(obj.part[0] + obj.part[1] == 2);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, owner, (void *)0);
    pthread_create(&b, 0, owner, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
