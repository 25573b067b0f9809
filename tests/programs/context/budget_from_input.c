/* main sets a budget from its input and starts two workers that each spend
 * one unit, once. Whatever the order, and even with a spend lost, the budget
 * ends at most 2 below what main set. From main waiting for the second
 * worker, which has already spent, the budget is unknown but at least
 * 10 + n - 2: relative to main's input, not a constant.
 *
 * FROM: 32 21
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int budget;

void *worker(void *arg) {
    budget--;
    return arg;
}

int main(void) {
    pthread_t a, b;
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= n && n <= 5);
    budget = 10 + n;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(budget >= n + 8);
    return 0;
}
