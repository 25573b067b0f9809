/* A worker that fails its input check returns without posting: main's wait
 * for the second completion then sleeps for ever.
 * FINDING: deadlock
 */
#include <pthread.h>
#include <semaphore.h>

extern int __VERIFIER_nondet_int(void);

sem_t done;
int input;

void *worker(void *arg) {
    if (input < 0)
        return 0; /* forgot sem_post(&done) */
    sem_post(&done);
    return 0;
}

int main(void) {
    pthread_t a, b;
    input = __VERIFIER_nondet_int();
    sem_init(&done, 0, 0);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    sem_wait(&done);
    sem_wait(&done);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
