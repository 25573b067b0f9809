/* An array indexed by a symbolic value checked against the wrong bound:
 * index 4 is past the end. The assertion holds on every in-bounds path.
 * VERDICT: holds
 * FINDING: error 15 out-of-bounds access to table
 */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int table[4] = {1, 2, 3, 4};

int main(void) {
    int i = __VERIFIER_nondet_int();
    if (i >= 0 && i <= 4) {
        int v = table[i];
        assert(v == i + 1);
    }
    return 0;
}
