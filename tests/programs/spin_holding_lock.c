/* A thread spins on a flag while holding the lock that main needs before it
 * sets the flag: whenever the spinner takes the lock first, nobody can go
 * on. That is a livelock of the spinner, not a deadlock: the spinner never
 * blocks, it spins until the unwind bound stops it. The runs where main takes
 * the lock first reach the assertion, and it holds there.
 * VERDICT: bounded
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;
int seen;

void *spinner(void *arg) {
    pthread_mutex_lock(&m);
    while (!flag)
        ;
    seen = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, spinner, 0);
    pthread_mutex_lock(&m);
    flag = 1;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    assert(seen == 1);
    return 0;
}
