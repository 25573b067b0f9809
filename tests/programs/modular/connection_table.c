/* A server starts a thread per connection, for ever; each handler counts its
 * connection in a table under one lock. No interleaving and no number of
 * connections makes a count or the total less than one right after the
 * handler counted (a count that would overflow ends its run: undefined in C).
 * VERDICT 24: holds
 * VERDICT 25: holds
 */
#include <pthread.h>
#include <assert.h>

#define SLOTS 8

extern int __VERIFIER_nondet_int(void);

int per_slot[SLOTS];
int served;
pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

void *handle(void *arg) {
    int slot = (int)(long)arg;
    pthread_mutex_lock(&table_lock);
    per_slot[slot] = per_slot[slot] + 1;
    served = served + 1;
    assert(served >= 1);
    assert(per_slot[slot] >= 1);
    pthread_mutex_unlock(&table_lock);
    return 0;
}

int main(void) {
    for (;;) {
        int client = __VERIFIER_nondet_int();
        if (client < 0 || client >= SLOTS)
            continue;
        pthread_t t;
        pthread_create(&t, 0, handle, (void *)(long)client);
    }
    return 0;
}
