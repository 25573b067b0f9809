/* Two workers of one routine, each created by its own pthread_create with
 * its own id. main joins the first and then checks that it finished its
 * part. From main at that join, with both workers before their write (the
 * same line twice: two instances), the handle main copied is the one the
 * first creation wrote, so it names the worker whose id is 0, whichever
 * of the two instances that is; the join waits for that one.
 *
 * FROM: 29 20 20
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

int done[2];

void *worker(void *arg) {
    int id = (int)(long)arg;
    (void)id;
    done[id] = 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)0);
    pthread_create(&b, 0, worker, (void *)1);
    pthread_t first = a;
    pthread_join(first, 0);
    assert(done[0] == 1);
    pthread_join(b, 0);
    return 0;
}
