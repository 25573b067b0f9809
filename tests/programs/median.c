/* Median of three symbolic values with an assertion on every return path
 * (the parallel-property-checking paper's Figure 1, our own text). Each
 * assertion is its own sub-check.
 * VERDICT: holds
 * RUNS: baseline=6
 */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int mid(int a, int b, int c) {
    if (b < c) {
        if (a < b) {
            assert(a <= b && b <= c);
            return b;
        } else if (a < c) {
            assert(b <= a && a <= c);
            return a;
        }
    } else {
        if (a > b) {
            assert(c <= b && b <= a);
            return b;
        } else if (a > c) {
            assert(c <= a && a <= b);
            return a;
        }
    }
    assert((a <= c && c <= b) || (b <= c && c <= a));
    return c;
}

int main(void) {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    int c = __VERIFIER_nondet_int();
    mid(a, b, c);
    return 0;
}
