/* state_machine.c with a client that also stores 3, a state the watcher
 * does not expect: the value invariant then includes 3 and the violation
 * that a run from main has is found from the context too (an invariant of
 * the values stored may only ever remove values no run can give).
 *
 * FROM: 25 37
 * UNWIND: 2
 * EXPECT: full=violated -RD=violated -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>

int state;   /* IDLE */

void *client(void *arg) {
    (void)arg;
    state = 1;   /* BUSY */
    state = 2;   /* DONE */
    state = 3;   /* a state the watcher does not expect */
    return 0;
}

void *watcher(void *arg) {
    (void)arg;
    int s = state;
    assert(s >= 0 && s <= 2);
    if (s == 2)
        state = 0;   /* back to IDLE */
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, client, 0);
    pthread_create(&b, 0, watcher, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
