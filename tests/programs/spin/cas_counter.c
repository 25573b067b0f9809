/* Two threads each add 1 to a counter twice with a compare-and-swap retry
 * loop. A round whose swap failed changed nothing but what it read: DPOR
 * leaves it out of the run (ghost rounds), and no bound is needed.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

int c;

void *adder(void *arg) {
    for (int k = 0; k < 2; k++) {
        int old;
        do {
            old = c;
        } while (!__sync_bool_compare_and_swap(&c, old, old + 1));
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, adder, 0);
    pthread_create(&b, 0, adder, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(c == 4);
    return 0;
}
