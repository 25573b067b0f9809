/* tickets_fetch_add.c sending customers to ticket % (WINDOWS + 1): the third
 * ticket names a window past the board.
 * VERDICT 19: violated
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
    unsigned w = t % (WINDOWS + 1);
    assert(w < WINDOWS);
    return 0;
}

int main(void) {
    while (__VERIFIER_nondet_int()) {
        pthread_t t;
        pthread_create(&t, 0, customer, 0);
    }
    return 0;
}
