/* malloc of a symbolic size, writes through the pointer, a use after free
 * and a double free on one branch each.
 * VERDICT: holds
 * FINDING: error 23 use after free
 * FINDING: error 25 double free
 */
#include <stdlib.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 2 || n > 4)
        return 0;
    int *a = malloc(n * sizeof(int));
    a[0] = 1;
    a[n - 1] = 9;
    assert(a[0] + a[n - 1] == 10);
    free(a);
    int mode = __VERIFIER_nondet_int();
    if (mode == 1)
        a[0] = 2;
    if (mode == 2)
        free(a);
    return 0;
}
