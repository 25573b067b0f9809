/* A program that misbehaves only with more arguments than --sym-args allows
 * (two by default): argc is read as a number, so the exploration under every
 * command line has argc up to INT_MAX and finds the failure with six, which
 * the bounded exploration cannot; it proves nothing, and the answer stays
 * "no violation within the argument bound" (--sym-args 5 finds it).
 * VERDICT: bounded
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
