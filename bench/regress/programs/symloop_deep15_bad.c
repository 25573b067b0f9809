/* Two threads each run a loop n times (n nondet, 0 < n < 20), one adding 2 and one adding 1 to sum
 * in atomic steps; after the joins sum == 3 * n, and the check sum != 45 fails only for n == 15
 * (any schedule with n == 15).
 * STYLE: symbolic-loop
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

int n;
int sum = 0;

void *twos(void *arg) {
    for (int i = 0; i < n; i++) {
        __VERIFIER_atomic_begin();
        sum = sum + 2;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

void *ones(void *arg) {
    for (int i = 0; i < n; i++) {
        __VERIFIER_atomic_begin();
        sum = sum + 1;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n > 0 && n < 20);
    pthread_create(&a, NULL, twos, NULL);
    pthread_create(&b, NULL, ones, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (sum == 45) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
