/* A fresh _Bool (a nondet bool, or a body-less function returning _Bool)
 * holds 0 or 1 only, as every _Bool does.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <stdbool.h>

extern bool __VERIFIER_nondet_bool(void);
extern _Bool flag(void);

int main(void) {
    bool b = __VERIFIER_nondet_bool();
    _Bool c = flag();
    if (b)
        assert(b == 1);
    assert(c == 0 || c == 1);
    return 0;
}
