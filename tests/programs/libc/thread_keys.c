/* Per-thread data through pthread keys, in the style of the verification
 * benchmarks: each worker stores its own id under one key and must read its
 * own value back, whatever the other worker stored; main, which never set the
 * key, reads NULL. pthread_self and pthread_equal tell the threads apart.
 * VERDICT: holds
 * VERDICT 25: unreachable
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern void abort(void);
void reach_error(void) { abort(); }

pthread_key_t key;
pthread_t workers[2];
int ids[2] = {1, 2};

void *worker(void *arg) {
    int *mine = (int *)arg;
    pthread_setspecific(key, mine);
    int *back = (int *)pthread_getspecific(key);
    if (back != mine || *back != *mine) {
        reach_error();
    }
    assert(!pthread_equal(pthread_self(), workers[0]) || *mine == 1 || workers[0] == workers[1]);
    return 0;
}

int main(void) {
    pthread_t me = pthread_self();
    assert(pthread_equal(me, pthread_self()));
    assert(pthread_key_create(&key, NULL) == 0);
    assert(pthread_getspecific(key) == NULL);
    pthread_create(&workers[0], 0, worker, &ids[0]);
    pthread_create(&workers[1], 0, worker, &ids[1]);
    pthread_join(workers[0], 0);
    pthread_join(workers[1], 0);
    assert(!pthread_equal(workers[0], workers[1]));
    assert(pthread_getspecific(key) == NULL);
    pthread_key_delete(key);
    return 0;
}
