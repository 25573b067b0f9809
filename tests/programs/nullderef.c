/* A pointer is null on one branch and dereferenced after it.
 * FINDING: error 12 null pointer dereference
 */
extern int __VERIFIER_nondet_int(void);

int target;

int main(void) {
    int *p = 0;
    if (__VERIFIER_nondet_int())
        p = &target;
    *p = 5;
    return 0;
}
