/* Two threads alternate three rounds each through turn and one condition variable, waiting with
 * while (turn != me). Invariant: a thread acts only holding the mutex with turn == me and then
 * hands the turn over, so the rounds alternate and end with six rounds and turn == 0.
 * STYLE: if-wait
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
void __VERIFIER_assert(int cond) {
    if (!cond) {
    ERROR:
        reach_error();
        abort();
    }
}

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int turn = 0;
int rounds = 0;

void *player(void *arg) {
    int me = *(int *)arg;
    for (int k = 0; k < 3; k++) {
        pthread_mutex_lock(&m);
        while (turn != me)
            pthread_cond_wait(&cv, &m);
        __VERIFIER_assert(turn == me);
        rounds = rounds + 1;
        turn = 1 - me;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void) {
    pthread_t t0, t1;
    int id0 = 0, id1 = 1;
    pthread_create(&t0, NULL, player, &id0);
    pthread_create(&t1, NULL, player, &id1);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    __VERIFIER_assert(rounds == 6 && turn == 0);
    return 0;
}
