/* A ticket lock: take a ticket with an atomic fetch-and-increment, wait
 * until it is served, and serve the next ticket when leaving.
 * EXPECT: holds
 * THREADS: 3
 * UNWIND: 4 (busy-waiting loops)
 */
#include <pthread.h>
#include <assert.h>

int next_ticket, serving;
int inside;

int __VERIFIER_atomic_take(void) {
    int t = next_ticket;
    next_ticket = t + 1;
    return t;
}

void *customer(void *arg) {
    int mine = __VERIFIER_atomic_take();
    while (serving != mine) {
    }
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
    serving = serving + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, customer, 0);
    pthread_create(&b, 0, customer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
