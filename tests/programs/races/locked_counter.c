/* RACES: none
 * The racy counter with a mutex around the increment: no data race. */
#include <pthread.h>
#include <assert.h>

int counter = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    counter = counter + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(counter == 2);
    return 0;
}
