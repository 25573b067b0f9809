/* Three threads lazily initialise a shared table through pthread_once and then read from it; main
 * checks the initialiser ran once. Invariant: pthread_once runs init_table exactly once and returns
 * in every caller only after it has finished, so every reader sees the filled table.
 * STYLE: reach-error-misc
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

pthread_once_t once = PTHREAD_ONCE_INIT;
int init_runs = 0;
int table[4];

void init_table(void) {
    init_runs = init_runs + 1;
    for (int i = 0; i < 4; i++)
        table[i] = i * 3;
}

void *user(void *arg) {
    pthread_once(&once, init_table);
    __VERIFIER_assert(table[3] == 9);
    return NULL;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, user, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    __VERIFIER_assert(init_runs == 1);
    return 0;
}
