/* A check-then-act inside an atomic region cannot be interrupted, so the
 * counter never exceeds its limit.
 * VERDICT: holds
 * RUNS: baseline=5
 */
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int tokens;

void *take(void *arg) {
    __VERIFIER_atomic_begin();
    if (tokens < 1)
        tokens = tokens + 1;
    __VERIFIER_atomic_end();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, take, 0);
    pthread_create(&b, 0, take, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(tokens == 1);
    return 0;
}
