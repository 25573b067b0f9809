/* An MCS-style queue lock whose enqueuing thread links itself behind its
 * predecessor before it marks its own node locked: a predecessor leaving in
 * between clears the flag, the new thread then sets it and waits for a
 * hand-over that already happened. It spins forever.
 * VERDICT: holds
 * FINDING: stuck
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <assert.h>

struct qnode {
    struct qnode *_Atomic next;
    atomic_int locked;
};

struct qnode *_Atomic tail;
struct qnode nodes[2];
int inside;

static void acquire(struct qnode *me) {
    atomic_store(&me->next, NULL);
    struct qnode *pred = atomic_exchange(&tail, me);
    if (pred != NULL) {
        atomic_store(&pred->next, me);
        atomic_store(&me->locked, 1);
        while (atomic_load(&me->locked))
            ;
    }
}

static void release(struct qnode *me) {
    if (atomic_load(&me->next) == NULL) {
        struct qnode *expected = me;
        if (atomic_compare_exchange_strong(&tail, &expected, NULL))
            return;
        while (atomic_load(&me->next) == NULL)
            ;
    }
    atomic_store(&atomic_load(&me->next)->locked, 0);
}

void *worker(void *arg) {
    struct qnode *me = &nodes[(long)arg];
    acquire(me);
    inside++;
    assert(inside == 1);
    inside--;
    release(me);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)0);
    pthread_create(&b, 0, worker, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
