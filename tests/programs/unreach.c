/* SV-COMP's unreach-call property: the first call of reach_error() is
 * reachable (x == 7), the second is not (x cannot be both).
 * VERDICT 18: violated
 * VERDICT 20: unreachable
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void abort(void);

void check(int x) {
    if (x < 0)
        abort();
}

int main(void) {
    int x = __VERIFIER_nondet_int();
    check(x);
    if (x == 7) reach_error();
    if (x < 0 && x > 0)
        reach_error();
    return 0;
}
