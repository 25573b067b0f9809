/* mcs_lock.c with a lock that reads the tail and then stores its own node
 * there, two steps where the exchange was one: both threads can read an
 * empty queue and go in together. A thread can also link itself behind a
 * node whose owner has left, and wait for a hand-off that never comes, or
 * the owner wait for a link that never comes.
 * VERDICT 58: violated
 * VERDICT 71: holds
 * FINDING: stuck 36
 * FINDING: stuck 48
 * UNWIND: 2
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <assert.h>

#define cpu_relax() __asm__ __volatile__("pause" ::: "memory")

struct mcs_node {
    _Atomic(struct mcs_node *) next;
    atomic_bool locked;
};

static _Atomic(struct mcs_node *) tail;
static struct mcs_node nodes[2];
static int inside, counter;

static void mcs_lock(struct mcs_node *me) {
    atomic_store_explicit(&me->next, NULL, memory_order_relaxed);
    atomic_store_explicit(&me->locked, true, memory_order_relaxed);
    struct mcs_node *prev = atomic_load_explicit(&tail, memory_order_acquire);
    atomic_store_explicit(&tail, me, memory_order_release);
    if (prev != NULL) {
        atomic_store_explicit(&prev->next, me, memory_order_release);
        while (atomic_load_explicit(&me->locked, memory_order_acquire))
            cpu_relax();
    }
}

static void mcs_unlock(struct mcs_node *me) {
    struct mcs_node *next = atomic_load_explicit(&me->next, memory_order_acquire);
    if (next == NULL) {
        struct mcs_node *expected = me;
        if (atomic_compare_exchange_strong_explicit(&tail, &expected, NULL, memory_order_release,
                                                    memory_order_relaxed))
            return;
        while ((next = atomic_load_explicit(&me->next, memory_order_acquire)) == NULL)
            cpu_relax();
    }
    atomic_store_explicit(&next->locked, false, memory_order_release);
}

static void *worker(void *arg) {
    struct mcs_node *me = arg;
    mcs_lock(me);
    inside++;
    assert(inside == 1);
    counter++;
    inside--;
    mcs_unlock(me);
    return NULL;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, &nodes[0]);
    pthread_create(&t2, NULL, worker, &nodes[1]);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    assert(counter == 2);
    return 0;
}
