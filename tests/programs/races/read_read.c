/* RACES: none
 * Two threads only read a shared table that main filled before creating
 * them: reads never race with reads. */
#include <pthread.h>
#include <assert.h>

int table[2];
int sums[2];

void *reader(void *arg)
{
    long i = (long)arg;
    sums[i] = table[0] + table[1];
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    table[0] = 1;
    table[1] = 2;
    pthread_create(&t1, 0, reader, (void *)0);
    pthread_create(&t2, 0, reader, (void *)1);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(sums[0] == 3 && sums[1] == 3);
    return 0;
}
