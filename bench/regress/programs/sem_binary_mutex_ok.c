/* A POSIX semaphore initialised to 1 serves as a mutex for three threads that each bump a counter
 * twice by a load and a store; main joins all and checks 6. Invariant: the semaphore's value plus
 * the number of threads inside the section is 1, so at most one thread is between load and store.
 * STYLE: rwlock-sem
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

void reach_error(void);
void __VERIFIER_assert(int cond) {
    if (!cond) {
    ERROR:
        reach_error();
        abort();
    }
}

sem_t s;
int count = 0;

void *worker(void *arg) {
    for (int k = 0; k < 2; k++) {
        sem_wait(&s);
        int tmp = count;
        count = tmp + 1;
        sem_post(&s);
    }
    return NULL;
}

int main(void) {
    pthread_t t[3];
    sem_init(&s, 0, 1);
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    __VERIFIER_assert(count == 6);
    return 0;
}
