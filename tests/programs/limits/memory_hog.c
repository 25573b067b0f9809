/* A product of 3,000 unknowns' powers: the solver's translation of the
 * assertion to bits needs gigabytes, and z3 does not look at an interrupt
 * while it does that. With --max-memory the sub-check runs in a process of
 * its own that hits the limit: the assertion is undecided ("memory limit"). */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    unsigned y = x;
    for (int i = 0; i < 3000; i++)
        y = y * x + i;
    assert(y != 12345);
    return 0;
}
