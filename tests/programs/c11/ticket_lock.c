/* A ticket lock: a relaxed fetch-and-add draws a ticket, an acquire load
 * spins until it is served, a release store serves the next. Three threads
 * increment a plain counter under it; no increment is lost and no access
 * races. The spin is an await, so this is a proof, not a bound.
 * UNDER rc11 line 30: holds
 * UNDER sc line 30: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_uint next_ticket, serving;
int counter;

void *worker(void *arg) {
    unsigned my = atomic_fetch_add_explicit(&next_ticket, 1, memory_order_relaxed);
    while (atomic_load_explicit(&serving, memory_order_acquire) != my)
        ;
    counter = counter + 1;
    atomic_store_explicit(&serving, my + 1, memory_order_release);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(counter == 3);
    return 0;
}
