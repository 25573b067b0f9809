/* A nondeterministic number of workers each claim a slot of a fixed table:
 * the next free index is checked and taken under one lock, so a claimed
 * index is always inside the table, however many workers come.
 * VERDICT 26: holds
 */
#include <pthread.h>
#include <assert.h>

#define SLOTS 3

extern int __VERIFIER_nondet_int(void);

int next_free;
int owner[SLOTS];
pthread_mutex_t claim = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    int mine = -1;
    pthread_mutex_lock(&claim);
    if (next_free < SLOTS) {
        mine = next_free;
        next_free = next_free + 1;
    }
    pthread_mutex_unlock(&claim);
    if (mine >= 0) {
        assert(mine < SLOTS);
        owner[mine] = 1;
    }
    return 0;
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    for (int i = 0; i < n; i++) {
        pthread_t t;
        pthread_create(&t, 0, worker, 0);
    }
    return 0;
}
