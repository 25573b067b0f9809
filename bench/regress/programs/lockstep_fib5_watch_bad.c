/* Two threads take five atomic turns each at a += b and b += a (from a = 1, b = 3) while main
 * snapshots both once without joining; the check b <= 321 is one too tight (schedule: the ten
 * steps strictly alternate starting with left, then main snapshots b == 322).
 * STYLE: lockstep-atomic
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

#define ROUNDS 5
int a = 1, b = 3;

void *left(void *arg) {
    int k;
    for (k = 0; k < ROUNDS; k++) {
        __VERIFIER_atomic_begin();
        a += b;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

void *right(void *arg) {
    int k;
    for (k = 0; k < ROUNDS; k++) {
        __VERIFIER_atomic_begin();
        b += a;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

int main(void) {
    pthread_t l, r;
    int sa, sb;
    pthread_create(&l, NULL, left, NULL);
    pthread_create(&r, NULL, right, NULL);
    __VERIFIER_atomic_begin();
    sa = a;
    sb = b;
    __VERIFIER_atomic_end();
    if (sa > 287 || sb > 321) {
    ERROR:
        reach_error();
    }
    return 0;
}
