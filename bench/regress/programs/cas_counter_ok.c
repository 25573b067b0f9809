/* Three threads each add 1 to a shared counter twice with a compare-and-swap retry loop; main joins
 * them and checks the total. Invariant: a CAS succeeds only when c still holds the value it was
 * computed from, so each successful CAS adds exactly one and each increment retries until it succeeds.
 * STYLE: lock-free
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
void __VERIFIER_assert(int cond) {
    if (!cond) {
    ERROR:
        reach_error();
        abort();
    }
}

int c = 0;

void *adder(void *arg) {
    for (int k = 0; k < 2; k++) {
        int old;
        do {
            old = c;
        } while (!__sync_bool_compare_and_swap(&c, old, old + 1));
    }
    return NULL;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, adder, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    __VERIFIER_assert(c == 6);
    return 0;
}
