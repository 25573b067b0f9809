/* Two threads each increment c n times (n nondet in [1, 12]) by a separate load and store; lost
 * updates can leave c as low as 2, so c >= n fails for n >= 3 (schedule: A loads 0; B runs n - 1
 * increments; A stores 1; B loads 1; A finishes; B stores 2).
 * STYLE: symbolic-loop
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int n;
int c = 0;

void *inc(void *arg) {
    for (int i = 0; i < n; i++) {
        int tmp = c;
        c = tmp + 1;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 1 && n <= 12);
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(c >= n);
    return 0;
}
