/* Two workers each add one to a shared count in `rounds` rounds (an input
 * from 1 to 10), reading and writing it in two steps. An update is lost
 * when one worker reads, the other runs a round, and the first writes back:
 * with three rounds the count can end at 2, below `rounds`. The bug needs
 * three iterations of both loops, so the deepening's passes at bounds 1 and
 * 2 explore runs cut by the bound before the pass at 4 finds it.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int rounds;
int count;

void *worker(void *arg) {
    for (int i = 0; i < rounds; i++) {
        int seen = count;
        count = seen + 1;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    rounds = __VERIFIER_nondet_int();
    __VERIFIER_assume(rounds >= 1 && rounds <= 10);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count >= rounds);
    return 0;
}
