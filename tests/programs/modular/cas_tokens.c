/* A lock-free token bucket: main may add a token before each worker with
 * a compare-and-swap loop that stops at a thousand, and any number of workers take one each with a compare-and-swap loop
 * that gives up when none is left, so the bucket never goes negative.
 * VERDICT 20: holds
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int tokens;

void *worker(void *arg) {
    int old;
    do {
        old = tokens;
        if (old <= 0)
            return 0;
    } while (!__sync_bool_compare_and_swap(&tokens, old, old - 1));
    assert(tokens >= 0);
    return 0;
}

int main(void) {
    while (__VERIFIER_nondet_int()) {
        int now;
        do {
            if (!__VERIFIER_nondet_int())
                break;
            now = tokens;
            if (now >= 1000)
                break;
        } while (!__sync_bool_compare_and_swap(&tokens, now, now + 1));
        pthread_t t;
        pthread_create(&t, 0, worker, 0);
    }
    return 0;
}
