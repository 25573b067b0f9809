/* A thread raises a shared level in two steps while another samples it twice.
 *
 * The start level is an input; main stops early when it is above 10. Below
 * that, the level only ever goes up (start, then 10, then 20), so whatever
 * the interleaving of the two writes and the two reads, the second sample is
 * never below the first. Many interleavings reach different states, but none
 * breaks the assertion: a good case for assertion-guided pruning.
 *
 * distaff reports: the assertion in `sample` holds for all interleavings
 * (a note with the run counts). Exit status 0.
 *
 * VERDICT: holds
 * EXIT: 0
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int level;

void *raise_level(void *arg) {
    level = 10;
    level = 20;
    return 0;
}

void *sample(void *arg) {
    int before = level;
    int after = level;
    assert(before <= after);
    return 0;
}

int main(void) {
    pthread_t raiser, sampler;
    level = __VERIFIER_nondet_int();
    if (level > 10)
        return 0;
    pthread_create(&raiser, 0, raise_level, 0);
    pthread_create(&sampler, 0, sample, 0);
    pthread_join(raiser, 0);
    pthread_join(sampler, 0);
    return 0;
}
