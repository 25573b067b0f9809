/* Threads add small long double terms into a total under a lock, and the
 * same terms into a double total. x86-64's long double (x87's 80-bit format,
 * 64 bits of significand) keeps 1 + 2^-60 + 2^-60 exactly, in either order;
 * the double total loses both terms (each rounds back to 1.0). An input in
 * [1, 2) plus half its ulp rounds back to itself when its significand is even,
 * and the largest one below 2 up to 2.
 * VERDICT: holds
 * VERDICT 50: violated
 * VERDICT 51: violated
 * FINDING: none
 */
#include <assert.h>
#include <math.h>
#include <pthread.h>
extern long double __VERIFIER_nondet_long_double(void);
extern void __VERIFIER_assume(int);

long double total = 1.0L;
double dtotal = 1.0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *add(void *arg) {
    long double term = *(long double *)arg;
    pthread_mutex_lock(&lock);
    total += term;
    dtotal += (double)term;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(void) {
    long double terms[2] = {0x1p-60L, 1.0L / 1152921504606846976.0L};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, add, &terms[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(total == 1.0L + 0x1p-59L);
    assert(total > 1.0L && total - 1.0L == 2 * terms[0]);
    assert(sizeof total == 16 && (double)total == 1.0);
    assert(fabsl(-total) == total && sqrtl(total * total) == total);
    long double third = 1.0L / 3;
    assert(third != 1.0 / 3 && (double)third == 1.0 / 3);
    assert(third * 3 == 1.0L);
    assert(dtotal == 1.0);  /* in double, total > 1 would fail */
    long double x = __VERIFIER_nondet_long_double();
    __VERIFIER_assume(x >= 1.0L && x < 2.0L);
    long double y = x + 0x1p-64L;
    assert(y >= x);
    assert(y < 2.0L);
    assert(y != x);
    return 0;
}
