/* Two workers wait for one job with `if` instead of `while`: a worker woken
 * (by the broadcast, or spuriously) when the other has taken the job takes
 * one that is not there.
 * VERDICT: violated */
#include <pthread.h>
#include <assert.h>
int jobs, taken;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    if (jobs == 0)
        pthread_cond_wait(&c, &m);
    jobs--;
    taken++;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_mutex_lock(&m);
    jobs = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(taken <= 1);
    return 0;
}
