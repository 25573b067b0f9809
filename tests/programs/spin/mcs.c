/* An MCS-style queue lock for two threads: a thread swaps its own node into
 * the tail; with a predecessor it links itself behind it and spins on its own
 * node's flag until the predecessor hands the lock over. Leaving, a thread
 * with no successor in sight tries to swing the tail back to empty; when that
 * fails a successor is enqueuing, and it waits for the link before handing
 * over. Both waits are awaits.
 * VERDICT: holds
 * FINDING: none
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
    atomic_store(&me->locked, 1);
    struct qnode *pred = atomic_exchange(&tail, me);
    if (pred != NULL) {
        atomic_store(&pred->next, me);
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
