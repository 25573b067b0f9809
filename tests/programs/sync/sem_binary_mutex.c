/* A semaphore of value 1 used as a lock around a shared counter by three
 * workers: no update is lost.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t guard;
int counter;

void *worker(void *arg) {
    sem_wait(&guard);
    int c = counter;
    counter = c + 1;
    sem_post(&guard);
    return 0;
}

int main(void) {
    pthread_t t[3];
    sem_init(&guard, 0, 1);
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(counter == 3);
    sem_destroy(&guard);
    return 0;
}
