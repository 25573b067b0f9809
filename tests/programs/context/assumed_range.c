/* A worker scales a job size that main read and checked before starting
 * it. The check is an assumption (as a harness states its preconditions):
 * every run that reaches the worker has 1 <= jobs <= 8, so the product
 * fits and the assertion holds. The context gets `jobs` as the symbol of
 * main's input; without the assumption on it, `jobs * 4` "can overflow"
 * and `size <= 32` "can fail".
 *
 * FROM: 23 35
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int jobs;
int size;

void *worker(void *arg) {
    (void)arg;
    int s = jobs * 4;
    size = s;
    assert(size <= 32);
    return 0;
}

int main(void) {
    pthread_t t;
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(1 <= n && n <= 8);
    jobs = n;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
