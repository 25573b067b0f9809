/* Threads add partial integrals (midpoint rule, doubles) into a total under a
 * lock. Every order of the two additions gives the same total: floating
 * addition of two numbers commutes, and 0.0 + a + b == 0.0 + b + a holds for
 * any two finite partials (each sum rounds once from the same exact value).
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <math.h>
#include <pthread.h>

#define STEPS 4

double total = 0.0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct range { double from, to; double part; };

static double f(double x) { return x * x; }

void *integrate(void *arg) {
    struct range *r = arg;
    double h = (r->to - r->from) / STEPS, sum = 0.0;
    for (int i = 0; i < STEPS; i++)
        sum += f(r->from + (i + 0.5) * h) * h;
    r->part = sum;
    pthread_mutex_lock(&lock);
    total += sum;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(void) {
    struct range r[2] = {{0.0, 0.5, 0.0}, {0.5, 1.0, 0.0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, integrate, &r[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(total == r[0].part + r[1].part);
    assert(fabs(total - 1.0 / 3) < 1e-2);   /* the integral of x*x over [0, 1] */
    assert(!isnan(total) && total > 0.0);
    return 0;
}
