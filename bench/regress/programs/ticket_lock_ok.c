/* A ticket lock built on C11 atomics: take a ticket with atomic_fetch_add, spin until serving
 * reaches it, hand on by storing ticket + 1; three threads enter twice each. Invariant: tickets are
 * distinct, and only the holder of ticket == serving is inside, so inside is 1 in the section and
 * total ends at 6.
 * STYLE: spin-lock
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>

atomic_int next_ticket = 0;
atomic_int serving = 0;
int inside = 0;
int total = 0;

void *worker(void *arg) {
    for (int k = 0; k < 2; k++) {
        int my = atomic_fetch_add(&next_ticket, 1);
        while (atomic_load(&serving) != my)
            ;
        inside = inside + 1;
        assert(inside == 1);
        inside = inside - 1;
        total = total + 1;
        atomic_store(&serving, my + 1);
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(total == 6);
    return 0;
}
