/* Two threads add their sample into a shared float sum without a lock; main
 * then takes the mean. A lost update (both read 0.0f) breaks the mean, for
 * every sample the first thread may bring.
 * VERDICT: violated
 */
#include <assert.h>
#include <pthread.h>
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);

float sum = 0.0f;

void *add(void *arg) {
    float v = *(float *)arg;
    float s = sum;
    sum = s + v;
    return 0;
}

int main(void) {
    pthread_t a, b;
    float x = __VERIFIER_nondet_float(), y = 2.5f;
    __VERIFIER_assume(x >= 1.0f && x <= 4.0f);
    pthread_create(&a, 0, add, &x);
    pthread_create(&b, 0, add, &y);
    pthread_join(a, 0);
    pthread_join(b, 0);
    float mean = sum / 2;
    assert(mean == (x + y) / 2);
    return 0;
}
