/* The token bucket of cas_tokens.c taking its token with a check and a
 * separate decrement: two workers see the last token and both take it, so the bucket goes
 * negative.
 * VERDICT 16: violated
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int tokens;

void *worker(void *arg) {
    if (tokens > 0)
        __sync_fetch_and_sub(&tokens, 1);
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
