/* A program that misbehaves only with more arguments than --sym-args allows
 * (two by default): argc is read as a number, so the exploration under every
 * command line has argc up to INT_MAX and finds the failure with six, which
 * the bounded model alone cannot; that command line, checked again by the
 * bounded model, fails, and the counterexample has argc = 6.
 * VERDICT: violated
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>

int workers;

void *work(void *arg) {
    assert(workers <= 4);
    return 0;
}

int main(int argc, char **argv) {
    workers = argc - 1;
    pthread_t t;
    pthread_create(&t, 0, work, 0);
    pthread_join(t, 0);
    return 0;
}
