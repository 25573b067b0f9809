/* What IEEE 754 arithmetic gives, as C computes it with its default rounding:
 * sums that are not associative, a float that is not the double it was
 * written as, NaN unequal to itself, infinities, signed zeros, conversions
 * that truncate, and an input that makes x + 1.0 == x.
 * VERDICT: holds
 * VERDICT 42: violated
 * VERDICT 45: violated
 */
#include <assert.h>
#include <float.h>
#include <math.h>
extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);

int main(void) {
    double a = 0.1, b = 0.2, c = 0.3;
    assert((a + b) + c != a + (b + c));
    assert(a + b != c);
    float f = 0.1f;
    assert(f != 0.1 && (double)f > 0.1);
    assert(f == 0.1f);
    double z = 0.0, nz = -0.0;
    assert(z == nz && signbit(nz) && !signbit(z));
    assert(1 / nz < 0);
    double inf = 1.0 / z;
    assert(isinf(inf) && inf > DBL_MAX);
    double nan = inf - inf;
    assert(isnan(nan) && nan != nan && !(nan < 1.0) && !(nan >= 1.0));
    assert((int)2.9 == 2 && (int)-2.9 == -2);
    assert((unsigned)3.99f == 3u);
    assert(floor(-2.5) == -3.0 && ceil(-2.5) == -2.0 && round(-2.5) == -3.0 && trunc(-2.5) == -2.0);
    assert(sqrt(16.0) == 4.0 && fabs(-3.5) == 3.5 && fmin(1.0, nan) == 1.0);
    assert(0x1.8p1 == 3.0 && 1e-320 > 0.0 && FLT_EPSILON == 0x1p-23f);
    assert((float)16777217 == 16777216.0f);   /* 2^24 + 1 rounds to even */
    double big = 9007199254740993.0;          /* 2^53 + 1: not a double */
    assert(big == 9007199254740992.0);

    double x = __VERIFIER_nondet_double();
    __VERIFIER_assume(x >= 1.0 && x <= 1e300);
    assert(x * 2 > x);                        /* holds: no rounding makes it false */
    assert(x + 1.0 != x);                     /* fails from x = 2^53 on */

    float g = __VERIFIER_nondet_float();
    assert(g == g);                           /* fails: g may be a NaN */
    return 0;
}
