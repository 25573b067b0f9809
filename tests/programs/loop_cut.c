/* A loop with a symbolic trip count: runs beyond the unwind bound are cut, so
 * the assertion holds only within the bound.
 * VERDICT: bounded
 * RUNS: baseline=10
 */
#include <assert.h>

extern unsigned __VERIFIER_nondet_uint(void);

int main(void) {
    unsigned n = __VERIFIER_nondet_uint();
    unsigned count = 0;
    for (unsigned i = 0; i < n; i++)
        count = count + 1;
    assert(count == n);
    return 0;
}
