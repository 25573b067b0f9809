/* A worker adds 1 to sum 2000 times and raises done on its last iteration, but before that
 * iteration's addition; a checker that sees done expects the full sum (schedule: the worker runs
 * 1999 iterations, sets done in the 2000th, the checker reads done == 1 and sum == 1999).
 * STYLE: long-loop
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

#define N 2000

int sum = 0;
int done = 0;

void *worker(void *arg) {
    for (int i = 0; i < N; i++) {
        if (i == N - 1)
            done = 1;
        sum = sum + 1;
    }
    return 0;
}

void *checker(void *arg) {
    if (done)
        assert(sum == N);
    return 0;
}

int main(void) {
    pthread_t w, c;
    pthread_create(&w, 0, worker, 0);
    pthread_create(&c, 0, checker, 0);
    pthread_join(w, 0);
    pthread_join(c, 0);
    return 0;
}
