/* atomic_helpers.c with a take that is not atomic: two clients both see one
 * resource left and both take it, and the count in use passes the limit.
 * VERDICT 26: violated
 */
#include <pthread.h>
#include <assert.h>

#define MAX 1

extern int __VERIFIER_nondet_int(void);

int in_use;

void take(int *got) {
    if (in_use < MAX) {
        in_use = in_use + 1;
        *got = 1;
    } else {
        *got = 0;
    }
}

void *client(void *arg) {
    int got;
    take(&got);
    assert(in_use <= MAX);
    return 0;
}

int main(void) {
    while (__VERIFIER_nondet_int()) {
        pthread_t t;
        pthread_create(&t, 0, client, 0);
    }
    return 0;
}
