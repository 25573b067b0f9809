/* Two workers wait for a job each; main posts one job and signals, then a
 * second. The worker the first signal wakes can take its job before main
 * posts the second while the other still waits: a schedule with no spurious
 * wake-up. Nidhugg (-sc -optimal) reported no error here (20 traces); the
 * binary built with gcc fails the assertion when main sleeps between the
 * two posts, as the counterexample's order has it.
 * VERDICT: violated */
#include <pthread.h>
#include <assert.h>

int jobs = 0, waiting = 0, woke_and_took = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t posted = PTHREAD_COND_INITIALIZER;

void *worker(void *arg) {
    int waited = 0;
    pthread_mutex_lock(&m);
    waiting++;
    while (jobs == 0) {
        waited = 1;
        pthread_cond_wait(&posted, &m);
    }
    waiting--;
    jobs--;
    if (waited)
        woke_and_took++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_mutex_lock(&m);
    jobs++;
    pthread_cond_signal(&posted);
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    assert(!(woke_and_took == 1 && waiting == 1));
    jobs++;
    pthread_cond_signal(&posted);
    pthread_mutex_unlock(&m);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
