/* Eight threads pass a baton in id order: thread i waits (assume in an atomic section) until
 * turn == i, checks it is the step-th to act, and hands on to i + 1. Invariant: turn == step at
 * every atomic boundary, and only thread turn can act, so thread i always acts as step i.
 * STYLE: many-threads
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

#define N 8

int turn = 0;
int step = 0;
int ids[N];

void *runner(void *arg) {
    int id = *(int *)arg;
    __VERIFIER_atomic_begin();
    __VERIFIER_assume(turn == id);
    if (step != id) {
    ERROR:
        reach_error();
        abort();
    }
    step = step + 1;
    turn = id + 1;
    __VERIFIER_atomic_end();
    return NULL;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++) {
        ids[i] = i;
        pthread_create(&t[i], NULL, runner, &ids[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    if (turn != N) {
        reach_error();
        abort();
    }
    return 0;
}
