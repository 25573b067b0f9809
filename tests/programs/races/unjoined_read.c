/* RACES: output write@11 read@19
 * main reads `output` without joining the child that writes it. */
#include <pthread.h>
#include <assert.h>

int output;

void *child(void *arg)
{
    (void)arg;
    output = 1;
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, child, 0);
    int seen = output;
    pthread_join(t, 0);
    assert(seen == 0 || seen == 1);
    return 0;
}
