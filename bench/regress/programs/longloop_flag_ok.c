/* A worker adds 1 to sum 5000 times and raises done after the loop; a checker that sees done expects
 * the full sum. Invariant: done == 1 implies sum == 5000, since done is written once, after the last
 * addition, and nothing else writes sum.
 * STYLE: long-loop
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

#define N 5000

int sum = 0;
int done = 0;

void *worker(void *arg) {
    for (int i = 0; i < N; i++)
        sum = sum + 1;
    done = 1;
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
