/* main spawns workers forever; each takes a ticket, and the first three then wait on a key that
 * nobody ever sets, but the fourth worker gets past and reaches the error (schedule: main creates
 * four workers, they take tickets 0..3 in order, worker 3 runs on).
 * STYLE: gate
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

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
    if (me == 3) {
    ERROR:
        reach_error();
        abort();
    }
    return NULL;
}

int main(void) {
    pthread_t t;
    while (1) {
        pthread_create(&t, NULL, worker, NULL);
    }
    return 0;
}
