/* A ticket dispenser with a fixed number of seats: each customer (one thread
 * each, started while main's input says so) draws the next ticket with a
 * compare-and-swap loop that stops at the capacity, so the count of tickets
 * issued never passes it and a ticket that was drawn names a seat.
 * VERDICT 24: holds
 * VERDICT 27: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define SEATS 4

extern int __VERIFIER_nondet_int(void);

atomic_int issued;
int seat_taken[SEATS];

void *customer(void *arg) {
    int t = atomic_load(&issued);
    while (t < SEATS && !atomic_compare_exchange_weak(&issued, &t, t + 1))
        ;
    if (t < SEATS) {
        assert(t >= 0);
        seat_taken[t] = 1;
    }
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
