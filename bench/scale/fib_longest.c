/* Two threads add i and j to each other eleven times each, in atomic
 * steps; the error call is reached only when every step alternates, far
 * into a depth-first search. (The shape of SV-COMP's fib_bench_longest.)
 * EXPECT: false
 * PROPERTY: unreach-call */
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void) {}
int i = 1, j = 1;
#define NUM 11
void *t1(void *arg) {
    for (int k = 0; k < NUM; k++) {
        __VERIFIER_atomic_begin();
        i = i + j;
        __VERIFIER_atomic_end();
    }
    return 0;
}
void *t2(void *arg) {
    for (int k = 0; k < NUM; k++) {
        __VERIFIER_atomic_begin();
        j = j + i;
        __VERIFIER_atomic_end();
    }
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    __VERIFIER_atomic_begin();
    int ci = i > 46368;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    int cj = j > 46368;
    __VERIFIER_atomic_end();
    if (ci || cj) {
        reach_error();
    }
    return 0;
}
