/* Three threads rotate additions over x, y, z (x += y, y += z, z += x), three atomic rounds each
 * from 1, 1, 1; main claims z ends below 50 (schedule: the nine steps run in the order y, x, z, y,
 * y, x, x, z, z and z ends at 50).
 * STYLE: lockstep-atomic
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int x = 1, y = 1, z = 1;

void *tx(void *arg) {
    for (int r = 0; r < 3; r++) {
        __VERIFIER_atomic_begin();
        x = x + y;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

void *ty(void *arg) {
    for (int r = 0; r < 3; r++) {
        __VERIFIER_atomic_begin();
        y = y + z;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

void *tz(void *arg) {
    for (int r = 0; r < 3; r++) {
        __VERIFIER_atomic_begin();
        z = z + x;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

int main(void) {
    pthread_t t[3];
    pthread_create(&t[0], NULL, tx, NULL);
    pthread_create(&t[1], NULL, ty, NULL);
    pthread_create(&t[2], NULL, tz, NULL);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    pthread_join(t[2], NULL);
    if (z > 49) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
