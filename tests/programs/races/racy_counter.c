/* RACES: counter write@12 write@12; counter write@12 read@12
 * Two workers increment a counter without a lock. The final assertion holds
 * (the counter is 1 or 2), yet the increments race. */
#include <pthread.h>
#include <assert.h>

int counter = 0;

void *worker(void *arg)
{
    (void)arg;
    counter = counter + 1;
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(counter >= 1 && counter <= 2);
    return 0;
}
