/* A connection's state moves between IDLE (0), BUSY (1) and DONE (2), set
 * by two threads without a lock; every write stores one of the three
 * constants, so whatever the interleaving the state is one of them. From
 * a context inside the watcher the state is not known, but it is one of
 * 0, 1, 2 (or it would have to be written by something else): the
 * assertion holds. A fresh value for it "fails" the assertion.
 *
 * FROM: 26 37
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

int state;   /* IDLE */

void *client(void *arg) {
    (void)arg;
    state = 1;   /* BUSY */
    state = 2;   /* DONE */
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
