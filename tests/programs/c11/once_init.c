/* Lazy initialisation with pthread_once: whichever thread calls it first
 * runs init, and every later caller returns after init has, so both see
 * the table initialised, though init's stores are relaxed.
 * UNDER rc11 line 20: holds
 * UNDER sc line 20: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
atomic_int table_size;

void init(void) {
    atomic_store_explicit(&table_size, 64, memory_order_relaxed);
}

void *user(void *arg) {
    pthread_once(&once, init);
    assert(atomic_load_explicit(&table_size, memory_order_relaxed) == 64);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, user, 0);
    pthread_create(&b, 0, user, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
