/* The same lazy initialisation written by hand with a flag instead of
 * pthread_once: both workers can see the flag clear and both initialise
 * (the table still ends right: both write the same values).
 * VERDICT 25: holds
 * VERDICT 35: violated
 */
#include <pthread.h>
#include <assert.h>

int ready;
int table[2];
int inits;

void init(void) {
    inits++;
    table[0] = 1;
    table[1] = 2;
}

void *worker(void *arg) {
    if (!ready) {
        init();
        ready = 1;
    }
    assert(table[0] + table[1] == 3);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(inits == 1);
    return 0;
}
