/* The pool of two resources with its semaphore started at 3: all three
 * workers can be inside at once.
 * VERDICT: violated
 */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t slots;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int inside;

void *worker(void *arg) {
    sem_wait(&slots);
    pthread_mutex_lock(&m);
    inside++;
    assert(inside <= 2);
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    inside--;
    pthread_mutex_unlock(&m);
    sem_post(&slots);
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    sem_init(&slots, 0, 3);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_create(&c, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
