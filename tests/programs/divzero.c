/* A division by a symbolic divisor: zero is possible, and reported; on the
 * other paths the quotient times the divisor is within the dividend's range.
 * VERDICT: holds
 * FINDING: error 13 division by zero
 * RUNS: baseline=1
 */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int d = __VERIFIER_nondet_int();
    int q = 100 / d;
    assert(q <= 100 && q >= -100);
    return 0;
}
