/* The verifier and libc functions distaff knows: assertions, reach_error,
 * assumptions, nondeterministic values of each type, heap, abort/exit,
 * KLEE's functions, and externals. */
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error() { abort(); }
int unknown(int);

int main(void) {
    int x = __VERIFIER_nondet_int();
    unsigned u = __VERIFIER_nondet_uint();
    char c = __VERIFIER_nondet_char();
    long l = __VERIFIER_nondet_long();
    _Bool b = __VERIFIER_nondet_bool();
    void *p = __VERIFIER_nondet_pointer();
    __VERIFIER_assume(x > 0);
    assume(u < 10);
    assert(x + u > 0);
    __VERIFIER_assert(c != 1);
    if (l == 3)
        reach_error();
    int *h = malloc(4 * sizeof(int));
    int *z = calloc(2, sizeof(int));
    memset(h, 0, 16);
    memcpy(z, h, 8);
    free(h);
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume(x != 2);
    x = unknown(x);
    if (b)
        abort();
    if (!p)
        exit(3);
    ((x > 0) ? (void) (0) : __assert_fail ("x > 0", "builtins.c", 37, __PRETTY_FUNCTION__));
    return 0;
}
