/* Twelve threads each bump a shared counter once by a plain load and store; main joins all and
 * expects 12. Two threads that load the same value lose one update (schedule: t0 loads 0, t1 loads
 * 0, both store 1, the other ten increment normally: count == 11).
 * STYLE: many-threads
 * EXPECT: false
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

#define N 12

int count = 0;

void *bump(void *arg) {
    int tmp = count;
    count = tmp + 1;
    return NULL;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, bump, NULL);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    __VERIFIER_assert(count == N);
    return 0;
}
