/* A Michael-Scott lock-free queue on C11 atomics: a dummy node, head and
 * tail as _Atomic pointers, enqueue links the node with a compare-and-swap
 * on the last node's next and then swings the tail (helping a lagging tail
 * along), dequeue swings the head. Two threads enqueue one value each at
 * once; main dequeues after they end: every value comes out exactly once.
 * VERDICT: holds
 * FINDING: none
 * UNWIND: 2
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <assert.h>

struct node {
    int value;
    _Atomic(struct node *) next;
};

struct queue {
    _Atomic(struct node *) head;
    _Atomic(struct node *) tail;
};

static struct node dummy, n1 = { .value = 1 }, n2 = { .value = 2 };
static struct queue q = { &dummy, &dummy };
static int taken[3];

static void enqueue(struct queue *q, struct node *node) {
    atomic_store_explicit(&node->next, NULL, memory_order_relaxed);
    for (;;) {
        struct node *tail = atomic_load_explicit(&q->tail, memory_order_acquire);
        struct node *next = atomic_load_explicit(&tail->next, memory_order_acquire);
        if (tail != atomic_load_explicit(&q->tail, memory_order_acquire))
            continue;
        if (next == NULL) {
            if (atomic_compare_exchange_weak_explicit(&tail->next, &next, node,
                                                      memory_order_release, memory_order_relaxed)) {
                atomic_compare_exchange_strong(&q->tail, &tail, node);
                return;
            }
        } else {
            atomic_compare_exchange_strong(&q->tail, &tail, next);
        }
    }
}

static bool dequeue(struct queue *q, int *value) {
    for (;;) {
        struct node *head = atomic_load(&q->head);
        struct node *tail = atomic_load(&q->tail);
        struct node *next = atomic_load(&head->next);
        if (head != atomic_load(&q->head))
            continue;
        if (head == tail) {
            if (next == NULL)
                return false;
            atomic_compare_exchange_strong(&q->tail, &tail, next);
        } else {
            *value = next->value;
            if (atomic_compare_exchange_strong(&q->head, &head, next))
                return true;
        }
    }
}

static void *producer(void *arg) {
    enqueue(&q, arg);
    return NULL;
}

int main(void) {
    pthread_t p1, p2;
    pthread_create(&p1, NULL, producer, &n1);
    pthread_create(&p2, NULL, producer, &n2);
    pthread_join(p1, NULL);
    pthread_join(p2, NULL);
    int v;
    while (dequeue(&q, &v))
        taken[v]++;
    assert(taken[1] == 1 && taken[2] == 1);
    return 0;
}
