/* Lazy initialisation with the check and the initialisation under one
 * mutex: exactly one thread initialises.
 * EXPECT: holds
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

int initialised;
int inits;
pthread_mutex_t m;

void *use(void *arg) {
    pthread_mutex_lock(&m);
    if (!initialised) {
        inits = inits + 1;
        initialised = 1;
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_mutex_init(&m, 0);
    for (int k = 0; k < 3; k++)
        pthread_create(&t[k], 0, use, 0);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], 0);
    assert(inits == 1);
    return 0;
}
