/* pthread operations and their arguments; __VERIFIER_atomic_* functions and
 * regions; a body given for a built-in is not lowered. */
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv;
pthread_barrier_t bar;
int count;

int pthread_mutex_lock(pthread_mutex_t *mutex) { return 0; }

void __VERIFIER_atomic_incr(void) { count++; }

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    while (count == 0)
        pthread_cond_wait(&cv, &m);
    count--;
    pthread_mutex_unlock(&m);
    pthread_barrier_wait(&bar);
    __VERIFIER_atomic_incr();
    __VERIFIER_atomic_begin();
    count += 2;
    __VERIFIER_atomic_end();
    pthread_exit(0);
}

int main(void) {
    pthread_t t;
    pthread_mutex_init(&m, 0);
    pthread_cond_init(&cv, 0);
    pthread_barrier_init(&bar, 0, 2);
    if (pthread_create(&t, 0, worker, 0) != 0)
        return 1;
    pthread_mutex_lock(&m);
    count = 1;
    pthread_cond_signal(&cv);
    pthread_cond_broadcast(&cv);
    if (pthread_mutex_trylock(&m) == 0)
        pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    pthread_barrier_wait(&bar);
    pthread_join(t, 0);
    pthread_t self = pthread_self();
    pthread_mutex_destroy(&m);
    pthread_cond_destroy(&cv);
    pthread_barrier_destroy(&bar);
    return (int)self;
}
