/* main joins the publisher, then reads what it published. From main at
 * that join, with the publisher yet to publish and the logger about to
 * return, the handle main joins is the publisher's (main copied it from
 * `pub` earlier): the join waits for the publisher, not for whichever
 * thread ends first.
 *
 * FROM: 34 18 24
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

int published = 0;
int logged = 0;

void *publisher(void *arg) {
    published = 1;
    return arg;
}

void *logger(void *arg) {
    logged = 1;
    return arg;
}

int main(void) {
    pthread_t pub, log;
    pthread_create(&pub, 0, publisher, 0);
    pthread_create(&log, 0, logger, 0);
    pthread_t first = pub;
    int seen = logged;
    (void)seen;
    pthread_join(first, 0);
    assert(published == 1);
    pthread_join(log, 0);
    return 0;
}
