/* A pool of 4 slots: workers take a slot by decrementing `free_slots` under
 * the lock and never give it back. The count only goes down from the 4
 * main set, so it never exceeds 4, wherever the other workers are. From a
 * worker about to read it the value is unknown but bounded above.
 *
 * FROM: 22 33
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int free_slots = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (free_slots > 0)
        free_slots = free_slots - 1;
    pthread_mutex_unlock(&m);
    int left = free_slots;
    assert(left <= 4);
    return 0;
}

int main(void) {
    pthread_t w[2];
    free_slots = 4;
    for (int i = 0; i < 2; i++)
        pthread_create(&w[i], 0, worker, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], 0);
    return 0;
}
