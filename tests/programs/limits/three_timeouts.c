/* Three assertions whose checks never finish on their own: four threads'
 * loops over shared counters have more interleavings than any budget explores.
 * With --assertion-timeout S each check takes S seconds and its assertion is
 * undecided (timeout), whatever the machine's speed: a check that lasts a
 * known time, for the progress line's terminal test (no interval proves them). */
#include <pthread.h>
#include <assert.h>

int x, y, z;

void *worker(void *arg) {
    for (int i = 0; i < 3; i++) {
        x = x + 1;
        y = y + x;
        z = z + y;
    }
    return 0;
}

int main(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    assert(x <= 12);
    assert(y < 10000);
    assert(z < 100000);
    return 0;
}
