/* Three threads lazily initialise a shared table on first use by testing an inited flag without a
 * lock, so two threads can both see it unset and both run the initialiser (schedule: t0 and t1
 * both test inited == 0 before either sets it), and init_runs ends at 2.
 * STYLE: reach-error-misc
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);

int inited = 0;
int init_runs = 0;
int table[4];

void init_table(void) {
    init_runs = init_runs + 1;
    for (int i = 0; i < 4; i++)
        table[i] = i * 3;
}

void *user(void *arg) {
    if (!inited) {
        init_table();
        inited = 1;
    }
    return NULL;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, user, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    if (init_runs != 1) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
