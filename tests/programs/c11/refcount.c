/* Reference counting as C11 code does it: each owner writes its part of
 * the object, then drops its reference with a release decrement; the one
 * that drops the last reference issues an acquire fence and then reads the
 * whole object, seeing every owner's writes.
 * UNDER rc11 line 22: holds
 * UNDER sc line 22: holds
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
    if (atomic_fetch_sub_explicit(&obj.refs, 1, memory_order_release) == 1) {
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
