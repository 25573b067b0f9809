/* Conversions a C programmer meets: compound assignment of a double to an
 * int, ++ on a double, ?: of an int and a double (the double type wins),
 * aggregates of floats with zeroed rest, pointers to doubles, a 64-bit
 * unsigned rounded to a double, struct fields of both widths.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int i = 3;
    i += 0.5;
    assert(i == 3);
    i *= 1.5;
    assert(i == 4);
    double d = 1;
    d++;
    ++d;
    d -= 0.25;
    assert(d == 2.75);
    int c = __VERIFIER_nondet_int();
    double e = c ? 1 : 0.5;
    assert(e == 1.0 || e == 0.5);
    float arr[3] = {1.5f, 2};
    assert(arr[1] == 2.0f && arr[2] == 0.0f);
    double *p = &d;
    *p = *p * 2;
    assert(d == 5.5);
    unsigned long big = 18446744073709551615UL;
    double bd = big;
    assert(bd == 18446744073709551616.0);
    assert((long)-0.9 == 0);
    struct { float f; double g; } s = {.g = 2.0};
    s.f = s.g / 3;
    assert(s.f == (float)(2.0 / 3));
    return 0;
}
