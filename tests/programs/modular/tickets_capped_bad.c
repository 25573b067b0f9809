/* The dispenser of tickets_capped.c with the capacity checked before an
 * increment that does not re-check it: two customers both see one seat left
 * and both take a ticket.
 * VERDICT 19: violated
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define SEATS 1

extern int __VERIFIER_nondet_int(void);

atomic_int issued;

void *customer(void *arg) {
    if (atomic_load(&issued) < SEATS)
        atomic_fetch_add(&issued, 1);
    assert(atomic_load(&issued) <= SEATS);
    return 0;
}

int main(void) {
    while (__VERIFIER_nondet_int()) {
        pthread_t t;
        pthread_create(&t, 0, customer, 0);
    }
    return 0;
}
