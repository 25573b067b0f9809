/* main starts a nondet number n <= 8 of workers that wait for a gate, opens it, and each worker
 * counts itself through; the check that at most five get through fails when n >= 6 (schedule:
 * n == 6, all six pass the gate and the sixth counts through == 6).
 * STYLE: gate
 * EXPECT: false
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
int through = 0;

void *worker(void *arg) {
    __VERIFIER_assume(opened == 1);
    __VERIFIER_atomic_begin();
    through = through + 1;
    if (through > 5) {
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
