/* Two threads on the same node of an array of lock-protected nodes (the
 * arbitrary-context paper's Figure 1, our own text). The bumping thread
 * re-reads the node under its lock, so its assertion holds whatever the
 * other thread does.
 * VERDICT: holds
 * RUNS: baseline=6387
 */
#include <pthread.h>
#include <assert.h>

#define COUNT 4

struct cell {
    pthread_mutex_t guard;
    int value;
};

struct cell cells[COUNT];
int rounds_a = 2, rounds_b = 2;
int chosen;

void bump(struct cell *c) {
    for (int i = 0; i < rounds_a; i++) {
        pthread_mutex_lock(&c->guard);         /* context: bumping thread */
        int before = c->value;
        c->value = before + 1;
        assert(c->value == before + 1);
        pthread_mutex_unlock(&c->guard);
    }
}

void add_tens(struct cell *c) {
    pthread_mutex_lock(&c->guard);
    for (int j = 0; j < rounds_b; j++) {       /* context: adding thread */
        c->value = c->value + 10;
    }
    pthread_mutex_unlock(&c->guard);
}

void *run_bump(void *arg) {
    int k = chosen;
    bump(&cells[k]);
    return 0;
}

void *run_add(void *arg) {
    int k = chosen;
    add_tens(&cells[k]);
    return 0;
}

int main(void) {
    pthread_t ta, tb;
    for (int i = 0; i < COUNT; i++)
        pthread_mutex_init(&cells[i].guard, 0);
    chosen = 1;
    pthread_create(&ta, 0, run_bump, 0);
    pthread_create(&tb, 0, run_add, 0);
    pthread_join(ta, 0);
    pthread_join(tb, 0);
    return 0;
}
