/* VERDICT: holds
 * The middle of three symbolic values, with one assertion on each way out.
 * A check guided by one assertion needs only the paths that reach it. */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int middle(int a, int b, int c) {
    if (b < c) {
        if (a < b) {
            assert(a <= b && b <= c);
            return b;
        }
        if (a < c) {
            assert(b <= a && a <= c);
            return a;
        }
    } else {
        if (a > b) {
            assert(c <= b && b <= a);
            return b;
        }
        if (a > c) {
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
    middle(a, b, c);
    return 0;
}
