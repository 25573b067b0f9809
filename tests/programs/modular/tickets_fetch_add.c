/* Customers, one thread each for as long as they come, draw tickets with
 * atomic_fetch_add and are sent to window ticket % WINDOWS, which they mark
 * busy: the window index stays inside the board and a board entry only ever
 * holds 0 or 1, however many tickets are drawn (the ticket counter may wrap).
 * VERDICT 22: holds
 * VERDICT 24: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define WINDOWS 2

extern int __VERIFIER_nondet_int(void);

atomic_uint next_ticket;
int board[WINDOWS];

void *customer(void *arg) {
    unsigned t = atomic_fetch_add(&next_ticket, 1u);
    unsigned w = t % WINDOWS;
    assert(w < WINDOWS);
    board[w] = 1;
    assert(board[w] >= 0 && board[w] <= 1);
    return 0;
}

int main(void) {
    while (__VERIFIER_nondet_int()) {
        pthread_t t;
        pthread_create(&t, 0, customer, 0);
    }
    return 0;
}
