/* RACES: none
 * Each worker writes its own slot, waits at a barrier, then reads the other
 * worker's slot: the barrier orders every write before every read. */
#include <pthread.h>
#include <assert.h>

int slot[2];
int seen[2];
pthread_barrier_t b;

void *worker(void *arg)
{
    long i = (long)arg;
    slot[i] = (int)i + 1;
    pthread_barrier_wait(&b);
    seen[i] = slot[1 - i];
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_barrier_init(&b, 0, 2);
    pthread_create(&t1, 0, worker, (void *)0);
    pthread_create(&t2, 0, worker, (void *)1);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(seen[0] == 2 && seen[1] == 1);
    return 0;
}
