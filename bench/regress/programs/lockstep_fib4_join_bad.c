/* Two threads grow a and b Fibonacci-style in atomic steps (a += b, b += a), four rounds each from
 * a = 1, b = 2; main joins both and claims a stays below 79, an off-by-one bound (schedule: the
 * steps run in the order a, b, a, b, b, a, b, a and a ends at 79).
 * STYLE: lockstep-atomic
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int a = 1, b = 2;

void *grow_a(void *arg) {
    for (int k = 0; k < 4; k++) {
        __VERIFIER_atomic_begin();
        a = a + b;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

void *grow_b(void *arg) {
    for (int k = 0; k < 4; k++) {
        __VERIFIER_atomic_begin();
        b = b + a;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

int main(void) {
    pthread_t ta, tb;
    pthread_create(&ta, NULL, grow_a, NULL);
    pthread_create(&tb, NULL, grow_b, NULL);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    if (a > 78 || b > 89) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
