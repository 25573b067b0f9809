/* Message passing as it should be: the flag is stored with release and
 * loaded with acquire, so a consumer that sees it sees the payload too.
 * UNDER rc11 line 20: holds
 * UNDER sc line 20: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int payload, flag;

void *producer(void *arg) {
    atomic_store_explicit(&payload, 42, memory_order_relaxed);
    atomic_store_explicit(&flag, 1, memory_order_release);
    return 0;
}

void *consumer(void *arg) {
    if (atomic_load_explicit(&flag, memory_order_acquire) == 1)
        assert(atomic_load_explicit(&payload, memory_order_relaxed) == 42);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
