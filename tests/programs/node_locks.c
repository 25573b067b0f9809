/* VERDICT: holds
 * Two threads pick the same slot of a table of locked counters. One bumps the
 * slot's counter under its lock and checks its own update survived; the other
 * adds to the counter repeatedly while holding the same lock. */
#include <pthread.h>
#include <assert.h>

#define SLOTS 3

struct slot {
    pthread_mutex_t guard;
    int count;
};

struct slot table[SLOTS];
int rounds_a = 2, rounds_b = 2;
int chosen;

void bump(struct slot *s) {
    for (int r = 0; r < rounds_a; r++) {
        pthread_mutex_lock(&s->guard);
        int before = s->count;
        s->count = before + 1;
        assert(s->count == before + 1);
        pthread_mutex_unlock(&s->guard);
    }
}

void pile_on(struct slot *s) {
    pthread_mutex_lock(&s->guard);
    for (int r = 0; r < rounds_b; r++)
        s->count += 5;
    pthread_mutex_unlock(&s->guard);
}

void *first(void *unused) {
    bump(&table[chosen]);
    return 0;
}

void *second(void *unused) {
    pile_on(&table[chosen]);
    return 0;
}

int main(void) {
    pthread_t a, b;
    for (int i = 0; i < SLOTS; i++)
        pthread_mutex_init(&table[i].guard, 0);
    chosen = 2;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
