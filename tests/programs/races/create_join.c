/* RACES: none
 * main writes `input` before creating the child, the child reads it and
 * writes `output`, main reads `output` after joining: create and join order
 * every pair of accesses. */
#include <pthread.h>
#include <assert.h>

int input, output;

void *child(void *arg)
{
    (void)arg;
    output = input * 2;
    return 0;
}

int main(void)
{
    pthread_t t;
    input = 21;
    pthread_create(&t, 0, child, 0);
    pthread_join(t, 0);
    assert(output == 42);
    return 0;
}
