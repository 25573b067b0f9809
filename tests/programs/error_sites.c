/* Three error sites in the verification benchmarks' style. Two workers
 * increment a counter without a lock, so the first check after the joins
 * fails (a lost update); no run reaches the other two sites. The workers'
 * loops run over a global, so the unwind bound counts their iterations, but
 * three stay within it: nothing is cut and the two sites are unreachable.
 * VERDICT 32: violated
 * VERDICT 34: unreachable
 * VERDICT 37: unreachable
 */
#include <pthread.h>

extern void abort(void);
void reach_error(void) { abort(); }

int rounds = 3;
int counter;
int started;

void *worker(void *arg) {
    started = 1;
    for (int i = 0; i < rounds; i++)
        counter = counter + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    if (counter != 2 * rounds) reach_error();
    if (counter > 2 * rounds) {
        reach_error();
    }
    if (!started) {
        reach_error();
        abort();
    }
    return 0;
}
