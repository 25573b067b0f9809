/* Two writes racing two reads (the assertion-guided paper's Figure 2, our
 * own text). t1 writes 10 then 20; t2 reads twice and the second read can
 * never see an older value than the first. With x > 10 main returns at once.
 * VERDICT: holds
 * RUNS: baseline=20
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int shared;

void *writer(void *arg) {
    shared = 10;
    shared = 20;
    return 0;
}

void *reader(void *arg) {
    int first = shared;
    int second = shared;
    assert(first <= second);
    return 0;
}

int main(void) {
    pthread_t w, r;
    shared = __VERIFIER_nondet_int();
    if (shared > 10)
        return 0;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
