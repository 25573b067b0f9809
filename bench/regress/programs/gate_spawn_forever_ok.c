/* main counts each worker in spawned before creating it, forever; a worker takes a ticket, the
 * first three wait on a key nobody sets, and the rest check their ticket is below spawned.
 * Invariant: ticket <= spawned at every moment, since a worker takes one ticket and starts only
 * after main counted it, so me < spawned always.
 * STYLE: gate
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int spawned = 0;
int ticket = 0;
int key = 0;

void *worker(void *arg) {
    int me;
    __VERIFIER_atomic_begin();
    me = ticket;
    ticket = me + 1;
    __VERIFIER_atomic_end();
    if (me < 3)
        __VERIFIER_assume(key == 1);
    __VERIFIER_atomic_begin();
    if (me >= spawned) {
    ERROR:
        reach_error();
        abort();
    }
    __VERIFIER_atomic_end();
    return NULL;
}

int main(void) {
    pthread_t t;
    while (1) {
        __VERIFIER_atomic_begin();
        spawned = spawned + 1;
        __VERIFIER_atomic_end();
        pthread_create(&t, NULL, worker, NULL);
    }
    return 0;
}
