/* A query no solver answers quickly: factor a product of three 21-bit primes.
 * The tests use it to check that a time budget or a cancel interrupts a long
 * solver call (the verdict itself would be "holds").
 */
#include <assert.h>

extern unsigned long __VERIFIER_nondet_ulong(void);

int main(void) {
    unsigned long a = __VERIFIER_nondet_ulong();
    unsigned long b = __VERIFIER_nondet_ulong();
    unsigned long c = __VERIFIER_nondet_ulong();
    if (a > 1 && b > 1 && c > 1 && a < 4194304UL && b < 4194304UL && c < 4194304UL
        && a * b * c == 9223156534167466489UL)
        assert(a == 2097143UL || b == 2097143UL || c == 2097143UL);
    return 0;
}
