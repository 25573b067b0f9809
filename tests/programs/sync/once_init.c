/* Lazy initialisation with pthread_once: whichever worker comes first runs
 * init, the other waits until it has returned, so both see the table ready
 * and init runs once.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
int table[2];
int inits;

void init(void) {
    inits++;
    table[0] = 1;
    table[1] = 2;
}

void *worker(void *arg) {
    pthread_once(&once, init);
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
