/* Lazy initialisation checked without a lock: two threads may both see the
 * object uninitialised and both initialise it.
 * EXPECT: violated
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

int initialised;
int inits;

void *use(void *arg) {
    if (!initialised) {
        inits = inits + 1;
        initialised = 1;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, use, 0);
    pthread_create(&b, 0, use, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(inits == 1);
    return 0;
}
