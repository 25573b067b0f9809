/* Producer and consumers on a condition variable, from a context where both
 * consumers are already waiting. The producer publishes a token computed
 * from `base` (set by main before any thread starts) and signals once per
 * consumer; each consumer, once woken, waits until the token is set and
 * checks it.
 *
 * From both consumers blocked in pthread_cond_wait (the same line twice:
 * two initial waiters, their order on the queue unknown, so a symbolic
 * timestamp each) and the producer at its lock: each signal wakes the
 * waiter that waited first, both find the token the producer wrote, and
 * `base` is main's 6: the assertion holds. With fresh symbols `base` is
 * anything.
 *
 * FROM: 28 28 36
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
pthread_cond_t ready;
int token, base;

void *consumer(void *unused) {
    pthread_mutex_lock(&m);
    while (token == 0)
        pthread_cond_wait(&ready, &m);              /* from here (1,2): two waiting consumers */
    int got = token;
    pthread_mutex_unlock(&m);
    assert(got == 7);
    return 0;
}

void *producer(void *unused) {
    pthread_mutex_lock(&m);                         /* from here (3): producer */
    token = base + 1;
    pthread_cond_signal(&ready);
    pthread_cond_signal(&ready);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t c1, c2, p;
    pthread_mutex_init(&m, 0);
    pthread_cond_init(&ready, 0);
    base = 6;
    pthread_create(&c1, 0, consumer, 0);
    pthread_create(&c2, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(c1, 0);
    pthread_join(c2, 0);
    pthread_join(p, 0);
    return 0;
}
