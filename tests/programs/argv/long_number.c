/* A limit read with strtol that only a long argument breaks: thirteen digits
 * are more than the default --sym-arg-len of 8 bytes spells, so the bounded
 * model alone finds no violation. The exploration under every command line
 * finds one (a value of 10^12 or more), and the command line that run stands
 * for, checked again by the bounded model, fails: the counterexample is a
 * real command line (argv[1] = "1000000000000" or the like).
 * VERDICT: violated
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

long limit;

void *check(void *arg) {
    assert(limit < 1000000000000L);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2)
        return 1;
    limit = strtol(argv[1], 0, 10);
    pthread_t t;
    pthread_create(&t, 0, check, 0);
    pthread_join(t, 0);
    return 0;
}
