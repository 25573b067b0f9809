/* Two threads increment a shared counter without a lock: each reads it, then
 * writes what it read plus one, so one increment can overwrite the other.
 * The end-to-end test (e2e.lua) finds the lines it expects by the markers in
 * the comments below. */
#include <assert.h>
#include <pthread.h>

int counter = 0;

void *increment(void *arg)
{
    int seen = counter;
    counter = seen + 1;
    return 0;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, increment, 0);
    pthread_create(&b, 0, increment, 0);
    pthread_join(a, 0); /* distaff-test: check from here */
    pthread_join(b, 0);
    assert(counter >= 1); /* distaff-test: holds */
    assert(counter == 2); /* distaff-test: fails */
    return 0;
}
