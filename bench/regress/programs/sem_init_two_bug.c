/* A semaphore meant as a mutex is initialised to 2, so two of the three threads can be inside the
 * load-store increment at once (schedule: t0 and t1 both pass sem_wait, both load 0, both store
 * 1), and the counter ends below 6.
 * STYLE: rwlock-sem
 * EXPECT: false
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
    sem_init(&s, 0, 2);
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    __VERIFIER_assert(count == 6);
    return 0;
}
