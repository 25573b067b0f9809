/* claim_slot.c with the check outside the lock: two workers both see the
 * last free slot, and the second takes the index past the table.
 * VERDICT 24: violated
 */
#include <pthread.h>
#include <assert.h>

#define SLOTS 1

extern int __VERIFIER_nondet_int(void);

int next_free;
pthread_mutex_t claim = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    int mine = -1;
    if (next_free < SLOTS) {
        pthread_mutex_lock(&claim);
        mine = next_free;
        next_free = next_free + 1;
        pthread_mutex_unlock(&claim);
    }
    if (mine >= 0)
        assert(mine < SLOTS);
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
