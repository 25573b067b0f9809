/* A writer updates two relaxed fields under a write lock; a reader reads
 * them under a read lock. The write unlock happens before the later read
 * lock, so the reader sees both fields or neither.
 * UNDER rc11 line 27: holds
 * UNDER sc line 27: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

pthread_rwlock_t guard = PTHREAD_RWLOCK_INITIALIZER;
atomic_int low, high;

void *writer(void *arg) {
    pthread_rwlock_wrlock(&guard);
    atomic_store_explicit(&low, 1, memory_order_relaxed);
    atomic_store_explicit(&high, 1, memory_order_relaxed);
    pthread_rwlock_unlock(&guard);
    return 0;
}

void *reader(void *arg) {
    pthread_rwlock_rdlock(&guard);
    int h = atomic_load_explicit(&high, memory_order_relaxed);
    int l = atomic_load_explicit(&low, memory_order_relaxed);
    pthread_rwlock_unlock(&guard);
    assert(h == l);
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
