/* A pool of at most MAX resources handed out by SV-COMP-style atomic
 * functions to threads started without end: a take succeeds only below the
 * limit and a give only above zero, so the count in use stays in 0..MAX
 * whatever the number of threads.
 * VERDICT 32: holds
 * VERDICT 33: holds
 */
#include <pthread.h>
#include <assert.h>

#define MAX 3

int in_use;

void __VERIFIER_atomic_take(int *got) {
    if (in_use < MAX) {
        in_use = in_use + 1;
        *got = 1;
    } else {
        *got = 0;
    }
}

void __VERIFIER_atomic_give(void) {
    if (in_use > 0)
        in_use = in_use - 1;
}

void *client(void *arg) {
    int got;
    __VERIFIER_atomic_take(&got);
    assert(in_use <= MAX);
    assert(in_use >= 0);
    if (got)
        __VERIFIER_atomic_give();
    return 0;
}

int main(void) {
    while (1) {
        pthread_t t;
        pthread_create(&t, 0, client, 0);
    }
    return 0;
}
