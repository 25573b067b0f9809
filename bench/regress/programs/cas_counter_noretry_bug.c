/* Three threads each add 1 to a shared counter twice with a single compare-and-swap and no retry:
 * a CAS that fails because another thread got in first drops that increment (schedule: t0 and t1
 * read 0, t1's CAS succeeds, t0's fails), so c ends below 6.
 * STYLE: lock-free
 * EXPECT: false
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
        int old = c;
        __sync_bool_compare_and_swap(&c, old, old + 1);
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
