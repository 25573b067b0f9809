/* Loops that are not constant keep their bound: a trip count read from an
 * input, and one read on every round from a global another thread may raise.
 * Past --unwind 2 their runs are cut, so the assertions hold only within the
 * bound.
 * UNWIND: 2
 * VERDICT: bounded
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int limit = 2;

void *raise_limit(void *arg) {
    limit = 30;
    return 0;
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    int s = 0;
    if (n < 0 || n > 100)
        return 0;
    for (int i = 0; i < n; i++)
        s++;
    assert(s == n);
    pthread_t t;
    pthread_create(&t, 0, raise_limit, 0);
    int c = 0;
    for (int i = 0; i < limit; i++)
        c++;
    pthread_join(t, 0);
    assert(c == 2 || c == 30);
    return 0;
}
