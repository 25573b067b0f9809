/* RACES: none
 * A consumer waits on a condition variable for the producer's item; the item
 * is written before the signal and read after the wait returns. */
#include <pthread.h>
#include <assert.h>

int item;
int ready;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

void *producer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    item = 7;
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&c, &m);
    int got = item;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    assert(got == 7);
    return 0;
}
