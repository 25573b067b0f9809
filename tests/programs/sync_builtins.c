/* VERDICT: violated
 * GCC's atomic read-modify-write builtins change memory: after adding one
 * to a zero counter it is no longer zero, whichever spelling did the adding.
 * Each addition sits on its own side of a nondeterministic choice, so both
 * assertions are reached and both fail. */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int a, b;

int main(void) {
    if (__VERIFIER_nondet_int()) {
        __sync_fetch_and_add(&a, 1);
        assert(a == 0);
    } else {
        __atomic_fetch_add(&b, 1, __ATOMIC_SEQ_CST);
        assert(b == 0);
    }
    return 0;
}
