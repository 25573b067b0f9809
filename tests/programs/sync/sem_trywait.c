/* Two threads try to take one token without blocking: exactly one gets it,
 * so "taken" ends at 1; but a thread that ignores the result of
 * sem_trywait and counts itself as a winner breaks it.
 * VERDICT 34: holds
 * VERDICT 35: holds
 * VERDICT 36: violated
 */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t token;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int taken, claimed;

void *contender(void *arg) {
    int got = sem_trywait(&token) == 0;
    pthread_mutex_lock(&m);
    taken += got;
    claimed += 1; /* ignores whether it got the token */
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int value;
    sem_init(&token, 0, 1);
    pthread_create(&a, 0, contender, 0);
    pthread_create(&b, 0, contender, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    sem_getvalue(&token, &value);
    assert(value == 0);
    assert(taken == 1);
    assert(claimed == 1);
    return 0;
}
