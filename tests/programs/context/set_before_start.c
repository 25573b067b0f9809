/* main zeroes the counter and then starts two bumpers; each adds one
 * without a lock. From both bumpers before their read, the counter is 0 in
 * every run that gets here (main's write comes before the creations, and no
 * bumper has written yet), so a bumper sees at most 2 -- even though the
 * two increments race, and a check after both joins would fail.
 *
 * FROM: 19 19
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

int hits = 7;

void *bump(void *arg) {
    (void)arg;
    /* from here, in both threads */
    int h = hits;
    hits = h + 1;
    assert(hits <= 2);
    return 0;
}

int main(void) {
    pthread_t a, b;
    hits = 0;
    pthread_create(&a, 0, bump, 0);
    pthread_create(&b, 0, bump, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
