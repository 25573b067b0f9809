/* main starts a nondet number n <= 8 of workers that wait for a gate, opens it, and each worker
 * takes one of five slots if any is left. Invariant: admitted + slots == 5 and slots >= 0 after every
 * atomic section, so admitted never exceeds five whatever n is.
 * STYLE: gate
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int opened = 0;
int slots = 5;
int admitted = 0;

void *worker(void *arg) {
    __VERIFIER_assume(opened == 1);
    __VERIFIER_atomic_begin();
    if (slots > 0) {
        slots = slots - 1;
        admitted = admitted + 1;
    }
    if (admitted > 5) {
    ERROR:
        reach_error();
        abort();
    }
    __VERIFIER_atomic_end();
    return NULL;
}

int main(void) {
    pthread_t t[8];
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 8);
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    opened = 1;
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    return 0;
}
