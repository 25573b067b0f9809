/* Thread ids from creation arguments: main starts three workers in a loop,
 * handing each the loop counter as its id; a worker updates its own
 * counter without a lock, which is safe because no two workers share an
 * id.
 *
 * From two workers at the update (the same line twice: two instances),
 * each instance's id is the argument of a different iteration of main's
 * creation loop, so the ids differ and lie in 0..2: nobody else writes a
 * worker's counter and the assertion holds. With fresh symbols the two ids
 * may be equal and the two read-modify-writes interleave.
 *
 * FROM: 26 26
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

#define WORKERS 3

int hits[WORKERS];

void *worker(void *arg) {
    int id = (int)(long)arg;
    int before = hits[id];
    hits[id] = before + 1;                          /* from here (1,2): two workers */
    assert(hits[id] == before + 1);
    return 0;
}

int main(void) {
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)i);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], 0);
    return 0;
}
