/* Twelve threads each count their arrival in one atomic section and check whether the count
 * reached twelve in a second one; two threads can both see 12 (schedule: ten threads arrive and
 * check, the last two both increment before either checks, and both count as winners).
 * STYLE: many-threads
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

#define N 12

int arrived = 0;
int winners = 0;

void *arrive(void *arg) {
    __VERIFIER_atomic_begin();
    arrived = arrived + 1;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    if (arrived == N)
        winners = winners + 1;
    __VERIFIER_atomic_end();
    return NULL;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, arrive, NULL);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    if (winners != 1) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
