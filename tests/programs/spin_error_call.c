/* The verification benchmarks' error-call idiom behind a spin loop: main
 * spins until the setter has published its data. Runs in which the setter is
 * never scheduled spin past the bound and are cut; every other run finds the
 * data. No run reaches reach_error, so its property holds within the bound.
 * VERDICT: bounded
 * FINDING: none
 */
#include <pthread.h>

extern void abort(void);
void reach_error(void) { abort(); }

int flag, data;

void *setter(void *arg) {
    data = 42;
    flag = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    while (!flag) {
    }
    if (!(data == 42)) {
        reach_error();
        abort();
    }
    pthread_join(t, 0);
    return 0;
}
