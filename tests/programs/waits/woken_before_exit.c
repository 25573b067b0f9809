/* A worker waits for `go` in a loop; main sets it under the mutex and
 * returns without signalling or joining. POSIX lets the worker wake
 * spuriously, see `go` set and reach its assertion before main's return
 * ends the process. The worker's only read of `go` before it waits comes
 * before main's write (the mutex orders them), so nothing in that read
 * races with the write: the wait itself has to be woken by the change.
 * VERDICT: violated */
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int go, waiting;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    waiting = 1;
    while (!go)
        pthread_cond_wait(&c, &m);
    assert(0);
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    if (waiting)
        go = 1;
    pthread_mutex_unlock(&m);
    return 0;
}
