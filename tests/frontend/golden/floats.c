/* Floating point: constants are bit patterns of their type (printed as C
 * writes them), the usual arithmetic conversions are casts, <math.h>'s exact
 * functions are operators, comparisons give int. */
#include <math.h>
float scale = 0.5f;
double limits[3] = {DBL_MAX, -0.0, 0x1.8p3};

double mix(int n, float f) {
    double d = n * f + 1e-3;
    d = fmax(d, sqrt(2.0));
    if (d < scale || isnan(d))
        d = -d;
    return floor(d) / 3;
}

int truncate(double d) {
    return (int)d + (d != 0.1f);
}
